package cli_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/survey/surveytest"
)

// studyNow is the clock of the study commands' tests.
func studyNow() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }

// studyGear runs gear offline with a private home, a fixed clock, no
// network and stdin.
func studyGear(t *testing.T, home, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := map[string]string{"HOME": home, "TZ": "UTC"}
	code := cli.Run(context.Background(), args, cli.Deps{
		Stdin: strings.NewReader(stdin), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return env[k] },
		HTTP:   &http.Client{Transport: noNetwork{t}},
		Now:    studyNow,
	})
	if strings.Count(stderr.String(), "\n") > 1 {
		t.Errorf("gear %v: stderr is more than one line: %q", args, stderr.String())
	}
	return code, stdout.String(), stderr.String()
}

// TestReportJSONHasEveryFigure is the must-show: gear report --json on the
// generated study prints every figure of the study report.
func TestReportJSONHasEveryFigure(t *testing.T) {
	t.Parallel()
	paths := surveytest.Write(t, t.TempDir(), 1)
	code, out, errText := studyGear(t, t.TempDir(), "", append([]string{"report", "--json"}, paths...)...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	figures := map[string]any{
		"participants.n":                     50.0,
		"turns.n":                            2300.0,
		"turns.by_mode.baseline":             1100.0,
		"turns.with_tool":                    1000.0,
		"tool_usage.0.tool":                  "WeatherSearch",
		"tool_usage.0.share":                 0.3,
		"tool_satisfaction.0.tool":           "CurrentTime",
		"tool_satisfaction.0.ratio":          1.0,
		"tool_satisfaction.5.tool":           "WikiSearch",
		"tool_satisfaction.5.ratio":          0.505,
		"grounding_accuracy.ratio":           0.92,
		"grounding_accuracy.rule":            nil,
		"satisfaction.baseline.ratio":        0.615,
		"satisfaction.gear.ratio":            0.784,
		"satisfaction.gear.ci_low":           nil,
		"satisfaction.difference.value":      nil,
		"satisfaction.difference.ci_low":     nil,
		"satisfaction.difference.ci_high":    nil,
		"satisfaction.difference.method":     "newcombe-wilson",
		"questions.0.distribution.mean":      7.0,
		"questions.0.distribution.median":    7.0,
		"questions.0.distribution.histogram": nil,
		"questions.5.yes.ratio":              0.9,
		"questions.7.answers.0":              nil,
		"questions.12.choices.3.share":       0.6,
		"questions.22.distribution.mean":     84.6,
		"headlines.0.value":                  0.76,
		"headlines.0.rule":                   nil,
		"headlines.3.paper":                  "16.9%",
		"headlines.4.detail":                 "CurrentTime",
		"headlines.5.detail":                 "WikiSearch",
	}
	for path, want := range figures {
		got, ok := lookup(rep, path)
		if !ok {
			t.Errorf("%s is missing from gear report --json", path)
			continue
		}
		if want != nil && !reflect.DeepEqual(got, want) {
			if g, isNum := got.(float64); !isNum || !within(g, want.(float64)) {
				t.Errorf("%s = %v, want %v", path, got, want)
			}
		}
	}
}

func within(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// lookup follows a dotted path through decoded JSON; numbers index lists.
func lookup(v any, path string) (any, bool) {
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[part]; !ok {
				return nil, false
			}
		case []any:
			i := 0
			for _, r := range part {
				i = i*10 + int(r-'0')
			}
			if i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// TestReportTerminal is the terminal report of the generated study: a
// golden file, every line within 80 columns.
func TestReportTerminal(t *testing.T) {
	t.Parallel()
	// Five sources are reported by number, so the golden file does not
	// hold the temporary directory.
	paths := surveytest.Write(t, t.TempDir(), 10)
	code, out, errText := studyGear(t, t.TempDir(), "", append([]string{"report"}, paths...)...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	for i, line := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(line); w > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, w, line)
		}
	}
	golden.RequireEqual(t, []byte(out))
}

// TestReportMergesDatabases: the study gathered as fifty files and as
// five gives the same report.
func TestReportMergesDatabases(t *testing.T) {
	t.Parallel()
	report := func(perFile int) map[string]any {
		code, out, errText := studyGear(t, t.TempDir(), "", append([]string{"report", "--json"}, surveytest.Write(t, t.TempDir(), perFile)...)...)
		if code != cli.ExitOK {
			t.Fatalf("exit %d: %s", code, errText)
		}
		var rep map[string]any
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if n := len(rep["sources"].([]any)); n != surveytest.Participants/perFile {
			t.Errorf("%d sources, want %d", n, surveytest.Participants/perFile)
		}
		delete(rep, "sources")
		return rep
	}
	if a, b := report(1), report(10); !reflect.DeepEqual(a, b) {
		t.Error("fifty files and five files give different reports")
	}
}

// TestReportReadsExports: a participant may send an anonymized export
// instead of the database; it counts as one participant.
func TestReportReadsExports(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	paths := surveytest.Write(t, t.TempDir(), 1)
	export := filepath.Join(t.TempDir(), "p00.json")
	code, out, errText := studyGear(t, home, "", "history", "export", "--all", "--anonymize", "--db", paths[0])
	if code != cli.ExitOK {
		t.Fatalf("export: exit %d: %s", code, errText)
	}
	if err := os.WriteFile(export, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errText = studyGear(t, home, "", append([]string{"report", "--json", export}, paths[1:]...)...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var rep map[string]any
	json.Unmarshal([]byte(out), &rep)
	if n, _ := lookup(rep, "participants.n"); n != 50.0 {
		t.Errorf("participants = %v", n)
	}
	if v, _ := lookup(rep, "satisfaction.gear.ratio"); v != 0.784 {
		t.Errorf("gear satisfaction = %v", v)
	}
}

// TestReportReadsVersionOneExports: an export made before schema 5
// (gear-history/1: no chosen_by or answered_by, Grounded only when a
// confidence was kept, no route method for direct and user-chosen turns)
// gives the same report as the database it came from.
func TestReportReadsVersionOneExports(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	paths := surveytest.Write(t, t.TempDir(), 10)
	code, out, errText := studyGear(t, home, "", "history", "export", "--all", "--db", paths[0])
	if code != cli.ExitOK {
		t.Fatalf("export: exit %d: %s", code, errText)
	}
	var dump map[string]any
	if err := json.Unmarshal([]byte(out), &dump); err != nil {
		t.Fatal(err)
	}
	dump["format"] = "gear-history/1"
	for _, c := range dump["conversations"].([]any) {
		for _, tv := range c.(map[string]any)["turns"].([]any) {
			turn := tv.(map[string]any)
			turn["grounded"] = turn["grounded"] == true && turn["tool"] != ""
			switch turn["route_by"] {
			case "mode", "user":
				turn["route_by"] = ""
			case "decisive":
				turn["route_by"] = "combined"
			}
			for _, k := range []string{"chosen_by", "answered_by", "input", "route_probability", "route_threshold"} {
				delete(turn, k)
			}
			for _, g := range turn["grounding"].([]any) {
				delete(g.(map[string]any), "probability")
			}
		}
	}
	old, err := json.Marshal(dump)
	if err != nil {
		t.Fatal(err)
	}
	export := filepath.Join(t.TempDir(), "old.json")
	if err := os.WriteFile(export, old, 0o600); err != nil {
		t.Fatal(err)
	}
	report := func(first string) map[string]any {
		t.Helper()
		code, out, errText := studyGear(t, home, "", append([]string{"report", "--json", "--anonymize", first}, paths[1:]...)...)
		if code != cli.ExitOK {
			t.Fatalf("exit %d: %s", code, errText)
		}
		var rep map[string]any
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		delete(rep, "sources")
		return rep
	}
	fromDB, fromOld := report(paths[0]), report(export)
	if !reflect.DeepEqual(fromOld, fromDB) {
		a, _ := json.MarshalIndent(fromOld, "", " ")
		b, _ := json.MarshalIndent(fromDB, "", " ")
		t.Errorf("the old export's report differs from the database's:\n%s\n---\n%s", a, b)
	}
	if v, _ := lookup(fromOld, "grounding_accuracy.ratio"); v != 0.92 {
		t.Errorf("grounding accuracy from the old export = %v, want 0.92", v)
	}
}

// TestReportAnonymize: no free text, participant id or file name in any
// of the three formats.
func TestReportAnonymize(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	paths := surveytest.Write(t, dir, 10)
	for _, format := range [][]string{nil, {"--json"}, {"--csv"}} {
		args := append(append([]string{"report", "--anonymize"}, format...), paths...)
		code, out, errText := studyGear(t, t.TempDir(), "", args...)
		if code != cli.ExitOK {
			t.Fatalf("%v: exit %d: %s", format, code, errText)
		}
		for _, leak := range []string{surveytest.Secret, "p-study-", "study-0", dir, "Lisbon", "more tools please", "picked"} {
			if strings.Contains(out, leak) {
				t.Errorf("gear report --anonymize %v prints %q", format, leak)
			}
		}
		if !strings.Contains(out, "0.784") && !strings.Contains(out, "78.4") {
			t.Errorf("%v: the figures are gone too:\n%s", format, out)
		}
	}
}

func TestReportCSV(t *testing.T) {
	t.Parallel()
	paths := surveytest.Write(t, t.TempDir(), 10)
	code, out, errText := studyGear(t, t.TempDir(), "", append([]string{"report", "--csv"}, paths...)...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rows[0], []string{"section", "item", "measure", "value"}) {
		t.Errorf("header %q", rows[0])
	}
	want := map[[3]string]string{
		{"participants", "all", "n"}:                  "50",
		{"satisfaction", "gear", "ratio"}:             "0.784",
		{"satisfaction", "difference", "method"}:      "newcombe-wilson",
		{"tool_satisfaction", "WikiSearch", "ratio"}:  "0.505",
		{"question", "overall_score", "count_90-100"}: "24",
		{"headline", "tools_more_useful", "value"}:    "0.76",
		{"participant", "p-study-07", "survey"}:       "complete",
	}
	for _, r := range rows[1:] {
		if len(r) != 4 {
			t.Fatalf("row %q", r)
		}
		key := [3]string{r[0], r[1], r[2]}
		if v, ok := want[key]; ok {
			if r[3] != v {
				t.Errorf("%v = %s, want %s", key, r[3], v)
			}
			delete(want, key)
		}
	}
	if len(want) > 0 {
		t.Errorf("rows missing: %v", want)
	}
}

func TestReportUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	paths := surveytest.Write(t, dir, 25)
	notGear := filepath.Join(dir, "notes.txt")
	os.WriteFile(notGear, []byte("hello"), 0o600)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"report", filepath.Join(dir, "missing.db")}, "missing.db does not exist"},
		{[]string{"report", paths[0], paths[0]}, "is given twice"},
		{[]string{"report", dir}, "is a directory"},
		{[]string{"report", notGear}, "neither a gear history database nor an export"},
		{[]string{"report", "--json", "--csv", paths[0]}, "--json and --csv cannot be used together"},
	} {
		code, _, errText := studyGear(t, t.TempDir(), "", tt.args...)
		if code != cli.ExitUsage || !strings.Contains(errText, tt.want) {
			t.Errorf("gear %v: exit %d, %q; want 2 and %q", tt.args, code, errText, tt.want)
		}
	}
}
