package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/store"
)

// seedHistory records, through the store as the agent would, a weather
// turn about Adelaide with five tools' grounding scores, a direct
// calculator turn, and a turn whose text tries to drive the terminal.
func seedHistory(t *testing.T, path string) (weatherConv, hostileConv int64) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	weatherConv, err = s.CreateConversation(ctx, store.NewConversation{Mode: store.ModeChat,
		Chat: store.RoleModel{Engine: "ollama", Model: "llama3.2"}, Grounding: store.RoleModel{Engine: "offline", Model: "offline"}})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := s.BeginTurn(ctx, weatherConv, "what's the weather in Adelaide tomorrow?", store.ModeChat)
	if err != nil {
		t.Fatal(err)
	}
	rec := store.TurnRecord{TurnID: ref.TurnID, Status: store.StatusDone, Input: "@TallChatBot what's the weather in Adelaide tomorrow?",
		Route: store.RouteTool, RouteBy: store.RouteByThreshold, RouteProbability: 0.97, RouteThreshold: 0.5,
		Tool: "Weather", ToolFamily: "weather", ChosenBy: store.ChosenByGrounding, Confidence: 0.91, Grounded: true,
		Emission: store.EmissionGuided, AnsweredBy: store.AnsweredByModel,
		Latency: store.Latency{Ground: 400 * time.Millisecond, Total: 1200 * time.Millisecond},
		Calls: []store.ToolCall{{Tool: "Weather", Call: `Weather("Adelaide", "2026-11-03")`, Check: store.CallValidated,
			Response: "Adelaide, 2026-11-03: 24 °C, sunny"}},
		Answer: "Tomorrow Adelaide should be sunny, 24 °C (Weather, confidence 0.91).",
	}
	for i, tool := range []string{"Weather", "WikiSearch", "CurrentTime", "Calculator", "LocationSearch"} {
		rec.Grounding = append(rec.Grounding, store.GroundingScore{Tool: tool, Family: strings.ToLower(tool),
			Semantic: 0.7 - 0.1*float64(i), Pattern: 0.5 - 0.1*float64(i), Final: 0.65 - 0.1*float64(i),
			Call: tool + `("Adelaide")`, Response: "probe of " + tool, ResponseKind: store.ResponseMock,
			Probability: 0.91 / float64(1+20*i)})
	}
	if err := s.FinishTurn(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := s.Rate(ctx, store.Rating{TurnID: ref.TurnID, Score: store.ScoreUp, Comment: "spot on"}); err != nil {
		t.Fatal(err)
	}
	ref, _ = s.BeginTurn(ctx, weatherConv, "/GEAR Calculator(48*4/2)", store.ModeDirect)
	s.FinishTurn(ctx, store.TurnRecord{TurnID: ref.TurnID, Status: store.StatusDone, Route: store.RouteTool, RouteBy: store.RouteByUser,
		Tool: "Calculator", ToolFamily: "calc", ChosenBy: store.ChosenByCall,
		Emission: store.EmissionExact, Calls: []store.ToolCall{{Tool: "Calculator", Call: "Calculator(48*4/2)", Check: store.CallValidated, Response: "96"}},
		Answer: "96", AnsweredBy: store.AnsweredByTool})

	hostileConv, _ = s.CreateConversation(ctx, store.NewConversation{})
	ref, _ = s.BeginTurn(ctx, hostileConv, "adelaide \x1b]0;pwned\x07\x1b[2J\x1b[31mred", store.ModeChat)
	s.FinishTurn(ctx, store.TurnRecord{TurnID: ref.TurnID, Status: store.StatusDone, Answer: "\x1b[1A\x1b[2Kadelaide answer\u009b31m"})
	return weatherConv, hostileConv
}

func runGear(t *testing.T, env map[string]string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.Run(context.Background(), args, cli.Deps{
		Stdin:  strings.NewReader(stdin),
		Stdout: &out,
		Stderr: &errb,
		Getenv: func(k string) string { return env[k] },
	})
	if strings.Count(errb.String(), "\n") > 1 {
		t.Errorf("gear %v: stderr is more than one line: %q", args, errb.String())
	}
	return code, out.String(), errb.String()
}

func TestHistorySearchFindsRecordedTurn(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "gear.db")
	conv, _ := seedHistory(t, db)
	code, out, errOut := runGear(t, nil, "", "--db", db, "history", "search", "adelaide")
	if code != cli.ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"conversation 1 · turn 1", "Weather 91%", "thumbs up", "**Adelaide**", "**adelaide**"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if hasControl(out) {
		t.Errorf("terminal control sequences reached the output: %q", out)
	}
	code, out, _ = runGear(t, nil, "", "--db", db, "history", "search", "adelaide", "tool:weather", "conf>0.5", "--json")
	var hits []store.Hit
	if err := json.Unmarshal([]byte(out), &hits); err != nil || code != cli.ExitOK {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if len(hits) != 1 || hits[0].ConversationID != conv || hits[0].Tool != "Weather" {
		t.Errorf("filtered hits = %+v", hits)
	}
	code, out, _ = runGear(t, nil, "", "--db", db, "history", "search", "zanzibar")
	if code != cli.ExitOK || out != "No matches.\n" {
		t.Errorf("no match: exit %d, %q", code, out)
	}
}

func TestHistoryExportAllJSONHoldsGroundingScores(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "gear.db")
	seedHistory(t, db)
	code, out, errOut := runGear(t, nil, "", "--db", db, "history", "export", "--all", "--format", "json")
	if code != cli.ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !json.Valid([]byte(out)) {
		t.Fatalf("not valid JSON:\n%s", out)
	}
	var dump struct {
		Format        string `json:"format"`
		Conversations []struct {
			Turns []struct {
				Query     string `json:"query"`
				Grounding []struct {
					Tool string  `json:"tool"`
					S    float64 `json:"s"`
					P    float64 `json:"p"`
					F    float64 `json:"f"`
				} `json:"grounding"`
			} `json:"turns"`
		} `json:"conversations"`
	}
	if err := json.Unmarshal([]byte(out), &dump); err != nil {
		t.Fatal(err)
	}
	if dump.Format != store.DumpFormat || len(dump.Conversations) != 2 {
		t.Fatalf("dump = %+v", dump)
	}
	g := dump.Conversations[0].Turns[0].Grounding
	if len(g) != 5 || g[0].Tool != "Weather" || g[0].S != 0.7 || g[0].P != 0.5 || g[0].F != 0.65 || g[4].Tool != "LocationSearch" {
		t.Errorf("grounding = %+v", g)
	}

	code, out, _ = runGear(t, nil, "", "--db", db, "history", "export", "--all", "--anonymize")
	if code != cli.ExitOK || strings.Contains(out, "Adelaide") || strings.Contains(out, "spot on") || !strings.Contains(out, `"s": 0.7`) {
		t.Errorf("anonymized export: exit %d\n%s", code, out)
	}
}

func TestHistoryListShowAndMarkdown(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "gear.db")
	_, hostile := seedHistory(t, db)
	code, out, _ := runGear(t, nil, "", "--db", db, "history")
	if code != cli.ExitOK || !strings.Contains(out, "ID") || !strings.Contains(out, "what's the weather in Adelaide tomorrow?") ||
		hasControl(out) {
		t.Errorf("history: exit %d\n%q", code, out)
	}
	code, listed, _ := runGear(t, nil, "", "--db", db, "history", "list", "--limit", "1", "--json")
	var convs []store.Conversation
	if err := json.Unmarshal([]byte(listed), &convs); err != nil || code != cli.ExitOK || len(convs) != 1 || convs[0].ID != hostile {
		t.Errorf("list --json: %v %+v", err, convs)
	}
	code, out, _ = runGear(t, nil, "", "--db", db, "history", "show", "1")
	if code != cli.ExitOK {
		t.Errorf("history show 1: exit %d", code)
	}
	for _, want := range []string{
		"Conversation 1 · chat", "Models: chat ollama/llama3.2 · grounding offline", "you: what's the weather in Adelaide tomorrow?",
		"typed: @TallChatBot what's the weather in Adelaide tomorrow?", "· chat · done · answered by model · 1.20 s",
		"route: tool (threshold; needs a tool 97%, threshold 50%) · Weather [weather] · chosen by grounding · 91% confidence · call guided",
		"#  TOOL            S      P      f      PROB  RESPONSE",
		"1  Weather         0.700  0.500  0.650  91%   mock: probe of Weather",
		"2  WikiSearch      0.600  0.400  0.550  4%    mock: probe of WikiSearch",
		`call: Weather("Adelaide", "2026-11-03") · validated`, "→ Adelaide, 2026-11-03: 24 °C, sunny",
		"gear: Tomorrow Adelaide should be sunny", `rating: thumbs up · "spot on"`, "── Turn 2", "· direct · done · answered by tool",
		"route: tool (user) · Calculator [calc] · typed call · call exact",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runGear(t, nil, "", "--db", db, "history", "show", "2")
	if hasControl(out) || !strings.Contains(out, "adelaide answer") {
		t.Errorf("hostile turn shown unsanitized: %q", out)
	}
	code, out, _ = runGear(t, nil, "", "--db", db, "history", "export", "1", "--format", "markdown")
	for _, want := range []string{"# gear history", "## Conversation 1: what's the weather in Adelaide tomorrow?",
		"Typed: @TallChatBot what's the weather", "Route: tool (threshold; needs a tool 97%, threshold 50%) · tool Weather · chosen by grounding",
		"| # | Tool | Family | S | P | f | Probability | Call | Response |", "| 1 | Weather | weather | 0.700 | 0.500 | 0.650 | 91% |",
		"**gear:** (answered by model) Tomorrow", "Route: tool (user) · tool Calculator · typed call · call exact"} {
		if code != cli.ExitOK || !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runGear(t, nil, "", "--db", db, "history", "export", "1", "-f", "md", "--anonymize")
	if strings.Contains(out, "Adelaide") || strings.Contains(out, "Typed:") || !strings.Contains(out, "**You:** (removed)") {
		t.Errorf("anonymized markdown:\n%s", out)
	}
}

func TestHistoryDelete(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "gear.db")
	seedHistory(t, db)
	code, out, _ := runGear(t, nil, "", "--db", db, "history", "delete", "1")
	if code != cli.ExitOK || out != "Deleted conversation 1.\n" {
		t.Fatalf("delete 1: exit %d %q", code, out)
	}
	if code, out, _ := runGear(t, nil, "", "--db", db, "history", "search", "sunny"); code != cli.ExitOK || out != "No matches.\n" {
		t.Errorf("deleted turn still found: %q", out)
	}
	code, _, errOut := runGear(t, nil, "y\n", "--db", db, "history", "delete", "--all")
	if code != cli.ExitUsage || !strings.Contains(errOut, "add --yes") {
		t.Errorf("delete --all from a pipe: exit %d %q", code, errOut)
	}
	if _, out, _ := runGear(t, nil, "", "--db", db, "history", "list"); !strings.Contains(out, "adelaide") {
		t.Errorf("delete --all without --yes deleted: %q", out)
	}
	code, out, _ = runGear(t, nil, "", "--db", db, "history", "delete", "--all", "--yes")
	if code != cli.ExitOK || out != "Deleted 1 conversation.\n" {
		t.Errorf("delete --all --yes: exit %d %q", code, out)
	}
	if _, out, _ := runGear(t, nil, "", "--db", db, "history", "delete", "--all", "--yes"); out != "Nothing to delete.\n" {
		t.Errorf("empty history: %q", out)
	}
}

func TestHistoryUsageErrors(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "gear.db")
	seedHistory(t, db)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"show", "abc"}, `conversation id "abc": want a number`},
		{[]string{"show", "99"}, "no conversation with id 99"},
		{[]string{"show"}, "accepts 1 arg"},
		{[]string{"export"}, "give conversation ids"},
		{[]string{"export", "1", "--all"}, "not both"},
		{[]string{"export", "1", "--format", "xml"}, `--format "xml"`},
		{[]string{"export", "1", "42"}, "no conversation with id 42"},
		{[]string{"delete"}, "give conversation ids"},
		{[]string{"delete", "0"}, `conversation id "0"`},
		{[]string{"delete", "77"}, "no conversation with id 77"},
		{[]string{"search", "rating:meh"}, "rating:meh: want rating:low"},
		{[]string{"search", "since:tomorrow"}, "not a date"},
		{[]string{"search", "!!!"}, "nothing to search for"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runGear(t, nil, "", append([]string{"--db", db, "history"}, tt.args...)...)
			if code != cli.ExitUsage || !strings.HasPrefix(errOut, "gear: ") || !strings.Contains(errOut, tt.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 saying %q", code, out, errOut, tt.want)
			}
		})
	}
}

// TestHistoryBadDatabases: each bad state is one line on stderr and exit 1,
// and the file is left as it was.
func TestHistoryBadDatabases(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.db")
	os.WriteFile(corrupt, bytes.Repeat([]byte("garbage! "), 1000), 0o600)
	newer := filepath.Join(dir, "newer.db")
	seedHistory(t, newer)
	bumpVersion(t, newer)
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o600)
	tests := []struct {
		name, db string
		want     []string
	}{
		{"corrupt", corrupt, []string{"is corrupt", "left it untouched", "--db"}},
		{"newer", newer, []string{"newer gear", "upgrade gear", "--db"}},
		{"directory under a file", filepath.Join(notDir, "sub", "gear.db"), []string{"cannot create history directory", "--db"}},
		{"a device", os.DevNull, []string{"not a regular file", "--db"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(tt.db)
			code, out, errOut := runGear(t, nil, "", "--db", tt.db, "history", "list")
			if code != cli.ExitFailure || out != "" {
				t.Errorf("exit %d, stdout %q", code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
			if after, _ := os.ReadFile(tt.db); !bytes.Equal(before, after) {
				t.Error("the file changed")
			}
		})
	}
}

// TestHistoryReadsLeaveNoFiles: a history gear wrote (WAL) and closed is
// read by every read command, and no file appears beside it — not even
// SQLite's -wal and -shm — and the file itself is unchanged.
func TestHistoryReadsLeaveNoFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "gear.db")
	seedHistory(t, db)
	names := func() []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	before, _ := os.ReadFile(db)
	if got := names(); len(got) != 1 {
		t.Fatalf("after seeding: %v", got)
	}
	for _, args := range [][]string{{"history", "list"}, {"history", "search", "Adelaide"}, {"history", "show", "1"}, {"history", "export", "--all"}} {
		code, out, errOut := runGear(t, nil, "", append([]string{"--db", db}, args...)...)
		if code != cli.ExitOK || out == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		if got := names(); len(got) != 1 {
			t.Errorf("%v left %v", args, got)
		}
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Error("reading changed the file")
	}
}

// TestHistoryNewDirectoryIsNotCreated: --db in a directory that does not
// exist yet: every read command says there is no history, and creates
// neither the directory nor a database.
func TestHistoryNewDirectoryIsNotCreated(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	db := filepath.Join(root, "new", "dir", "x.db")
	for _, args := range [][]string{{"history", "list"}, {"history", "search", "weather"}, {"history", "export", "--all"}, {"report"}} {
		code, out, errOut := runGear(t, nil, "", append([]string{"--db", db}, args...)...)
		if strings.Contains(out+errOut, "panic") || (code == cli.ExitOK) == strings.Contains(errOut, "gear: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		if !strings.Contains(out+errOut, "o history") && !strings.Contains(out+errOut, "No conversations") && !strings.Contains(out+errOut, "does not exist") {
			t.Errorf("%v should say there is no history yet: stdout %q, stderr %q", args, out, errOut)
		}
		if entries, _ := os.ReadDir(root); len(entries) != 0 {
			t.Fatalf("%v created %v", args, entries)
		}
	}
}

// bumpVersion makes the file look as if a newer gear wrote it.
func bumpVersion(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// user_version is the big-endian 32-bit integer at offset 60 of the
	// SQLite header.
	b[60], b[61], b[62], b[63] = 0, 0, 0, byte(store.SchemaVersion+1)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestHistoryDefaultLocation(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	env := map[string]string{"XDG_DATA_HOME": data}
	code, out, errOut := runGear(t, env, "", "history", "list")
	want := filepath.Join(data, "gear", "gear.db")
	if code != cli.ExitOK || out != "No conversations in "+want+" yet.\n" || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// Listing is reading: it creates neither the directory nor the file.
	if _, err := os.Stat(filepath.Dir(want)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("history list created %s (%v)", filepath.Dir(want), err)
	}
	if code, out, _ := runGear(t, env, "", "history", "search", "--json", "weather"); code != cli.ExitOK || out != "[]\n" {
		t.Errorf("search without a history: exit %d, %q", code, out)
	}
	other := filepath.Join(t.TempDir(), "env.db")
	env["GEAR_DB"] = other
	if _, out, _ := runGear(t, env, "", "history"); !strings.Contains(out, other) {
		t.Errorf("GEAR_DB ignored: %q", out)
	}
}

// hasControl reports terminal control characters: ESC, BEL, 8-bit CSI.
func hasControl(s string) bool {
	return strings.ContainsAny(s, "\x1b\x07\u009b")
}

// On a terminal, delete --all asks, and the answer typed decides: the
// prompt is driven through Deps (StdinIsTerminal and Stdin), as a person
// at the terminal would answer it.
func TestHistoryDeleteAllAsksOnATerminal(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		answer, want string
		left         bool
	}{
		{"n\n", "Nothing deleted.\n", true},
		{"\n", "Nothing deleted.\n", true},
		{"yes\n", "Deleted 2 conversations.\n", false},
	} {
		db := filepath.Join(t.TempDir(), "gear.db")
		seedHistory(t, db)
		var out, errb bytes.Buffer
		code := cli.Run(context.Background(), []string{"--db", db, "history", "delete", "--all"}, cli.Deps{
			Stdin: strings.NewReader(tt.answer), Stdout: &out, Stderr: &errb,
			Getenv: func(string) string { return "" }, IsTerminal: true, StdinIsTerminal: true,
		})
		if code != cli.ExitOK || out.String() != tt.want {
			t.Errorf("answer %q: exit %d, stdout %q, want %q", tt.answer, code, out.String(), tt.want)
		}
		if q := errb.String(); !strings.HasPrefix(q, "Delete 2 conversations") || !strings.HasSuffix(q, "This cannot be undone. [y/N] ") {
			t.Errorf("answer %q: the prompt was %q", tt.answer, q)
		}
		_, list, _ := runGear(t, nil, "", "--db", db, "history", "list")
		if left := strings.Contains(list, "adelaide"); left != tt.left {
			t.Errorf("answer %q: conversation still there = %v, want %v", tt.answer, left, tt.left)
		}
	}
}
