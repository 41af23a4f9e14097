package offline_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/tools"
	builtintools "github.com/gear-chat/gear/tools/builtin"
	"github.com/gear-chat/gear/tools/place"
)

// The offline engine at scale: the benchmark libraries of
// ../shared/benchmarks (FORMAT.md) grounded as gear grounds an MCP
// server's tools — each a tool with its JSON Schema, its usage examples,
// no hints, not read-only (so never run: its arguments are its mock) —
// with the default options. TestMeasureOfflineAtScale prints, per set,
// top-1 and top-5 over the tool items (only `candidates` ranked where an
// item gives them; `also` counts as right), the abstention rate on `none`
// items and the false-abstention rate on tool items. It needs
// GEAR_BENCHMARKS=../shared/benchmarks (GEAR_BENCHMARK_SETS=a,b picks
// sets); the project's blind unseen library (testdata/blind/unseen-library)
// is measured too, as a check, never tuned on.

type scaleTool struct{ spec tools.Spec }

func (s scaleTool) Spec() tools.Spec { return s.spec }
func (scaleTool) Run(context.Context, tools.Call) (tools.Result, error) {
	return tools.Result{}, fmt.Errorf("benchmark tools do not run")
}

type scaleLibrary struct {
	Tools []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Examples    []struct {
			Query     string                     `json:"query"`
			Arguments map[string]json.RawMessage `json:"arguments"`
		} `json:"examples"`
	} `json:"tools"`
}

type scaleQuery struct {
	ID         string   `json:"id"`
	Query      string   `json:"query"`
	Tool       string   `json:"tool"`
	Also       []string `json:"also"`
	Candidates []string `json:"candidates"`
}

// renamed maps a benchmark name to the registered one (see loadScaleLibrary).
var renamed = map[string]string{}

func loadScaleLibrary(t testing.TB, path string) []tools.Tool {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lib scaleLibrary
	if err := json.Unmarshal(raw, &lib); err != nil {
		t.Fatal(err)
	}
	var out []tools.Tool
	for _, lt := range lib.Tools {
		params, err := tools.ParamsFromSchema(lt.InputSchema)
		if err != nil {
			t.Logf("%s: %v (left without parameters)", lt.Name, err)
			params = nil
		}
		name := lt.Name
		for len(tools.WireName(name)) > tools.MaxWireNameLen && strings.Contains(name, ".") {
			// The registry refuses a name longer than model APIs take:
			// drop its leading namespaces, as a person renaming it would.
			name = name[strings.Index(name, ".")+1:]
		}
		spec := tools.Spec{Name: name, Family: tools.Family(lt.Name), Description: lt.Description,
			Params: params, Source: tools.Source{Kind: tools.SourceMCP, Name: "bench"}, Effect: tools.EffectWrites,
			InputSchema: lt.InputSchema}
		for _, ex := range lt.Examples {
			spec.Examples = append(spec.Examples, tools.Example{Query: ex.Query, Call: exampleCall(spec, ex.Query, ex.Arguments)})
		}
		if strings.TrimSpace(spec.Description) == "" {
			spec.Description = lt.Name
		}
		out = append(out, scaleTool{spec})
		renamed[lt.Name] = name
	}
	return out
}

// exampleCall writes a usage example's call in the JSON form, arguments
// in parameter order; an example without arguments (MetaTool's) passes
// its query to each required string parameter.
func exampleCall(spec tools.Spec, query string, args map[string]json.RawMessage) string {
	var parts []string
	for _, p := range spec.Params {
		v, ok := args[p.Name]
		if !ok && args == nil && !p.Optional {
			v, _ = json.Marshal(query)
			ok = true
		}
		if ok {
			k, _ := json.Marshal(p.Name)
			parts = append(parts, string(k)+": "+string(v))
		}
	}
	name, _ := json.Marshal(spec.Name)
	return `{"tool": ` + string(name) + `, "args": {` + strings.Join(parts, ", ") + `}}`
}

// keepParsable drops the examples whose call the registry refuses (an
// argument outside its schema), keeping their tool.
func keepParsable(t testing.TB, lib []tools.Tool) []tools.Tool {
	out := make([]tools.Tool, 0, len(lib))
	dropped := 0
	for _, tl := range lib {
		spec := tl.Spec()
		var keep []tools.Example
		for _, ex := range spec.Examples {
			probe := spec
			probe.Examples = []tools.Example{ex}
			if _, err := tools.NewRegistry(scaleTool{probe}); err != nil {
				dropped++
				continue
			}
			keep = append(keep, ex)
		}
		spec.Examples = keep
		out = append(out, scaleTool{spec})
	}
	if dropped > 0 {
		t.Logf("%d usage examples dropped: their call does not parse", dropped)
	}
	return out
}

func loadScaleQueries(t testing.TB, path string) []scaleQuery {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var qs []scaleQuery
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var q scaleQuery
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		qs = append(qs, q)
	}
	return qs
}

// scaleFigures are one set's figures.
type scaleFigures struct {
	toolItems, noneItems   int
	top1, top5             int
	abstained, falseAbsent int
	ms                     []float64
	misses                 []string
	// scored are the tool items' first tools by S, as fitGamma reads them.
	scored [][]scoredTool
}

func (f scaleFigures) String() string {
	sort.Float64s(f.ms)
	p50 := 0.0
	if len(f.ms) > 0 {
		p50 = f.ms[len(f.ms)/2]
	}
	s := fmt.Sprintf("tool items %d: top-1 %.3f top-5 %.3f false-abstain %.3f", f.toolItems,
		ratio(f.top1, f.toolItems), ratio(f.top5, f.toolItems), ratio(f.falseAbsent, f.toolItems))
	if f.noneItems > 0 {
		s += fmt.Sprintf("; none items %d: abstain %.3f", f.noneItems, ratio(f.abstained, f.noneItems))
	}
	return s + fmt.Sprintf("; p50 %.2f ms", p50)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// measureScale grounds every query against lib (or its candidates).
func measureScale(t testing.TB, lib []tools.Tool, qs []scaleQuery, places *place.Gazetteer) scaleFigures {
	t.Helper()
	dump := openScoreDump(t)
	byName := map[string]tools.Tool{}
	for _, tl := range lib {
		byName[tl.Spec().Name] = tl
	}
	grounders := map[string]*grounding.Grounder{}
	grounderFor := func(names []string) *grounding.Grounder {
		key := strings.Join(names, "\x00")
		if g, ok := grounders[key]; ok {
			return g
		}
		sel := lib
		if names != nil {
			sel = nil
			for _, n := range names {
				if tl, ok := byName[renamed[n]]; ok {
					sel = append(sel, tl)
				}
			}
		}
		reg, err := tools.NewRegistry(sel...)
		if err != nil {
			t.Fatal(err)
		}
		eng := offline.New(offline.Options{Places: places, Tools: reg.Specs()})
		g, err := grounding.New(reg, eng.Grounding(), grounding.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if len(grounders) > 64 {
			clear(grounders)
		}
		grounders[key] = g
		return g
	}
	var fig scaleFigures
	ctx := context.Background()
	for _, q := range qs {
		g := grounderFor(q.Candidates)
		start := time.Now()
		r, err := g.Ground(ctx, q.Query)
		if err != nil {
			t.Fatalf("%s: %v", q.ID, err)
		}
		fig.ms = append(fig.ms, float64(time.Since(start).Microseconds())/1000)
		abstained := r.Choice.Tool == grounding.None
		if q.Tool == "none" {
			fig.noneItems++
			if abstained {
				fig.abstained++
			}
			continue
		}
		fig.toolItems++
		if abstained {
			fig.falseAbsent++
		}
		right := map[string]bool{renamed[q.Tool]: true}
		for _, a := range q.Also {
			right[renamed[a]] = true
		}
		dump.write(q.ID, r, right)
		fig.scored = append(fig.scored, firstBySemantic(r, right))
		ranked := r.Ranked()
		for k, ts := range ranked {
			if k >= 5 {
				break
			}
			if right[ts.Tool] {
				if k == 0 {
					fig.top1++
				}
				fig.top5++
				break
			}
		}
		if len(ranked) > 0 && !right[ranked[0].Tool] {
			fig.misses = append(fig.misses, fmt.Sprintf("%s %q: want %s, ranked %s", q.ID, q.Query, q.Tool, ranked[0].Tool))
		}
	}
	return fig
}

var loadPlaces = sync.OnceValues(place.Load)

func TestMeasureOfflineAtScale(t *testing.T) {
	dir := benchmarksDir(t)
	places, err := loadPlaces()
	if err != nil {
		t.Fatal(err)
	}
	sets := []string{"metatool", "bfcl", "sealtools", "unseen"}
	if s := os.Getenv("GEAR_BENCHMARK_SETS"); s != "" {
		sets = strings.Split(s, ",")
	}
	for _, set := range sets {
		libPath, qPath := filepath.Join(dir, set, "library.json"), filepath.Join(dir, set, "dev.jsonl")
		if set == "unseen" {
			libPath, qPath = "../../testdata/blind/unseen-library/library.json", "../../testdata/blind/unseen-library/queries.jsonl"
		}
		lib := keepParsable(t, loadScaleLibrary(t, libPath))
		qs := loadScaleQueries(t, qPath)
		if set == "bfcl" {
			// multiple + live multiple (tool items) and irrelevance apart.
			fig := measureScale(t, lib, qs, places)
			t.Logf("%s (%d tools): %v", set, len(lib), fig)
			logMisses(t, fig)
			continue
		}
		fig := measureScale(t, lib, qs, places)
		t.Logf("%s (%d tools): %v", set, len(lib), fig)
		logMisses(t, fig)
	}
}

func logMisses(t *testing.T, fig scaleFigures) {
	n := 0
	if s := os.Getenv("GEAR_SHOW_MISSES"); s != "" {
		fmt.Sscan(s, &n)
	}
	for i, m := range fig.misses {
		if i >= n {
			break
		}
		t.Log("  miss: " + m)
	}
}

// TestMeasureIndexRank ranks by the library index alone (no grounder), for
// each way of combining the card and the examples.
func TestMeasureIndexRank(t *testing.T) {
	dir := benchmarksDir(t)
	sets := []string{"metatool", "bfcl", "sealtools", "unseen"}
	if s := os.Getenv("GEAR_BENCHMARK_SETS"); s != "" {
		sets = strings.Split(s, ",")
	}
	// c is the card's cosine, e the best example's, x the examples' as
	// one document; the last row is the rule kept (library_index.go).
	combos := map[string]func(c, e, x float64) float64{
		"card":                     func(c, e, x float64) float64 { return c },
		"example":                  func(c, e, x float64) float64 { return e },
		"examples":                 func(c, e, x float64) float64 { return x },
		"max":                      func(c, e, x float64) float64 { return max(c, e) },
		"card+example":             func(c, e, x float64) float64 { return c + e },
		"card+0.5example":          func(c, e, x float64) float64 { return c + 0.5*e },
		"0.5card+example":          func(c, e, x float64) float64 { return 0.5*c + e },
		"kept: card+examples":      func(c, e, x float64) float64 { return c + x },
		"card+0.7examples":         func(c, e, x float64) float64 { return c + 0.7*x },
		"card+1.5examples":         func(c, e, x float64) float64 { return c + 1.5*x },
		"card+0.5example+examples": func(c, e, x float64) float64 { return c + 0.5*e + x },
	}
	names := make([]string, 0, len(combos))
	for n := range combos {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, set := range sets {
		libPath, qPath := filepath.Join(dir, set, "library.json"), filepath.Join(dir, set, "dev.jsonl")
		if set == "unseen" {
			libPath, qPath = "../../testdata/blind/unseen-library/library.json", "../../testdata/blind/unseen-library/queries.jsonl"
		}
		lib := keepParsable(t, loadScaleLibrary(t, libPath))
		qs := loadScaleQueries(t, qPath)
		byName := map[string]tools.Spec{}
		var all []tools.Spec
		for _, tl := range lib {
			byName[tl.Spec().Name] = tl.Spec()
			all = append(all, tl.Spec())
		}
		eng := offline.New(offline.Options{})
		whole := eng.IndexLibrary(all)
		top1 := map[string]int{}
		top5 := map[string]int{}
		n := 0
		wholeScores := eng.IndexTools(all)
		var dump *os.File
		if path := os.Getenv("GEAR_INDEX_DUMP"); path != "" {
			dump, _ = os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
			defer dump.Close()
		}
		for _, q := range qs {
			if dump != nil {
				specs := all
				if q.Candidates != nil {
					specs = nil
					for _, c := range q.Candidates {
						specs = append(specs, byName[renamed[c]])
					}
				}
				scorer := wholeScores
				if q.Candidates != nil {
					scorer = eng.IndexTools(specs)
				}
				rel := scorer.Relevance(q.Query)
				order := make([]int, len(specs))
				for i := range order {
					order[i] = i
				}
				sort.SliceStable(order, func(a, b int) bool { return rel.Scores[order[a]] > rel.Scores[order[b]] })
				second, mean := 0.0, 0.0
				if len(order) > 1 {
					second = rel.Scores[order[1]]
				}
				for _, s := range rel.Scores {
					mean += s
				}
				mean /= float64(len(specs))
				fmt.Fprintf(dump, "%s\t%s\t%v\t%.4f\t%.4f\t%.4f\t%.4f\t%d\n", set, q.ID, q.Tool == "none",
					rel.Scores[order[0]], second, mean, rel.Explained[order[0]], len(specs))
			}
			if q.Tool == "none" {
				continue
			}
			specs, ix := all, whole
			if q.Candidates != nil {
				specs = nil
				for _, c := range q.Candidates {
					specs = append(specs, byName[renamed[c]])
				}
				ix = eng.IndexLibrary(specs)
			}
			right := map[string]bool{renamed[q.Tool]: true}
			for _, a := range q.Also {
				right[renamed[a]] = true
			}
			rel := eng.Relevance(ix, q.Query)
			n++
			for _, name := range names {
				f := combos[name]
				order := make([]int, len(specs))
				for i := range order {
					order[i] = i
				}
				sort.SliceStable(order, func(a, b int) bool {
					return f(rel.Card[order[a]], rel.Example[order[a]], rel.Examples[order[a]]) > f(rel.Card[order[b]], rel.Example[order[b]], rel.Examples[order[b]])
				})
				for k, i := range order {
					if k >= 5 {
						break
					}
					if right[specs[i].Name] {
						if k == 0 {
							top1[name]++
						}
						top5[name]++
						break
					}
				}
			}
		}
		for _, name := range names {
			t.Logf("%-10s %-32s top-1 %.3f top-5 %.3f (%d)", set, name, ratio(top1[name], n), ratio(top5[name], n), n)
		}
	}
}

// TestDumpScaleScores writes, per item, the best tool's S, P, f and share
// of the query covered, for studying the none decision
// (GEAR_SCALE_DUMP=file).
func TestDumpScaleScores(t *testing.T) {
	dir, out := os.Getenv("GEAR_BENCHMARKS"), os.Getenv("GEAR_SCALE_DUMP")
	if dir == "" || out == "" {
		t.Skip("GEAR_BENCHMARKS or GEAR_SCALE_DUMP not set")
	}
	places, err := loadPlaces()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, set := range strings.Split(os.Getenv("GEAR_BENCHMARK_SETS"), ",") {
		libPath, qPath := filepath.Join(dir, set, "library.json"), filepath.Join(dir, set, "dev.jsonl")
		if set == "unseen" {
			libPath, qPath = "../../testdata/blind/unseen-library/library.json", "../../testdata/blind/unseen-library/queries.jsonl"
		}
		lib := keepParsable(t, loadScaleLibrary(t, libPath))
		byName := map[string]tools.Tool{}
		for _, tl := range lib {
			byName[tl.Spec().Name] = tl
		}
		for _, q := range loadScaleQueries(t, qPath) {
			sel := lib
			if q.Candidates != nil {
				sel = nil
				for _, c := range q.Candidates {
					sel = append(sel, byName[renamed[c]])
				}
			}
			reg, err := tools.NewRegistry(sel...)
			if err != nil {
				t.Fatal(err)
			}
			eng := offline.New(offline.Options{Places: places, Tools: reg.Specs()})
			g, err := grounding.New(reg, eng.Grounding(), grounding.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			r, err := g.Ground(context.Background(), q.Query)
			if err != nil {
				t.Fatal(err)
			}
			ix := eng.IndexLibrary(reg.Specs())
			rel := eng.Relevance(ix, q.Query)
			ranked := r.Ranked()
			best := ranked[0]
			second := 0.0
			if len(ranked) > 1 {
				second = ranked[1].S
			}
			bi := 0
			for i, s := range reg.Specs() {
				if s.Name == best.Tool {
					bi = i
				}
			}
			fmt.Fprintf(f, "%s\t%s\t%v\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%d\t%s\n", set, q.ID, q.Tool == "none",
				best.S, best.P, best.F, second, rel.Covered[bi], rel.Card[bi], rel.Example[bi], len(sel), best.Status)
		}
	}
}

// BenchmarkLibraryScorer measures building the offline library index and
// scoring one query against it, on Seal-Tools' 4,076 tools and MetaTool's
// 199 (GEAR_BENCHMARKS needed).
func BenchmarkLibraryScorer(b *testing.B) {
	dir := benchmarksDir(b)
	for _, set := range []string{"metatool", "sealtools"} {
		lib := loadScaleLibrary(b, filepath.Join(dir, set, "library.json"))
		qs := loadScaleQueries(b, filepath.Join(dir, set, "dev.jsonl"))
		specs := make([]tools.Spec, len(lib))
		for i, tl := range lib {
			specs[i] = tl.Spec()
		}
		eng := offline.New(offline.Options{})
		b.Run(set+"/index", func(b *testing.B) {
			for b.Loop() {
				eng.IndexTools(specs)
			}
		})
		scores := eng.IndexTools(specs)
		b.Run(set+"/query", func(b *testing.B) {
			i := 0
			for b.Loop() {
				scores.Relevance(qs[i%len(qs)].Query)
				i++
			}
		})
	}
}

// TestMeasureBuiltinsBesideALibrary grounds the dev file's queries with
// the built-in tools alone and with a library of unfamiliar tools beside
// them (GEAR_MIXED_LIBRARY=path/library.json), and prints the built-in
// families' recall and the none recall for both — whether the library
// scorer's S (for the unfamiliar tools) and the encoder's cosine (for the
// built-ins) live on one scale.
func TestMeasureBuiltinsBesideALibrary(t *testing.T) {
	libPath := os.Getenv("GEAR_MIXED_LIBRARY")
	if libPath == "" {
		t.Skip("GEAR_MIXED_LIBRARY not set")
	}
	places, err := loadPlaces()
	if err != nil {
		t.Fatal(err)
	}
	builtins := builtintools.Tools(builtintools.Options{Places: place.Load})
	extra := keepParsable(t, loadScaleLibrary(t, libPath))
	qs := loadScaleQueries(t, "../../testdata/grounding-dev.jsonl")
	for _, lib := range [][]tools.Tool{builtins, append(append([]tools.Tool(nil), builtins...), extra...)} {
		reg, err := tools.NewRegistry(lib...)
		if err != nil {
			t.Fatal(err)
		}
		eng := offline.New(offline.Options{Places: places, Tools: reg.Specs()})
		g, err := grounding.New(reg, eng.Grounding(), grounding.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		right, total, stolen := map[string]int{}, map[string]int{}, 0
		for _, q := range qs {
			r, err := g.Ground(context.Background(), q.Query)
			if err != nil {
				t.Fatal(err)
			}
			total[q.Tool]++
			if r.Choice.Family == q.Tool {
				right[q.Tool]++
			}
			if _, ok := reg.Spec(r.Choice.Tool); ok && r.Choice.Tool != grounding.None {
				if s, _ := reg.Spec(r.Choice.Tool); s.Source.Kind == tools.SourceMCP {
					stolen++
				}
			}
		}
		line := fmt.Sprintf("%d tools:", len(lib))
		for _, label := range []string{"calc", "timezone", "weather", "wiki", "none"} {
			line += fmt.Sprintf(" %s %.3f", label, ratio(right[label], total[label]))
		}
		t.Log(line + fmt.Sprintf("; chose an unfamiliar tool for %d of %d", stolen, len(qs)))
	}
}

// benchmarksDir is GEAR_BENCHMARKS, the directory of the public
// tool-selection sets (library.json and dev.jsonl under DIR/SET, e.g.
// testdata/benchmarks-dev); the measurement is skipped without it.
func benchmarksDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("GEAR_BENCHMARKS")
	if dir == "" {
		tb.Skip("GEAR_BENCHMARKS not set: this measurement needs the tool-selection sets (e.g. GEAR_BENCHMARKS=testdata/benchmarks-dev from the repository root)")
	}
	return dir
}
