package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/catalog"
)

// libraryFlags are --library and --with-builtins of gear eval and gear
// ground: a tool library file is the tool set.
type libraryFlags struct {
	path         string
	withBuiltins bool
}

func (lf *libraryFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&lf.path, "library", "", "ground over the tools of this tool library file (JSON; docs/benchmarks.md) instead of gear's")
	cmd.Flags().BoolVar(&lf.withBuiltins, "with-builtins", false, "with --library: gear's built-in tools too")
}

// libraryRegistry loads the --library file as the tool library: its tools,
// and gear's built-in tools with --with-builtins (no declared or MCP
// tools: the file is the tool set). A tool the file describes badly is
// left out with a warning on stderr; a file that cannot be read is the
// user's to fix.
//
// With st, a large file is read through the history's cache: the library
// as read last time with the same bytes (tools/catalog, LoadCached).
func (a *app) libraryRegistry(ctx context.Context, what string, lf libraryFlags, st *store.Store) (*tools.Registry, *catalog.Library, error) {
	var cache catalog.Cache
	if st != nil {
		cache = st
	}
	lib, err := catalog.LoadCached(ctx, lf.path, cache)
	if err != nil {
		return nil, nil, usageErrorf("%s%v", what, err)
	}
	for _, w := range lib.Warnings {
		fmt.Fprintln(a.deps.Stderr, "gear: warning: "+oneLine(w))
	}
	if len(lib.Tools) == 0 {
		return nil, nil, usageErrorf("%stool library %s: no tool could be read", what, lf.path)
	}
	ts := lib.ToolList()
	if lf.withBuiltins {
		ts = append(a.builtinTools(), ts...)
	}
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		return nil, nil, usageErrorf("%stool library %s: %v", what, lf.path, err)
	}
	return reg, lib, nil
}

// libraryStore opens the history for a large --library file's caches
// (the library as read, its index, its vectors: docs/benchmarks.md); nil
// for a small file, or when the history cannot be opened, which only
// costs the caches.
func (a *app) libraryStore(ctx context.Context, lf libraryFlags) (*store.Store, func()) {
	if !catalog.WorthCaching(lf.path) {
		return nil, func() {}
	}
	st, err := a.openStore(ctx)
	if err != nil {
		return nil, func() {}
	}
	return st, func() { _ = st.Close() }
}

// readLibraryItems reads a tool library's query set for a command.
func readLibraryItems(what, path string) ([]grounding.LibraryItem, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usageErrorf("%s%s does not exist", what, path)
		}
		return nil, fmt.Errorf("%s%s: %w", what, path, err)
	}
	defer f.Close()
	items, err := grounding.ReadLibraryItems(f)
	if err != nil {
		return nil, usageErrorf("%s%s: %v", what, path, err)
	}
	if len(items) == 0 {
		return nil, usageErrorf("%s%s has no queries", what, path)
	}
	return items, nil
}

// evalLibrary is gear eval --library: every query of queriesPath grounded
// over the library (or among its own candidates), judged by the tool
// chosen.
func (a *app) evalLibrary(ctx context.Context, w io.Writer, lf libraryFlags, queriesPath string, asJSON, reliability bool, out string) error {
	items, err := readLibraryItems("eval: ", queriesPath)
	if err != nil {
		return err
	}
	st, closeStore := a.libraryStore(ctx, lf)
	defer closeStore()
	reg, lib, err := a.libraryRegistry(ctx, "eval: --library: ", lf, st)
	if err != nil {
		return err
	}
	a.warnUnknownLabels(items, reg)
	eng, describe, opts, done, err := a.groundingSetup(ctx, st, reg.Specs())
	if err != nil {
		return err
	}
	defer done()
	full, err := grounding.New(reg, eng, opts)
	if err != nil {
		return err
	}
	preds, err := predictLibrary(ctx, full, reg, eng, opts, items)
	if err != nil {
		return err
	}
	if out != "" {
		if err := writeJSONLines(out, preds); err != nil {
			return err
		}
	}
	rep := grounding.SummarizeLibrary(preds)
	if asJSON {
		return writeJSON(w, rep)
	}
	writeLibraryReport(w, describe, lib, reg.Len(), rep)
	if reliability {
		// The diagram needs only each choice's confidence and whether it
		// was right, which a library prediction has too.
		judged := make([]grounding.Prediction, len(preds))
		for i, p := range preds {
			judged[i] = grounding.Prediction{Confidence: p.Confidence, Correct: p.Correct}
		}
		writeReliability(w, judged)
	}
	return nil
}

// predictLibrary grounds every item over the library (full) or, for an
// item with candidates, among them, and judges each choice.
func predictLibrary(ctx context.Context, full *grounding.Grounder, reg *tools.Registry, eng grounding.Engine, opts grounding.Options, items []grounding.LibraryItem) ([]grounding.LibraryPrediction, error) {
	var err error
	// Grounders over candidate sets share every vector computed, in
	// memory (and in the store for a model's embeddings; a local
	// encoder's are not stored one by one).
	subOpts := opts
	if opts.CacheLibrary {
		subOpts.CacheLibrary, subOpts.Cache = false, grounding.NewMemoryCache(nil)
	} else {
		subOpts.Cache = grounding.NewMemoryCache(opts.Cache)
	}
	model := full.Engine() == grounding.EngineModel
	preds := make([]grounding.LibraryPrediction, 0, len(items))
	for i, it := range items {
		g := full
		if len(it.Candidates) > 0 {
			if g, err = candidateGrounder(reg, it.Candidates, eng, subOpts); err != nil {
				return nil, fmt.Errorf("eval: item %d: %w", i+1, err)
			}
		}
		// The library's vectors are the grounder's set-up, not the query's
		// time: computed (or read from the cache) before it is timed.
		if err := g.Prepare(ctx); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		qctx, usage := ctx, (*usageCount)(nil)
		if model {
			usage = &usageCount{}
			qctx = llm.WithUsageRecorder(ctx, usage.record)
		}
		res, err := g.Ground(qctx, it.Query)
		if err != nil {
			return nil, fmt.Errorf("eval: item %d (%s): %w", i+1, clip(oneLine(it.Query), 60), err)
		}
		p := grounding.JudgeLibrary(it, res)
		if usage != nil {
			u := usage.total()
			p.Usage = &u
		}
		preds = append(preds, p)
	}
	return preds, nil
}

// candidateGrounder grounds among an item's candidates: the library's
// tools of those names (names it lacks are left out; warnUnknownLabels
// said so).
func candidateGrounder(reg *tools.Registry, names []string, eng grounding.Engine, opts grounding.Options) (*grounding.Grounder, error) {
	var ts []tools.Tool
	seen := map[string]bool{}
	for _, n := range names {
		if t, ok := reg.Tool(n); ok && !seen[n] {
			seen[n] = true
			ts = append(ts, t)
		}
	}
	sub, err := tools.NewRegistry(ts...)
	if err != nil {
		return nil, err
	}
	return grounding.New(sub, eng, opts)
}

// warnUnknownLabels says, once, which tools the queries name that the
// library lacks (left out when it was read, or never in it): such a query
// counts as wrong, and such a candidate is not among the item's tools.
func (a *app) warnUnknownLabels(items []grounding.LibraryItem, reg *tools.Registry) {
	gold, cands := map[string]int{}, map[string]int{}
	for _, it := range items {
		for _, t := range append([]string{it.Tool}, it.Also...) {
			if _, ok := reg.Spec(t); !ok && t != grounding.None {
				gold[t]++
			}
		}
		for _, c := range it.Candidates {
			if _, ok := reg.Spec(c); !ok {
				cands[c]++
			}
		}
	}
	if len(gold) > 0 {
		fmt.Fprintf(a.deps.Stderr, "gear: warning: %s labelled with tools the library lacks (%s); they count as wrong\n", count(sum(gold), "query is", "queries are"), someNames(gold))
	}
	if len(cands) > 0 {
		fmt.Fprintf(a.deps.Stderr, "gear: warning: %s tools the library lacks (%s); those items are judged among the rest\n", count(sum(cands), "candidate names", "candidates name"), someNames(cands))
	}
}

// count is n with the singular or plural words.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// someNames lists up to three names of m, sorted, and how many more.
func someNames(m map[string]int) string {
	names := sortedKeys(m)
	if len(names) > 3 {
		return sanitize.Line(strings.Join(names[:3], ", ")) + fmt.Sprintf(" and %d more", len(names)-3)
	}
	return sanitize.Line(strings.Join(names, ", "))
}

// usageCount adds up the model calls one query made (llm.UsageRecorder).
type usageCount struct {
	mu sync.Mutex
	u  grounding.ModelUsage
}

func (c *usageCount) record(u llm.Usage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if u.Call == "embeddings" {
		c.u.Embeddings++
	} else {
		c.u.Calls++
	}
	c.u.PromptTokens += u.PromptTokens
	c.u.CompletionTokens += u.CompletionTokens
}

func (c *usageCount) total() grounding.ModelUsage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.u
}

// writeLibraryReport prints a library evaluation for people.
func writeLibraryReport(w io.Writer, engine string, lib *catalog.Library, tools int, rep grounding.LibraryReport) {
	fmt.Fprintf(w, "engine: %s\n", sanitize.Line(engine))
	fmt.Fprintf(w, "library: %s (%d tools", sanitize.Line(lib.Path), tools)
	if lib.Origin != "" {
		fmt.Fprintf(w, "; from %s", clip(lib.Origin, 100))
	}
	fmt.Fprintln(w, ")")
	fmt.Fprintf(w, "n %d (%d tool, %d none)\n", rep.N, rep.ToolItems, rep.NoneItems)
	if rep.ToolItems > 0 {
		fmt.Fprintf(w, "tool items: top-1 %.3f (best-ranked %.3f)   top-5 %.3f   macro top-1 over tools %.3f   false abstention %.3f\n",
			rep.Top1, rep.Top1Ranked, rep.Top5, rep.MacroTop1, rep.FalseAbstainRate)
	}
	if rep.NoneItems > 0 {
		fmt.Fprintf(w, "none items: abstention %.3f\n", rep.AbstainRate)
	}
	fmt.Fprintf(w, "all items: accuracy %.3f   ECE %.3f   ms/query p50 %.3f p95 %.3f\n", rep.Accuracy, rep.ECE, rep.MSPerQuery.P50, rep.MSPerQuery.P95)
	if rep.ModelCallsPerQuery != nil {
		fmt.Fprintf(w, "model engine: %.2f small-model calls, %.2f embedding requests, %.0f tokens per query\n",
			*rep.ModelCallsPerQuery, *rep.EmbeddingCallsPerQuery, *rep.TokensPerQuery)
	}
	if len(rep.Groups) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%-22s %6s %7s %7s %7s %9s %13s %7s\n", "by id", "n", "top-1", "ranked", "top-5", "abstain", "false abst.", "ECE")
	for _, g := range rep.SortedGroups() {
		r := rep.Groups[g]
		name := g
		if name == "" {
			name = "(no id)"
		}
		fmt.Fprintf(w, "%-22s %6d %7s %7s %7s %9s %13s %7.3f\n", clip(sanitize.Line(name), 22), r.N,
			figure(r.Top1, r.ToolItems), figure(r.Top1Ranked, r.ToolItems), figure(r.Top5, r.ToolItems),
			figure(r.AbstainRate, r.NoneItems), figure(r.FalseAbstainRate, r.ToolItems), r.ECE)
	}
}

// figure is a rate, or "-" when no item measures it.
func figure(x float64, over int) string {
	if over == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}
