package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gear-chat/gear/store"
)

// The call confidence and its doubts are kept with the turn: a turn the
// offline engine read with doubts, run with --yes, shows the same call
// confidence and doubts in gear history show, in the Markdown and JSON
// exports, and on the card when the conversation is reopened in the chat.
func TestHistoryKeepsTheCallReading(t *testing.T) {
	t.Parallel()
	const q = "Jake has 34 fewer balls than Audrey. Audrey has 41 balls. How many balls does Jake have?"
	dir := t.TempDir()
	a := chatApp(t, nil, nil, dir, true)
	var askOut bytes.Buffer
	a.deps.Stdout, a.deps.Stderr = &askOut, io.Discard
	if err := a.ask(context.Background(), askOptions{text: q, yes: true, json: true}); err != nil {
		t.Fatalf("%v\n%s", err, askOut.String())
	}
	var live struct {
		CallReading *store.CallReading `json:"call_reading"`
	}
	if err := json.Unmarshal(askOut.Bytes(), &live); err != nil || live.CallReading == nil || len(live.CallReading.Doubts) == 0 {
		t.Fatalf("gear ask --json should carry a call reading with doubts (%v):\n%s", err, askOut.String())
	}
	want := pct(live.CallReading.Confidence)

	run := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		deps := Deps{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
		if code := Run(context.Background(), append([]string{"--db", filepath.Join(dir, "gear.db")}, args...), deps); code != ExitOK {
			t.Fatalf("gear %v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	show := run("history", "show", "1")
	if !strings.Contains(show, "call confidence "+want) || !strings.Contains(show, "call doubts: "+live.CallReading.Doubts[0]) {
		t.Errorf("history show should give the call confidence %s and its doubts %q:\n%s", want, live.CallReading.Doubts, show)
	}
	md := run("history", "export", "1", "--format", "markdown")
	if !strings.Contains(md, "call confidence "+want) || !strings.Contains(md, "Call doubts: ") {
		t.Errorf("the Markdown export should give the call confidence and its doubts:\n%s", md)
	}
	var dump store.Dump
	if err := json.Unmarshal([]byte(run("history", "export", "1", "--format", "json")), &dump); err != nil {
		t.Fatal(err)
	}
	if got := dump.Conversations[0].Turns[0].CallReading; got == nil || pct(got.Confidence) != want || len(got.Doubts) != len(live.CallReading.Doubts) {
		t.Errorf("the JSON export's call reading is %+v, want %+v", got, live.CallReading)
	}

}

// A chat turn's call confidence is on its badge again when the
// conversation is reopened.
func TestReopenedChatShowsTheCallConfidence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := openChat(t, chatApp(t, nil, nil, dir, true))
	s.until("engine offline")
	s.typeLine("what is 17 * 23")
	live := s.until("Calculator(17 * 23) → 391")
	badge := regexp.MustCompile(`tool \d+% · call \d+%`)
	want := badge.FindString(live)
	if want == "" {
		t.Fatalf("the live turn's badge has no call confidence:\n%s", live)
	}
	s = openChat(t, chatApp(t, nil, nil, dir, true))
	v := s.until("Resumed conversation #1")
	if !strings.Contains(v, want) {
		t.Errorf("the reopened turn's badge should read %q as it did live:\n%s", want, v)
	}
}
