package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/grounding"
)

// devFile is the labelled dev set, copied into the repository with its
// provenance (testdata/grounding-dev.README.md).
const devFile = "../testdata/grounding-dev.jsonl"

// noNetwork fails the test on any HTTP request: grounding uses the network
// tools' mocks and must not call them.
type noNetwork struct{ t *testing.T }

func (n noNetwork) RoundTrip(r *http.Request) (*http.Response, error) {
	n.t.Errorf("unexpected request %s %s", r.Method, r.URL)
	return nil, errors.New("no network in tests")
}

// groundGear runs gear with an empty environment (so no model role is
// configured and the offline engine runs), a fixed clock and no network.
func groundGear(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := map[string]string{"HOME": t.TempDir()}
	code := cli.Run(context.Background(), args, cli.Deps{
		Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return env[k] },
		HTTP:   &http.Client{Transport: noNetwork{t}},
		Now:    func() time.Time { return time.Date(2026, 5, 14, 15, 0, 0, 0, time.UTC) },
	})
	return code, stdout.String(), stderr.String()
}

// TestGroundMustShow is the "must show": the calculator with its
// call and response, the time zone family, and none.
func TestGroundMustShow(t *testing.T) {
	code, out, errText := groundGear(t, "ground", "--json", "what is 48 multiplied by 4 divided by 2")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var res grounding.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if res.Engine != grounding.EngineOffline {
		t.Errorf("engine %q, want offline", res.Engine)
	}
	if res.Choice.Tool != "Calculator" || res.Choice.Call != "Calculator(48 * 4 / 2)" || res.Choice.Response != "96" {
		t.Errorf("choice %+v, want Calculator(48 * 4 / 2) -> 96", res.Choice)
	}
	if res.Choice.Confidence < 0.5 || res.Choice.Confidence > 1 {
		t.Errorf("confidence %v, want a confident choice in [0, 1]", res.Choice.Confidence)
	}
	if len(res.Tools) != 8 {
		t.Errorf("%d tools scored, want the 8 built-in tools", len(res.Tools))
	}

	tests := []struct {
		query, family string
	}{
		{"what time is it in adelaide", "timezone"},
		{"tell me a joke", grounding.None},
		{"will it rain in Oslo tomorrow?", "weather"},
		{"who wrote the novel Moby-Dick", "wiki"},
	}
	for _, tt := range tests {
		code, out, errText := groundGear(t, "ground", tt.query)
		if code != cli.ExitOK {
			t.Fatalf("%q: exit %d: %s", tt.query, code, errText)
		}
		if !strings.Contains(out, "engine: offline") {
			t.Errorf("%q: the engine is not named:\n%s", tt.query, out)
		}
		want := "choice: none,"
		if tt.family != grounding.None {
			want = "[" + tt.family + "], confidence"
		}
		if !strings.Contains(out, want) {
			t.Errorf("%q: want %q in\n%s", tt.query, want, out)
		}
	}
}

func TestGroundUsage(t *testing.T) {
	if code, _, errText := groundGear(t, "ground"); code != cli.ExitUsage || !strings.HasPrefix(errText, "gear: ") {
		t.Errorf("no query: exit %d, stderr %q", code, errText)
	}
	if code, _, errText := groundGear(t, "ground", "  "); code != cli.ExitUsage || strings.Count(errText, "\n") != 1 {
		t.Errorf("blank query: exit %d, stderr %q", code, errText)
	}
}

func TestEvalJSONKeys(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "small.jsonl")
	lines := `{"query": "what is 12 times 7", "tool": "calc"}
{"query": "what time is it in Tokyo", "tool": "timezone"}

{"query": "play some jazz", "tool": "none", "also": ["wiki"]}
`
	if err := os.WriteFile(file, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	pred := filepath.Join(dir, "pred.jsonl")
	code, out, errText := groundGear(t, "eval", "--json", "--out", pred, file)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var rep map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	var keys []string
	for k := range rep {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if got := strings.Join(keys, " "); got != "accuracy confusion ece macro_f1 ms_per_query n per_label" {
		t.Errorf("keys %q", got)
	}
	var typed grounding.Report
	if err := json.Unmarshal([]byte(out), &typed); err != nil {
		t.Fatal(err)
	}
	if typed.N != 3 || typed.Accuracy != 1 || typed.PerLabel["calc"].F1 != 1 || typed.Confusion["none"]["none"] != 1 {
		t.Errorf("report %+v", typed)
	}
	data, err := os.ReadFile(pred)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 3 {
		t.Errorf("--out wrote %d lines, want 3", n)
	}
}

func TestEvalBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"query": "hi", "tool": "calc"}`+"\n"+`{"query": "x", "tool": "music"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file, want string
	}{
		{filepath.Join(dir, "missing.jsonl"), "does not exist"},
		{bad, `line 2: tool "music" is not a label`},
	}
	for _, tt := range tests {
		code, _, errText := groundGear(t, "eval", tt.file)
		if code != cli.ExitUsage || !strings.Contains(errText, tt.want) || strings.Count(errText, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", tt.file, code, errText, tt.want)
		}
	}
}

// devGolden is the dev file's decisions, one line per query: its id, a
// hash of its text (so an edited query shows), the chosen tool (or none)
// and the confidence rounded to 0.01. go test ./cli -run TestEvalDevGolden
// -update rewrites it after a change meant to move decisions; the diff in
// review names every query that moved.
const devGolden = "testdata/eval-dev.golden"

// devDecisions grounds the dev file offline and returns its predictions.
func devDecisions(t *testing.T) []grounding.Prediction {
	t.Helper()
	pred := filepath.Join(t.TempDir(), "pred.jsonl")
	if code, _, errText := groundGear(t, "eval", "--offline", "--out", pred, devFile); code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	f, err := os.Open(pred)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var preds []grounding.Prediction
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var p grounding.Prediction
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		preds = append(preds, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return preds
}

func decisionLine(p grounding.Prediction) string {
	return fmt.Sprintf("%s\t%08x\t%s\t%.2f", p.ID, crc32.ChecksumIEEE([]byte(p.Query)), p.Choice, p.Confidence)
}

// TestEvalDevGolden compares every dev-file decision with the golden file
// and checks the aggregates against floors (today's figures, less a
// margin for changes that trade one query for another): a change that
// moves decisions must update the golden file, and one that makes the
// figures worse fails whatever the golden file says.
func TestEvalDevGolden(t *testing.T) {
	preds := devDecisions(t)
	var b strings.Builder
	b.WriteString("# id\tcrc32(query)\tchoice\tconfidence: gear eval --offline ../testdata/grounding-dev.jsonl; go test ./cli -run TestEvalDevGolden -update\n")
	for _, p := range preds {
		b.WriteString(decisionLine(p) + "\n")
	}
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(devGolden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(devGolden)
	if err != nil {
		t.Fatalf("%v (go test ./cli -run TestEvalDevGolden -update writes it)", err)
	}
	wantLines := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n")[1:] {
		id, _, _ := strings.Cut(line, "\t")
		wantLines[id] = line
	}
	moved := 0
	for _, p := range preds {
		got := decisionLine(p)
		if w, ok := wantLines[p.ID]; !ok || w != got {
			moved++
			if moved <= 40 {
				t.Errorf("%s %q moved: golden %q, now %q", p.ID, p.Query, w, got)
			}
		}
		delete(wantLines, p.ID)
	}
	if moved > 40 {
		t.Errorf("... %d queries moved in all", moved)
	}
	for id := range wantLines {
		t.Errorf("%s: in the golden file, not in the dev file", id)
	}
	if moved > 0 || len(wantLines) > 0 {
		t.Log("if the change is meant: go test ./cli -run TestEvalDevGolden -update, and review the diff")
	}

	rep := grounding.Summarize(preds)
	floors := []struct {
		name     string
		got, min float64
	}{
		{"accuracy", rep.Accuracy, 0.94},
		{"macro-F1", rep.MacroF1, 0.92},
		{"calc recall", rep.PerLabel["calc"].Recall, 0.96},
		{"timezone recall", rep.PerLabel["timezone"].Recall, 0.98},
		{"weather recall", rep.PerLabel["weather"].Recall, 0.95},
		{"wiki recall", rep.PerLabel["wiki"].Recall, 0.83},
		{"none recall", rep.PerLabel["none"].Recall, 0.93},
	}
	for _, f := range floors {
		if f.got < f.min {
			t.Errorf("%s %.3f, below its floor %.2f", f.name, f.got, f.min)
		}
	}
	// The confidence is calibrated for a mix in which every label is as
	// common as any other (grounding.FitConfidenceMap), so its error is
	// bounded on the dev file re-weighed to that mix, and more loosely on
	// the file as it is (three queries in four need no tool).
	if ece := balancedECE(preds); ece > 0.03 {
		t.Errorf("label-balanced ECE %.3f, above 0.03", ece)
	}
	if rep.ECE > 0.09 {
		t.Errorf("ECE %.3f, above 0.09", rep.ECE)
	}
}

// balancedECE is the expected calibration error with every gold label's
// queries weighing alike in total.
func balancedECE(preds []grounding.Prediction) float64 {
	count := map[string]float64{}
	for _, p := range preds {
		count[p.Tool]++
	}
	var n, conf, acc [grounding.ECEBins]float64
	var total float64
	for _, p := range preds {
		w := 1 / count[p.Tool]
		b := min(int(p.Confidence*grounding.ECEBins), grounding.ECEBins-1)
		n[b] += w
		conf[b] += w * p.Confidence
		if p.Correct {
			acc[b] += w
		}
		total += w
	}
	var ece float64
	for b := range n {
		ece += math.Abs(acc[b]-conf[b]) / total
	}
	return ece
}

// TestCalibrationIsFitted re-runs the fit of the constants gear ships
// (gear tune --generate, as go generate ./grounding/calibration does) and
// fails when package calibration's fitted.go is not what it writes: a
// change to the engine or the tools moved the scores, so re-fit.
func TestCalibrationIsFitted(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fitted.go")
	bench := filepath.Join("..", "testdata", "benchmarks-dev")
	code, stdout, errText := groundGear(t, "--offline", "tune", "--dev", devFile,
		"--library-dev", filepath.Join(bench, "metatool"), "--library-dev", filepath.Join(bench, "bfcl"),
		"--library-dev", filepath.Join(bench, "sealtools"), "--generate", out)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	t.Log(stdout)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../grounding/calibration/fitted.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("grounding/calibration/fitted.go is not what the fit writes; run go generate ./grounding/calibration.\nthe fit writes:\n%s", got)
	}
}

// TestEvalReliability: --reliability adds the diagram (ten bins, their
// counts adding up to n) and the wrong choices at high confidence, and
// cannot be combined with --json.
func TestEvalReliability(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "small.jsonl")
	lines := `{"query": "what is 12 times 7", "tool": "calc"}
{"query": "what time is it in Tokyo", "tool": "timezone"}
{"query": "play some jazz", "tool": "wiki"}
`
	if err := os.WriteFile(file, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errText := groundGear(t, "eval", "--offline", "--reliability", file)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	rows := regexp.MustCompile(`(?m)^\| (\d\.\d)–(\d\.\d) \| (\d+) \|`).FindAllStringSubmatch(out, -1)
	total := 0
	for _, r := range rows {
		n, _ := strconv.Atoi(r[3])
		total += n
	}
	if len(rows) != grounding.ECEBins || total != 3 {
		t.Errorf("%d bins holding %d choices, want %d bins holding 3:\n%s", len(rows), total, grounding.ECEBins, out)
	}
	if !regexp.MustCompile(`wrong choices: 1; at confidence ≥ 0.9: [01] \(\d+%\); ≥ 0.99: [01] \(\d+%\)`).MatchString(out) {
		t.Errorf("no line of wrong choices at high confidence:\n%s", out)
	}
	code, _, errText = groundGear(t, "eval", "--offline", "--reliability", "--json", file)
	if code != cli.ExitUsage || !strings.Contains(errText, "reliability") {
		t.Errorf("--reliability --json: exit %d, %q", code, errText)
	}
}

func TestTuneGenerateNeedsDev(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "fitted.go")
	code, _, errText := groundGear(t, "--offline", "tune", "--generate", out)
	if code != cli.ExitUsage || !strings.Contains(errText, "--generate needs --dev FILE") {
		t.Errorf("exit %d, %q", code, errText)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a file was written")
	}
}

// TestEvalLibraryReliability: --reliability works on a tool library's
// queries too — one diagram over every item, its bins adding up to n.
func TestEvalLibraryReliability(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "testdata", "benchmarks", "metatool")
	queries, err := os.ReadFile(filepath.Join(dir, "dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(strings.TrimSpace(string(queries)), "\n") + 1
	code, out, errText := groundGear(t, "eval", "--offline", "--reliability", "--library", filepath.Join(dir, "library.json"), filepath.Join(dir, "dev.jsonl"))
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	total := 0
	for _, r := range regexp.MustCompile(`(?m)^\| \d\.\d–\d\.\d \| (\d+) \|`).FindAllStringSubmatch(out, -1) {
		k, _ := strconv.Atoi(r[1])
		total += k
	}
	if total != n {
		t.Errorf("the diagram holds %d choices, want the %d items:\n%s", total, n, out)
	}
}
