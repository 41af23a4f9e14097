package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/grounding"
)

const benchSamples = "../testdata/benchmarks"

// runGear runs gear with env as the whole environment.
func runLibGear(t *testing.T, env map[string]string, deps cli.Deps, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	deps.Stdout, deps.Stderr = &stdout, &stderr
	deps.Getenv = func(k string) string { return env[k] }
	deps.Now = func() time.Time { return time.Date(2026, 5, 14, 15, 0, 0, 0, time.UTC) }
	code := cli.Run(context.Background(), args, deps)
	return stdout.String(), stderr.String(), code
}

func offlineEnv(t *testing.T) map[string]string {
	dir := t.TempDir()
	return map[string]string{"HOME": dir, "GEAR_DB": filepath.Join(dir, "gear.db")}
}

// gear eval --library grounds a sample of each public set over its library
// offline and prints the report's keys; the JSON has the keys.
func TestEvalLibraryOffline(t *testing.T) {
	t.Parallel()
	for _, set := range []struct {
		name       string
		tool, none int
	}{{"metatool", 9, 3}, {"bfcl", 6, 4}, {"sealtools", 6, 0}} {
		t.Run(set.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(benchSamples, set.name)
			out, errOut, code := runLibGear(t, offlineEnv(t), cli.Deps{}, "eval", "--json", "--offline",
				"--library", filepath.Join(dir, "library.json"), filepath.Join(dir, "dev.jsonl"))
			if code != cli.ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if errOut != "" {
				t.Errorf("stderr: %s", errOut)
			}
			var rep map[string]any
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"n", "top1", "top5", "abstain_rate", "false_abstain_rate", "ece", "ms_per_query", "macro_top1", "top1_ranked"} {
				if _, ok := rep[k]; !ok {
					t.Errorf("no key %q in %s", k, out)
				}
			}
			if _, ok := rep["model_calls_per_query"]; ok {
				t.Error("model_calls_per_query offline")
			}
			ms := rep["ms_per_query"].(map[string]any)
			if rep["n"] != float64(set.tool+set.none) || rep["tool_items"] != float64(set.tool) || rep["none_items"] != float64(set.none) ||
				ms["p50"].(float64) <= 0 || ms["p95"].(float64) < ms["p50"].(float64) {
				t.Errorf("report %s", out)
			}
			for _, k := range []string{"top1", "top5", "abstain_rate", "false_abstain_rate", "ece"} {
				if x := rep[k].(float64); x < 0 || x > 1 {
					t.Errorf("%s = %v", k, x)
				}
			}
		})
	}
}

// Each BFCL item is judged among its own candidates: --out shows how many
// tools it was ranked among, and its ranked tools are all candidates. The
// report for people names the library and its groups of ids.
func TestEvalLibraryCandidates(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(benchSamples, "bfcl")
	outFile := filepath.Join(t.TempDir(), "preds.jsonl")
	out, errOut, code := runLibGear(t, offlineEnv(t), cli.Deps{}, "eval", "--offline", "--out", outFile,
		"--library", filepath.Join(dir, "library.json"), filepath.Join(dir, "dev.jsonl"))
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"library: " + filepath.Join(dir, "library.json") + " (20 tools; from https://github.com/ShishirPatil/gorilla",
		"n 10 (6 tool, 4 none)", "tool items: top-1 ", "none items: abstention ", "ms/query p50 ",
		"live_irrelevance", "live_multiple", "irrelevance", "multiple"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	f, err := os.Open(outFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		lines++
		var p grounding.LibraryPrediction
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		if p.Of != len(p.Candidates) || len(p.Scores) != len(p.Candidates) {
			t.Errorf("%s judged among %d tools (%d scores), want its %d candidates", p.ID, p.Of, len(p.Scores), len(p.Candidates))
		}
		for _, r := range p.Ranked {
			if !contains(p.Candidates, r) {
				t.Errorf("%s ranked %s, not a candidate", p.ID, r)
			}
		}
		if p.Correct != p.Accepts(p.Choice) || (p.Tool == grounding.None) != (p.Rank == 0 && p.Tool == grounding.None) {
			t.Errorf("%s: %+v", p.ID, p)
		}
	}
	if lines != 10 {
		t.Errorf("%d lines in --out", lines)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Bad input: a library that is not JSON, a query file of the built-in
// format's labels without --library, --with-builtins alone — one line,
// non-zero exit. A tool the library describes badly is a warning, and a
// query labelled with it counts as wrong.
func TestEvalLibraryBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(broken, []byte(`{"tools": [{"name": "a", "description": "x"},]}`), 0o600)
	partial := filepath.Join(dir, "partial.json")
	os.WriteFile(partial, []byte(`{"tools": [{"name": "lookup_word", "description": "Look up a word in the dictionary", "inputSchema": {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]}},
{"name": "lookup_word", "description": "a second definition"}]}`), 0o600)
	queries := filepath.Join(dir, "q.jsonl")
	os.WriteFile(queries, []byte(`{"id": "q-1", "query": "what does serendipity mean", "tool": "lookup_word"}
{"id": "q-2", "query": "convert 3 miles to km", "tool": "convert_units"}
`), 0o600)
	for _, c := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"eval", "--offline", "--library", broken, queries}, "gear: eval: --library: tool library " + broken + ": not a tool library (want a JSON object with a \"tools\" list): invalid JSON at line 1, column", cli.ExitUsage},
		{[]string{"eval", "--offline", "--library", filepath.Join(dir, "absent.json"), queries}, "absent.json: no such file", cli.ExitUsage},
		{[]string{"eval", "--offline", "--with-builtins", queries}, "gear: eval: --with-builtins adds gear's tools to a --library", cli.ExitUsage},
		{[]string{"ground", "--offline", "--with-builtins", "hello"}, "gear: ground: --with-builtins adds", cli.ExitUsage},
		{[]string{"eval", "--offline", "--library", partial, filepath.Join(dir, "none.jsonl")}, "none.jsonl does not exist", cli.ExitUsage},
	} {
		out, errOut, code := runLibGear(t, offlineEnv(t), cli.Deps{}, c.args...)
		if code != c.code || !strings.HasPrefix(errOut, "gear: ") || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 || out != "" {
			t.Errorf("%q: exit %d, stderr %q, want one line with %q", c.args, code, errOut, c.want)
		}
	}
	out, errOut, code := runLibGear(t, offlineEnv(t), cli.Deps{}, "eval", "--json", "--offline", "--library", partial, queries)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"gear: warning: tool library " + partial + ": tool 2 (lookup_word): the name lookup_word is taken by tool 1; left out",
		"gear: warning: 1 query is labelled with tools the library lacks (convert_units); they count as wrong"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	var rep grounding.LibraryReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.N != 2 || rep.ToolItems != 2 || rep.Top1 > 0.5 {
		t.Errorf("report %+v", rep)
	}
}

// gear ground --library grounds over the file's tools only; with
// --with-builtins gear's own are there too.
func TestGroundLibrary(t *testing.T) {
	t.Parallel()
	lib := filepath.Join(benchSamples, "sealtools", "library.json")
	out, errOut, code := runLibGear(t, offlineEnv(t), cli.Deps{}, "ground", "--json", "--offline", "--library", lib,
		"Retrieve information about the number of nurses in a specific country.")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res grounding.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 18 {
		t.Errorf("%d tools, want the library's 18", len(res.Tools))
	}
	for _, ts := range res.Tools {
		if ts.Status == grounding.StatusRun {
			t.Errorf("%s ran during grounding: a library's tool has no executor", ts.Tool)
		}
		if ts.Shortlisted && !ts.ByArguments {
			t.Errorf("%s: a library's tool is never run, so its P should be its arguments' fit", ts.Tool)
		}
	}
	out, errOut, code = runLibGear(t, offlineEnv(t), cli.Deps{}, "ground", "--json", "--offline", "--with-builtins", "--library", lib, "what is 12 times 7")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	res = grounding.Result{}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) <= 20 || res.Choice.Tool != "Calculator" {
		t.Errorf("%d tools, choice %+v", len(res.Tools), res.Choice)
	}
	// For people, a library scored whole shows its best 20 tools by f.
	out, errOut, code = runLibGear(t, offlineEnv(t), cli.Deps{}, "ground", "--offline", "--with-builtins", "--library", lib, "what is 12 times 7")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	more := fmt.Sprintf("  … %d more tools with a lower f (--json lists every tool)\n", len(res.Tools)-20)
	if !strings.Contains(out, more) || !strings.Contains(out, "choice: Calculator") {
		t.Errorf("output lacks %q:\n%s", more, out)
	}
	if note := "a tool that is never run scores P by its arguments"; !strings.Contains(out, note) {
		t.Errorf("output does not say what a library tool's P is (%q):\n%s", note, out)
	}
}

// With a model engine, gear eval --library reports the small-model calls,
// embedding requests and tokens per query, counted as the server saw them.
func TestEvalLibraryModelEngine(t *testing.T) {
	t.Parallel()
	srv, hs := newModelServer(t)
	env := offlineEnv(t)
	for k, v := range map[string]string{
		"GEAR_GROUNDING_MODEL": "small", "GEAR_GROUNDING_BASE_URL": hs.URL + "/v1", "GEAR_GROUNDING_SERVER": "openai",
		"GEAR_EMBEDDING_MODEL": "text-embedding-3-small", "GEAR_EMBEDDING_BASE_URL": hs.URL + "/v1", "GEAR_EMBEDDING_SERVER": "openai",
	} {
		env[k] = v
	}
	dir := filepath.Join(benchSamples, "metatool")
	out, errOut, code := runLibGear(t, env, cli.Deps{HTTP: hs.Client()}, "eval", "--json", "--library", filepath.Join(dir, "library.json"), filepath.Join(dir, "dev.jsonl"))
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep grounding.LibraryReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	srv.mu.Lock()
	chat := srv.slmCalls + srv.yesNoCalls
	embeds := srv.embedCalls
	srv.mu.Unlock()
	if rep.ModelCallsPerQuery == nil || rep.EmbeddingCallsPerQuery == nil || rep.TokensPerQuery == nil {
		t.Fatalf("no model figures: %s", out)
	}
	n := float64(rep.N)
	// The library's 6 tools fit in the shortlist: â and a call per tool,
	// 7 small-model calls a query at least (routing may ask one more).
	if got := *rep.ModelCallsPerQuery; math.Abs(got*n-float64(chat)) > 1e-9 || got < 7 {
		t.Errorf("model_calls_per_query %v × %v queries, server saw %d chat calls", got, n, chat)
	}
	// The library's texts are embedded before the first query is timed
	// (Prepare), so a query costs one embedding request: its own.
	if got := *rep.EmbeddingCallsPerQuery; got != 1 || embeds != rep.N+1 {
		t.Errorf("embedding_calls_per_query %v, server saw %d requests for %d queries", got, embeds, rep.N)
	}
	if *rep.TokensPerQuery <= 0 {
		t.Errorf("tokens_per_query %v", *rep.TokensPerQuery)
	}
	if !strings.Contains(fmt.Sprint(rep.Groups), "metatool") {
		t.Errorf("groups %v", rep.Groups)
	}
}

// With a test server standing in for the small model, grounding over a
// 1,000-tool library — a library file read by gear's loader — makes k + 1
// small-model calls (â and the shortlist's k calls), not 1,001; gear
// ground shows the shortlist and its cut.
func TestGroundThousandToolLibrary(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"name": "generated", "source": "TestGroundThousandToolLibrary", "tools": [` + "\n")
	subjects := []string{"invoices", "shipments", "tickets", "contracts", "recipes", "flights", "patients", "sensors", "courses", "vehicles"}
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"name": "lookup_%04d", "description": "Look up %s record %d in archive %d", "inputSchema": {"type": "object", "properties": {"record": {"type": "string", "description": "the record's id"}}, "required": ["record"]}}`,
			i, subjects[i%len(subjects)], i, i/len(subjects))
	}
	b.WriteString("\n]}\n")
	lib := filepath.Join(t.TempDir(), "library.json")
	if err := os.WriteFile(lib, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		embed bool
	}{{"offline encoder", false}, {"embedding model", true}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv, hs := newModelServer(t)
			env := offlineEnv(t)
			env["GEAR_GROUNDING_MODEL"], env["GEAR_GROUNDING_BASE_URL"], env["GEAR_GROUNDING_SERVER"] = "small", hs.URL+"/v1", "openai"
			if c.embed {
				env["GEAR_EMBEDDING_MODEL"], env["GEAR_EMBEDDING_BASE_URL"], env["GEAR_EMBEDDING_SERVER"] = "text-embedding-3-small", hs.URL+"/v1", "openai"
			}
			// With an embedding model, the second run finds the library's
			// vectors in the store and embeds the query alone.
			runs := 1
			if c.embed {
				runs = 2
			}
			var res grounding.Result
			var slm, embeds int
			for range runs {
				srv.mu.Lock()
				slm0, embeds0 := srv.slmCalls, srv.embedCalls
				srv.mu.Unlock()
				out, errOut, code := runLibGear(t, env, cli.Deps{HTTP: hs.Client()}, "ground", "--json", "--library", lib, "find the shipments record 417 for me")
				if code != cli.ExitOK {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				res = grounding.Result{}
				if err := json.Unmarshal([]byte(out), &res); err != nil {
					t.Fatal(err)
				}
				srv.mu.Lock()
				slm, embeds = srv.slmCalls-slm0, srv.embedCalls-embeds0
				srv.mu.Unlock()
			}
			k := grounding.DefaultShortlist
			sl := res.Shortlist
			if res.Engine != grounding.EngineModel || len(res.Tools) != 1000 || sl == nil || sl.K != k || sl.Of != 1000 {
				t.Fatalf("engine %s, %d tools, shortlist %+v", res.Engine, len(res.Tools), sl)
			}
			called := 0
			for _, ts := range res.Tools {
				if ts.Shortlisted {
					called++
				} else if ts.Status != grounding.StatusCut {
					t.Errorf("%s outside the shortlist has status %q", ts.Tool, ts.Status)
				}
			}
			// â and one call per tool called: k + 1 when the encoder ranks
			// before the calls start; with an embedding model the offline
			// prefilter starts them, and shortlisted tools it missed are
			// called late (at most k more).
			if slm != called+1 || called != sl.Scored {
				t.Errorf("%d small-model calls for %d tools called (shortlist %+v), want 1 + tools called", slm, called, sl)
			}
			if !c.embed && slm != k+1 {
				t.Errorf("%d small-model calls, want k + 1 = %d", slm, k+1)
			}
			if c.embed && (called < k || called > 2*k || embeds != 1) {
				t.Errorf("%d tools called, %d embedding requests; want k..2k and one request (the query's)", called, embeds)
			}
			if slm >= 100 {
				t.Errorf("%d small-model calls for 1,000 tools", slm)
			}
		})
	}
	// For people: the shortlist and its cut.
	srv, hs := newModelServer(t)
	env := offlineEnv(t)
	env["GEAR_GROUNDING_MODEL"], env["GEAR_GROUNDING_BASE_URL"], env["GEAR_GROUNDING_SERVER"] = "small", hs.URL+"/v1", "openai"
	out, errOut, code := runLibGear(t, env, cli.Deps{HTTP: hs.Client()}, "ground", "--library", lib, "find the shipments record 417 for me")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := fmt.Sprintf("  -- shortlist cut: %d of 1000 tools called (top %d by %s, cut ", grounding.DefaultShortlist, grounding.DefaultShortlist, grounding.ShortlistBy)
	if !strings.Contains(out, want) || !strings.Contains(out, "992 below the cut, f = γS --") || !strings.Contains(out, "… 987 more") {
		t.Errorf("output lacks the cut %q:\n%s", want, out)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.slmCalls != grounding.DefaultShortlist+1 {
		t.Errorf("%d small-model calls, want k + 1", srv.slmCalls)
	}
}
