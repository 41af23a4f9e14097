package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/config"
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

// benchFigures reads the grounding figures block of BENCHMARKS.md.
func benchFigures(t *testing.T) grounding.Report {
	t.Helper()
	data, err := os.ReadFile("../BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- eval-figures -->\\s*```json\\n(.*?)```").FindSubmatch(data)
	if m == nil {
		t.Fatal("BENCHMARKS.md has no eval-figures JSON block")
	}
	var rep grounding.Report
	if err := json.Unmarshal(m[1], &rep); err != nil {
		t.Fatalf("eval-figures block: %v", err)
	}
	return rep
}

// TestEvalDevFileMatchesBench runs the command and checks that its
// figures are the ones BENCHMARKS.md reports (times aside, which
// depend on the machine).
func TestEvalDevFileMatchesBench(t *testing.T) {
	code, out, errText := groundGear(t, "eval", "--json", "--offline", devFile)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var got grounding.Report
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := benchFigures(t)
	close3 := func(a, b float64) bool { return math.Abs(a-b) < 0.0005 }
	if got.N != want.N || !close3(got.Accuracy, want.Accuracy) || !close3(got.MacroF1, want.MacroF1) || !close3(got.ECE, want.ECE) {
		t.Errorf("n %d acc %.3f macro-F1 %.3f ECE %.3f; the bench page says n %d acc %.3f macro-F1 %.3f ECE %.3f",
			got.N, got.Accuracy, got.MacroF1, got.ECE, want.N, want.Accuracy, want.MacroF1, want.ECE)
	}
	for label, w := range want.PerLabel {
		g := got.PerLabel[label]
		if g.N != w.N || !close3(g.Precision, w.Precision) || !close3(g.Recall, w.Recall) || !close3(g.F1, w.F1) {
			t.Errorf("%s: got %+v, the bench page says %+v", label, g, w)
		}
	}
	for gold, row := range want.Confusion {
		for pred, n := range row {
			if got.Confusion[gold][pred] != n {
				t.Errorf("confusion %s -> %s: %d, the bench page says %d", gold, pred, got.Confusion[gold][pred], n)
			}
		}
	}
}

// TestCalibrationIsFitted re-fits the calibration the way the defaults
// were fitted — temperature and none score by log loss, then the routing
// threshold by macro-F1, on the even-numbered lines of the dev file — and
// fails when the defaults no longer match (a change to the engine or the
// tools moved the scores: re-fit, and update config.Defaults and
// grounding.DefaultNoneScore with the values this test logs). It also
// logs the figures on the held-out odd lines.
func TestCalibrationIsFitted(t *testing.T) {
	pred := filepath.Join(t.TempDir(), "pred.jsonl")
	if code, _, errText := groundGear(t, "eval", "--offline", "--out", pred, devFile); code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	f, err := os.Open(pred)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var fit, held []grounding.Prediction
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for i := 0; sc.Scan(); i++ {
		var p grounding.Prediction
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			fit = append(fit, p)
		} else {
			held = append(held, p)
		}
	}
	cal, err := grounding.FitCalibration(grounding.CalibrationData(fit))
	if err != nil {
		t.Fatal(err)
	}
	th := grounding.FitThreshold(fit, cal.Temperature, cal.NoneScore)
	t.Logf("fitted on %d even lines: temperature %.4f, none score %.4f, threshold %.2f (log loss %.4f)",
		len(fit), cal.Temperature, cal.NoneScore, th, cal.LogLoss)
	for name, ps := range map[string][]grounding.Prediction{"fit half": fit, "held-out half": held} {
		r := grounding.Summarize(grounding.Redecide(ps, cal.Temperature, cal.NoneScore, th))
		t.Logf("%s: n %d accuracy %.3f macro-F1 %.3f ECE %.3f recall calc %.3f timezone %.3f weather %.3f wiki %.3f none %.3f",
			name, r.N, r.Accuracy, r.MacroF1, r.ECE, r.PerLabel["calc"].Recall, r.PerLabel["timezone"].Recall,
			r.PerLabel["weather"].Recall, r.PerLabel["wiki"].Recall, r.PerLabel["none"].Recall)
	}
	d := config.Defaults().Grounding
	if math.Abs(d.Temperature-cal.Temperature) > 0.0005 || math.Abs(d.NoneScore-cal.NoneScore) > 0.0005 || d.NoneScore != grounding.DefaultNoneScore || math.Abs(d.Threshold-th) > 0.005 {
		t.Errorf("defaults temperature %.4f, none score %.4f, threshold %.2f; the fit gives %.4f, %.4f, %.2f",
			d.Temperature, d.NoneScore, d.Threshold, cal.Temperature, cal.NoneScore, th)
	}
}
