package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/cli"
)

// gearIn runs gear on db with stdin piped in (not a terminal) and no
// network.
func gearIn(t *testing.T, db string, stdin io.Reader, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), append([]string{"--db", db}, args...), cli.Deps{
		Stdin: stdin, Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" },
		Now: askNow, HTTP: &http.Client{Transport: noNetwork{t}},
	})
	return code, stdout.String(), stderr.String()
}

type askRecord struct {
	ConversationID int64  `json:"conversation_id"`
	Input          string `json:"input"`
	Tool           string `json:"tool"`
	Answer         string `json:"answer"`
}

func decodeRecord(t *testing.T, stdout string) askRecord {
	t.Helper()
	var r askRecord
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("gear ask --json printed %q: %v", stdout, err)
	}
	return r
}

// A query piped in is asked; piped text after a query
// is its context.
func TestAskReadsStandardInput(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "gear.db")
	code, stdout, stderr := gearIn(t, db, strings.NewReader("what is 2+2\n"), "ask", "--offline")
	if code != cli.ExitOK || !strings.HasPrefix(stdout, "4\n") || !strings.Contains(stdout, "Calculator") {
		t.Fatalf("echo 'what is 2+2' | gear ask: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	notes := "Meeting notes: the launch moves to Friday.\nBring the slides.\n"
	code, stdout, stderr = gearIn(t, db, strings.NewReader(notes), "ask", "--offline", "--json", "summarise this")
	// Offline, nothing can summarise: the turn is recorded with the piped
	// text, and, as every turn that did not answer, exits 1.
	if code != cli.ExitFailure {
		t.Fatalf("cat notes | gear ask 'summarise this': exit %d, stderr %q", code, stderr)
	}
	rec := decodeRecord(t, stdout)
	if !strings.HasPrefix(rec.Input, "summarise this\n\n") || !strings.Contains(rec.Input, "Bring the slides.") {
		t.Errorf("the turn's input %q should be the query, then the piped text", rec.Input)
	}
}

func TestAskWithNothingToAskIsAUsageError(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "gear.db")
	for _, stdin := range []io.Reader{nil, strings.NewReader(" \n")} {
		code, stdout, stderr := gearIn(t, db, stdin, "ask", "--offline")
		if code != cli.ExitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 ||
			!strings.Contains(stderr, "nothing to ask") || !strings.Contains(stderr, "| gear ask") {
			t.Errorf("gear ask with nothing: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	}
	big := strings.NewReader(strings.Repeat("x", 300<<10))
	if code, _, stderr := gearIn(t, db, big, "ask", "--offline"); code != cli.ExitUsage || !strings.Contains(stderr, "over 256 KiB") {
		t.Errorf("a huge pipe: exit %d, stderr %q", code, stderr)
	}
}

// -c/--continue adds the turn to the last conversation.
func TestAskContinue(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "gear.db")
	if code, _, stderr := gearIn(t, db, nil, "ask", "--offline", "-c", "what is 2+2"); code != cli.ExitUsage ||
		!strings.Contains(stderr, "no conversation yet") {
		t.Errorf("-c on a fresh history: exit %d, stderr %q", code, stderr)
	}
	_, out1, _ := gearIn(t, db, nil, "ask", "--offline", "--json", "what is 2+2")
	_, out2, _ := gearIn(t, db, nil, "ask", "--offline", "--json", "what is 3+3")
	_, out3, _ := gearIn(t, db, nil, "ask", "--offline", "--json", "--continue", "and 4+4?")
	first, second, third := decodeRecord(t, out1), decodeRecord(t, out2), decodeRecord(t, out3)
	if first.ConversationID == second.ConversationID {
		t.Fatalf("without -c each ask starts a conversation: both are #%d", first.ConversationID)
	}
	if third.ConversationID != second.ConversationID {
		t.Errorf("--continue went to conversation #%d, want the last one, #%d", third.ConversationID, second.ConversationID)
	}
}

// Usage errors exit 2 with one line that says what to
// do; gear tool with an unquoted call says to quote it.
func TestUsageErrorsAreTyped(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"tool", "Calculator", "2+2"}, "quote it, e.g. gear tool 'Calculator(2+2)'"},
		{[]string{"tool", "Calculator(2", "+", "2)"}, "gear tool 'Calculator(2 + 2)'"},
		{[]string{"tool"}, "gear tool takes one call"},
		{[]string{"history", "show"}, "accepts 1 arg"},
		{[]string{"history", "frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"tools", "extra"}, "unknown command"},
		{[]string{"eval"}, "accepts 1 arg"},
		{[]string{"ask", "--nope", "x"}, "unknown flag: --nope"},
	}
	for _, tt := range tests {
		code, stdout, stderr := gearIn(t, filepath.Join(t.TempDir(), "gear.db"), nil, tt.args...)
		if code != cli.ExitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
			t.Errorf("gear %s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q",
				strings.Join(tt.args, " "), code, stdout, stderr, tt.want)
		}
	}
}

func TestHelpGroupsTheCommands(t *testing.T) {
	t.Parallel()
	_, stdout, _ := gearIn(t, filepath.Join(t.TempDir(), "gear.db"), nil, "--help")
	chat := strings.Index(stdout, "Chat:")
	hist := strings.Index(stdout, "History:")
	tools := strings.Index(stdout, "Tools:")
	research := strings.Index(stdout, "Research")
	if chat < 0 || hist < chat || tools < hist || research < tools {
		t.Fatalf("gear --help should group the commands chat, history, tools, research:\n%s", stdout)
	}
	for _, name := range []string{"study", "survey", "report", "tune", "replay", "eval", "grammar"} {
		if !strings.Contains(stdout[research:], "\n  "+name+" ") {
			t.Errorf("%s is not under Research:\n%s", name, stdout[research:])
		}
	}
	if !strings.Contains(stdout, "Examples:") {
		t.Errorf("gear --help shows no examples:\n%s", stdout)
	}
}

// A person's own history is one participant, even for
// conversations held before the id was made.
func TestReportCountsOnePersonPerHistory(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	db := filepath.Join(home, "gear.db")
	if code, _, stderr := studyGear(t, home, "", "--db", db, "--offline", "ask", "what is 2+2"); code != cli.ExitOK {
		t.Fatalf("ask: %s", stderr)
	}
	if code, _, stderr := studyGear(t, home, `{"overall_experience": 8, "noticed_tools": true}`, "--db", db, "survey", "--answers", "-"); code != cli.ExitOK {
		t.Fatalf("survey: %s", stderr)
	}
	code, stdout, stderr := studyGear(t, home, "", "report", db)
	if code != cli.ExitOK || !strings.Contains(stdout, "gear study report: 1 participant, 1 turn") {
		t.Errorf("exit %d, stderr %q; want one participant:\n%s", code, stderr, stdout)
	}
}

// The baseline phase needs a chat model; a phase can
// be stopped; counts agree with their nouns.
func TestStudyStartStopAndStatus(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	db := filepath.Join(home, "gear.db")
	code, stdout, stderr := studyGear(t, home, "", "--db", db, "study", "start", "--phase", "baseline")
	if code != cli.ExitUsage || stdout != "" || !strings.Contains(stderr, "no chat model is configured") {
		t.Errorf("baseline without a chat model: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, stdout, _ = studyGear(t, home, "", "--db", db, "study", "stop"); code != cli.ExitOK || !strings.Contains(stdout, "No study phase is running") {
		t.Errorf("stop with no phase: exit %d, %q", code, stdout)
	}
	if code, _, stderr = studyGear(t, home, "", "--db", db, "study", "start", "--phase", "gear", "--participant", "P1"); code != cli.ExitOK {
		t.Fatalf("start gear: %s", stderr)
	}
	if code, _, stderr = studyGear(t, home, "", "--db", db, "--offline", "ask", "what is 2+2"); code != cli.ExitOK {
		t.Fatalf("ask: %s", stderr)
	}
	_, stdout, _ = studyGear(t, home, "", "--db", db, "study", "status")
	if !strings.Contains(stdout, "gear:          1 conversation, 1 turn, 0 rated") {
		t.Errorf("status should say 1 conversation, 1 turn:\n%s", stdout)
	}
	code, stdout, _ = studyGear(t, home, "", "--db", db, "study", "stop")
	if code != cli.ExitOK || !strings.Contains(stdout, "The gear phase (since 2026-11-20) has ended") || !strings.Contains(stdout, "Participant P1 is kept") {
		t.Errorf("stop: exit %d, %q", code, stdout)
	}
	_, stdout, _ = studyGear(t, home, "", "--db", db, "study", "status", "--json")
	var s map[string]any
	if json.Unmarshal([]byte(stdout), &s) != nil || s["phase"] != "" || s["participant_id"] != "P1" || s["default_mode"] != "chat" {
		t.Errorf("status after stop: %s", stdout)
	}
}

// A query given as arguments does not wait on a standard input that is
// open but silent (a supervisor's pipe, the MCP conformance suite): gear
// answers and exits.
func TestAskDoesNotWaitOnASilentPipe(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	db := filepath.Join(t.TempDir(), "gear.db")
	done := make(chan struct{})
	var code int
	var stdout string
	go func() {
		defer close(done)
		code, stdout, _ = gearIn(t, db, pr, "ask", "--offline", "what is 2+2")
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("gear ask waited on a silent standard input")
	}
	if code != cli.ExitOK || !strings.HasPrefix(stdout, "4\n") {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
}
