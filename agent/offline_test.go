package agent

import (
	"strings"
	"testing"

	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// With no chat model gear still grounds and runs confident calls, shows
// their responses with tool and confidence, and says honestly when a
// question needs a model endpoint — it never invents an answer.
func TestOfflineTurns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		req        Request
		tool       string
		path       store.Emission
		answer     []string // substrings the answer must hold
		notice     []string // substrings the turn's notices must hold
		notAnswer  []string
		answeredBy store.Answerer
		status     store.Status
	}{
		{name: "calculator", req: Request{Text: "what is 48 multiplied by 4 divided by 2"},
			tool: "Calculator", path: store.EmissionOffline, answer: []string{"96"}, answeredBy: "tool", status: store.StatusDone},
		{name: "direct time in Tokyo", req: Request{Text: "what time is it in Tokyo", Mode: store.ModeDirect},
			tool: "CurrentTime", path: store.EmissionOffline, answer: []string{"2026-03-15 00:09:26", "Tokyo"}, answeredBy: "tool", status: store.StatusDone},
		{name: "/GEAR prefix", req: Request{Text: "/GEAR what time is it in Tokyo"},
			tool: "CurrentTime", path: store.EmissionOffline, answer: []string{"00:09", "Asia/Tokyo"}, answeredBy: "tool", status: store.StatusDone},
		{name: "exact call", req: Request{Text: "/GEAR Calculator(86 - 48 - 9)"},
			tool: "Calculator", path: store.EmissionExact, answer: []string{"29"}, answeredBy: "tool", status: store.StatusDone},
		// One line each time; the session's notice explains in full.
		{name: "joke needs a model", req: Request{Text: "tell me a joke"},
			answer:    []string{"gear needs a chat model for conversation", "gear setup"},
			notice:    []string{"No chat model is configured", "OPENAI_API_KEY", "--chat-model", "models.chat"},
			notAnswer: []string{"Why did", "knock knock", "OPENAI_API_KEY", "\n"}, answeredBy: "gear", status: store.StatusDone},
		{name: "baseline needs a model", req: Request{Text: "what is 2 + 2", Mode: store.ModeBaseline},
			answer: []string{"baseline mode is the chat model alone", "gear setup"}, notAnswer: []string{"4"}, answeredBy: "gear", status: store.StatusDone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, harnessOpts{confirmBelow: 0.5})
			evs, rec := h.ask(tt.req)
			if rec.Status != tt.status {
				t.Fatalf("status %s (%s), want %s", rec.Status, rec.Error, tt.status)
			}
			if rec.Tool != tt.tool {
				t.Errorf("tool %q, want %q", rec.Tool, tt.tool)
			}
			if tt.tool != "" {
				if rec.Emission == nil || rec.Emission.Path != tt.path {
					t.Errorf("emission %+v, want path %s", rec.Emission, tt.path)
				}
				if tt.path != store.EmissionExact && (!rec.Grounded || rec.Confidence < 0.5 || rec.Confidence > 1) {
					t.Errorf("grounded %v, confidence %v: want a confident grounded choice", rec.Grounded, rec.Confidence)
				}
				if got := h.lib.runs[tt.tool].Load(); got != 1 {
					t.Errorf("%s ran %d times, want once", tt.tool, got)
				}
			}
			if tt.tool == "" && h.totalRuns() != 0 {
				t.Errorf("%d tool runs, want none", h.totalRuns())
			}
			if got := answerText(evs); got != rec.Answer {
				t.Errorf("deltas %q differ from the record's answer %q", got, rec.Answer)
			}
			for _, s := range tt.answer {
				if !strings.Contains(rec.Answer, s) {
					t.Errorf("answer %q lacks %q", rec.Answer, s)
				}
			}
			var notices strings.Builder
			for _, ev := range evs {
				if n, ok := ev.(Notice); ok {
					notices.WriteString(n.Text)
				}
			}
			for _, s := range tt.notice {
				if !strings.Contains(notices.String(), s) {
					t.Errorf("notices %q lack %q", notices.String(), s)
				}
			}
			for _, s := range tt.notAnswer {
				if strings.Contains(rec.Answer, s) {
					t.Errorf("answer %q holds %q", rec.Answer, s)
				}
			}
			if rec.AnsweredBy != tt.answeredBy {
				t.Errorf("answered by %q, want %q", rec.AnsweredBy, tt.answeredBy)
			}
			if h.srv.total() != 0 {
				t.Errorf("%d model requests offline", h.srv.total())
			}
			for _, u := range rec.Usage {
				if u.Calls != 0 {
					t.Errorf("usage %+v offline", u)
				}
			}
			got := h.stored(rec)
			if got.Status != tt.status || got.Tool != tt.tool || got.Answer != rec.Answer || got.Mode != rec.Mode {
				t.Errorf("stored %+v, want status %s tool %q answer %q", got.TurnRecord, tt.status, tt.tool, rec.Answer)
			}
			// The store keeps who chose and who answered as the record says.
			if got.ChosenBy != store.Chooser(rec.ChosenBy) || got.AnsweredBy != store.Answerer(tt.answeredBy) ||
				got.Grounded != (rec.Grounding != nil) || (rec.Route != nil && got.RouteBy != store.RouteMethod(rec.Route.By)) {
				t.Errorf("stored chosen by %q, answered by %q, grounded %v, route by %q; record %q, %q, %+v",
					got.ChosenBy, got.AnsweredBy, got.Grounded, got.RouteBy, rec.ChosenBy, rec.AnsweredBy, rec.Route)
			}
			if tt.path == store.EmissionExact && (got.ChosenBy != store.ChosenByCall || got.Grounded || got.HasConfidence() ||
				got.RouteBy != store.RouteByUser || got.Input != tt.req.Text) {
				t.Errorf("a typed call is stored %+v", got.TurnRecord)
			}
		})
	}
}

// The "no chat model" notice is given once per agent, not on every turn;
// direct mode, which needs no model, does not give it.
func TestOfflineNoticeOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{confirmBelow: 0.5})
	evs, _ := h.ask(Request{Text: "/GEAR what time is it in Tokyo"})
	if n := len(eventsOf[Notice](evs)); n != 0 {
		t.Errorf("direct mode: %d notices", n)
	}
	evs, rec := h.ask(Request{Text: "what is 17 * 23"})
	notes := eventsOf[Notice](evs)
	if len(notes) != 1 || !strings.Contains(notes[0].Text, "No chat model is configured") || len(rec.Notices) != 1 {
		t.Fatalf("first chat turn: notices %+v", notes)
	}
	evs, _ = h.ask(Request{Text: "what is 17 * 24", Conversation: rec.ConversationID})
	if n := len(eventsOf[Notice](evs)); n != 0 {
		t.Errorf("second turn: %d notices", n)
	}
}

// An exact call the machine rejects is not run, not repaired silently, and
// the error says where it went wrong and what was probably meant.
func TestExactCallRejected(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string
	}{
		{"/GEAR Calculator(86 - - )", []string{"not run", "column"}},
		{`/GEAR WikiSerch("Ghana flag")`, []string{"not run", `did you mean WikiSearch`}},
		{`/GEAR CurrentTime(Tokyo)`, []string{"not run", `did you mean CurrentTime("Tokyo")`}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			h := newHarness(t, harnessOpts{confirmBelow: 0.5})
			evs, rec := h.ask(Request{Text: tt.text})
			failed := eventsOf[Failed](evs)
			if len(failed) != 1 || rec.Status != store.StatusFailed {
				t.Fatalf("want a failed turn, got %s %+v", rec.Status, failed)
			}
			if !tools.IsInput(failed[0].Err) {
				t.Errorf("error %v is not an input error (exit 2)", failed[0].Err)
			}
			for _, s := range tt.want {
				if !strings.Contains(failed[0].Err.Error(), s) {
					t.Errorf("error %q lacks %q", failed[0].Err, s)
				}
			}
			if h.totalRuns() != 0 || len(eventsOf[ToolStarted](evs)) != 0 {
				t.Errorf("a rejected call ran")
			}
			got := h.stored(rec)
			if got.Status != store.StatusFailed || len(got.Calls) != 1 || got.Calls[0].Check != store.CallRejected {
				t.Errorf("stored %+v", got.TurnRecord)
			}
		})
	}
}
