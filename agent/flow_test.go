package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// runUntil runs a turn, answering a confirmation with answer (or
// cancelling when answer is "cancel"), and returns its events.
func (h *harness) runUntil(req Request, answer string, whileWaiting func(so []Event, c ConfirmationNeeded)) ([]Event, Record) {
	h.t.Helper()
	turn := h.ag.Start(context.Background(), req)
	var evs []Event
	for {
		ev, ok := turn.Next()
		if !ok {
			break
		}
		evs = append(evs, ev)
		if c, ok := ev.(ConfirmationNeeded); ok {
			if whileWaiting != nil {
				whileWaiting(evs, c)
			}
			if answer == "cancel" {
				turn.Cancel()
			} else if err := turn.Confirm(answer); err != nil {
				h.t.Fatal(err)
			}
		}
	}
	return evs, turn.Wait()
}

// Below agent.confirm_below the caller is asked, with the top candidates
// and their scores; the turn is saved as awaiting confirmation meanwhile.
func TestConfirmationGate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		answer   string
		yes      bool
		tool     string
		chosenBy store.Chooser
		status   store.Status
	}{
		{name: "run the top candidate", answer: "Calculator", tool: "Calculator", chosenBy: "grounding", status: store.StatusDone},
		{name: "pick another", answer: "WikiSearch", tool: "WikiSearch", chosenBy: "user", status: store.StatusDone},
		{name: "pick by family word", answer: "wikipedia", tool: "WikiSearch", chosenBy: "user", status: store.StatusDone},
		{name: "no tool", answer: NoTool, tool: "", status: store.StatusDone},
		{name: "--yes", yes: true, tool: "Calculator", chosenBy: "grounding", status: store.StatusDone},
		{name: "cancel while asked", answer: "cancel", tool: "", status: store.StatusCancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 1})
			var waiting store.Status
			evs, rec := h.runUntil(Request{Text: calcQuery, Yes: tt.yes}, tt.answer, func(so []Event, c ConfirmationNeeded) {
				if len(c.Confirmation.Candidates) != 3 || c.Confirmation.Candidates[0].Tool != "Calculator" ||
					c.Confirmation.Threshold != 1 || c.Confirmation.Candidates[0].Confidence < c.Confirmation.Candidates[1].Confidence {
					t.Errorf("confirmation %+v", c.Confirmation)
				}
				// The choice is shown with the confidence the gate compared
				// with its threshold (grounding's calibrated confidence),
				// not its softmax share.
				if g := eventsOf[Grounded](so); len(g) == 1 && c.Confirmation.Candidates[0].Confidence != g[0].Grounding.Confidence {
					t.Errorf("top candidate at %v, the choice's confidence is %v", c.Confirmation.Candidates[0].Confidence, g[0].Grounding.Confidence)
				}
				waiting = h.stored(Record{TurnID: eventsOf[Started](so)[0].TurnID}).Status
			})
			if rec.Status != tt.status || rec.Tool != tt.tool || rec.ChosenBy != tt.chosenBy {
				t.Fatalf("status %s (%s), tool %q chosen by %q", rec.Status, rec.Error, rec.Tool, rec.ChosenBy)
			}
			asked := len(eventsOf[ConfirmationNeeded](evs))
			if tt.yes {
				if asked != 0 || !rec.Confirmation.Auto || rec.Confirmation.Chosen != "Calculator" {
					t.Errorf("--yes asked %d times, confirmation %+v", asked, rec.Confirmation)
				}
			} else {
				if asked != 1 || waiting != store.StatusAwaitingConfirmation {
					t.Errorf("asked %d times; stored %q while waiting", asked, waiting)
				}
			}
			if tt.tool == "" && h.agentRuns(rec) != 0 {
				t.Errorf("a tool ran after %q", tt.answer)
			}
			if tt.answer == NoTool && (h.srv.count(kindEmit) != 0 || h.srv.count(kindAnswer) != 1) {
				t.Errorf("no tool: %d emissions, %d answers", h.srv.count(kindEmit), h.srv.count(kindAnswer))
			}
			got := h.stored(rec)
			if got.Status != tt.status || got.ChosenBy != store.Chooser(tt.chosenBy) || !got.Grounded {
				t.Errorf("stored status %s, chosen by %q, grounded %v", got.Status, got.ChosenBy, got.Grounded)
			}
		})
	}
}

// "/use WikiSearch" and "use wiki instead" re-run the last turn's query
// with that tool.
func TestSwitchTool(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"/use WikiSearch", "use wiki instead", "No, try the wikipedia tool instead."} {
		t.Run(text, func(t *testing.T) {
			h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.5})
			_, first := h.ask(Request{Text: calcQuery})
			if first.Tool != "Calculator" {
				t.Fatalf("first turn used %q", first.Tool)
			}
			evs, rec := h.ask(Request{Text: text, Conversation: first.ConversationID})
			if rec.Status != store.StatusDone || rec.Tool != "WikiSearch" || rec.ChosenBy != "user" || rec.Route.By != "user" {
				t.Fatalf("status %s (%s), tool %q chosen by %q", rec.Status, rec.Error, rec.Tool, rec.ChosenBy)
			}
			if rec.Query != calcQuery || rec.Input != text || rec.ConversationID != first.ConversationID {
				t.Errorf("query %q input %q conversation %d", rec.Query, rec.Input, rec.ConversationID)
			}
			if len(eventsOf[ConfirmationNeeded](evs)) != 0 {
				t.Errorf("a tool the user named was confirmed again")
			}
			if emits := h.srv.requests(kindEmit); emits[len(emits)-1].tool != "WikiSearch" {
				t.Errorf("the call was emitted for %s", emits[len(emits)-1].tool)
			}
			if got := h.stored(rec); got.Query != calcQuery || got.Tool != "WikiSearch" || got.Input != text ||
				got.ChosenBy != store.ChosenByUser || got.RouteBy != store.RouteByUser || !got.HasConfidence() {
				t.Errorf("stored query %q, tool %q, input %q, chosen by %q, route by %q, grounded %v",
					got.Query, got.Tool, got.Input, got.ChosenBy, got.RouteBy, got.Grounded)
			}
		})
	}
	t.Run("unknown tool", func(t *testing.T) {
		h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.5})
		_, first := h.ask(Request{Text: calcQuery})
		evs, _ := h.ask(Request{Text: "/use Teleporter", Conversation: first.ConversationID})
		f := eventsOf[Failed](evs)
		if len(f) != 1 || !tools.IsInput(f[0].Err) || !strings.Contains(f[0].Err.Error(), "Calculator, CurrentTime, WeatherSearch, WikiSearch") {
			t.Fatalf("failed %+v", f)
		}
	})
	t.Run("nothing to re-run", func(t *testing.T) {
		h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.5})
		evs, _ := h.ask(Request{Text: "use wiki instead"})
		if f := eventsOf[Failed](evs); len(f) != 1 || !tools.IsInput(f[0].Err) {
			t.Fatalf("failed %+v", f)
		}
		if h.srv.total() != 0 {
			t.Errorf("%d model requests", h.srv.total())
		}
	})
	t.Run("Request.Tool", func(t *testing.T) {
		h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.999})
		evs, rec := h.ask(Request{Text: calcQuery, Tool: "weather"})
		if rec.Tool != "WeatherSearch" || len(eventsOf[ConfirmationNeeded](evs)) != 0 {
			t.Errorf("tool %q, %d confirmations", rec.Tool, len(eventsOf[ConfirmationNeeded](evs)))
		}
	})
}

// When routing says no tool, the chat LLM answers directly: no emission,
// no tool, no tools offered.
func TestRoutedToNoTool(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{chat: llm.ServerVLLM, confirmBelow: 0.5, route: grounding.RouteModel,
		script: map[reqKind]func(modelRequest) reply{
			kindRoute: func(r modelRequest) reply { return yesNo(t, r, false) },
			kindAnswer: func(r modelRequest) reply {
				return streamReply(t, "Why did the scarecrow win an award? ", "He was outstanding in his field.")
			},
		}})
	_, rec := h.ask(Request{Text: "tell me a joke"})
	if rec.Status != store.StatusDone || rec.Tool != "" || rec.Route.NeedsTool || rec.Route.By != "model" || rec.Route.ModelSaid != "no" {
		t.Fatalf("status %s, tool %q, route %+v", rec.Status, rec.Tool, rec.Route)
	}
	if h.srv.count(kindEmit) != 0 || h.agentRuns(rec) != 0 || h.srv.requests(kindRoute)[0].guide != "choice" {
		t.Errorf("emissions %d, runs %d", h.srv.count(kindEmit), h.agentRuns(rec))
	}
	ans := h.srv.requests(kindAnswer)[0]
	msgs := ans.body["messages"].([]any)
	if sys := msgs[0].(map[string]any)["content"]; sys != chatSystem || ans.query != "tell me a joke" {
		t.Errorf("answer request %v", msgs)
	}
	if !strings.HasPrefix(rec.Answer, "Why did the scarecrow") || rec.AnsweredBy != "model" {
		t.Errorf("answer %q", rec.Answer)
	}
	// Grounding ran, so the store says so, with routing's numbers and
	// every tool's probability, though no tool was chosen.
	got := h.stored(rec)
	if !got.Grounded || got.HasConfidence() || got.RouteBy != store.RouteByModel || got.Route != store.RouteNone ||
		got.RouteProbability != rec.Route.Probability || got.RouteThreshold != rec.Route.Threshold || got.RouteThreshold == 0 ||
		got.AnsweredBy != store.AnsweredByModel || got.ChosenBy != "" || got.Input != "" {
		t.Errorf("stored %+v", got.TurnRecord)
	}
	if len(got.Grounding) != len(rec.Grounding.Tools) || got.Grounding[0].Probability != rec.Grounding.Tools[0].Probability {
		t.Errorf("stored grounding %+v", got.Grounding)
	}
}

// Baseline mode is the chat model alone: no routing, no grounding, no
// tools, the plain assistant prompt.
func TestBaselineChat(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.5, script: map[reqKind]func(modelRequest) reply{
		kindAnswer: func(r modelRequest) reply { return streamReply(t, "48 × 4 / 2 = 96.") },
	}})
	_, rec := h.ask(Request{Text: calcQuery, Mode: store.ModeBaseline})
	if rec.Status != store.StatusDone || rec.Mode != store.ModeBaseline || rec.Grounding != nil || rec.Route != nil || rec.Tool != "" {
		t.Fatalf("record %+v", rec)
	}
	if h.srv.total() != 1 || h.agentRuns(rec) != 0 {
		t.Errorf("%d model requests, %d runs", h.srv.total(), h.totalRuns())
	}
	msgs := h.srv.requests(kindAnswer)[0].body["messages"].([]any)
	if msgs[0].(map[string]any)["content"] != baselineSystem {
		t.Errorf("baseline prompt %v", msgs[0])
	}
	if got := h.stored(rec); got.Mode != store.ModeBaseline || got.Answer != "48 × 4 / 2 = 96." || got.Grounded ||
		got.AnsweredBy != store.AnsweredByModel || got.RouteBy != "" {
		t.Errorf("stored %+v", got)
	}
	// "@TallChatBot" switches back to chat for one turn.
	_, rec = h.ask(Request{Text: "@TallChatBot " + calcQuery, Mode: store.ModeBaseline, Conversation: rec.ConversationID})
	if rec.Mode != store.ModeChat || rec.Tool != "Calculator" {
		t.Errorf("@TallChatBot: mode %s, tool %q", rec.Mode, rec.Tool)
	}
}

// Earlier turns are sent as context within agent.context_tokens, the
// newest first to be kept.
func TestConversationContext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		tokens int
		want   bool
	}{
		{"within the budget", 2000, true},
		{"over the budget", 10, false},
		{"no context", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.5, contextTokens: tt.tokens})
			_, first := h.ask(Request{Text: calcQuery})
			_, second := h.ask(Request{Text: "and what is 17 * 23", Conversation: first.ConversationID})
			if second.Status != store.StatusDone {
				t.Fatalf("second turn %s: %s", second.Status, second.Error)
			}
			ans := h.srv.requests(kindAnswer)
			msgs := ans[len(ans)-1].body["messages"].([]any)
			var roles []string
			has := false
			for _, m := range msgs {
				mm := m.(map[string]any)
				roles = append(roles, mm["role"].(string))
				if mm["role"] == "assistant" && mm["content"] == first.Answer {
					has = true
				}
			}
			if has != tt.want {
				t.Errorf("earlier answer sent: %v, want %v (roles %v)", has, tt.want, roles)
			}
			if tt.want && strings.Join(roles, ",") != "system,user,assistant,user" {
				t.Errorf("roles %v", roles)
			}
		})
	}
}

// A model that writes the chosen tool's call among other calls gets only
// that one call run; the other tool never runs.
func TestOnlyTheChosenToolsCallRuns(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{chat: llm.ServerLlamaCpp, confirmBelow: 0.5, script: map[reqKind]func(modelRequest) reply{
		kindEmit: func(r modelRequest) reply {
			return chatReply(t, `WikiSearch("secrets"); Calculator(48 * 4 / 2); WeatherSearch("Paris")`, "")
		},
	}})
	evs, rec := h.ask(Request{Text: calcQuery})
	if rec.Call == nil || rec.Call.Call != "Calculator(48 * 4 / 2)" || len(eventsOf[ToolStarted](evs)) != 1 {
		t.Fatalf("call %+v", rec.Call)
	}
	if h.lib.runs["WikiSearch"].Load() != 0 || h.lib.runs["WeatherSearch"].Load() != 0 || h.agentRuns(rec) != 1 {
		t.Errorf("runs: wiki %d, weather %d, agent %d", h.lib.runs["WikiSearch"].Load(), h.lib.runs["WeatherSearch"].Load(), h.agentRuns(rec))
	}
}

// Direct mode needs no chat LLM even when there is one: /GEAR already says
// a tool is needed, grounding's own call runs, and the response is shown as
// is.
func TestDirectModeWithChatModel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.5, route: grounding.RouteModel,
		script: map[reqKind]func(modelRequest) reply{kindRoute: nil, kindEmit: nil, kindAnswer: nil}})
	_, rec := h.ask(Request{Text: "/GEAR what time is it in Tokyo"})
	if rec.Status != store.StatusDone || rec.Tool != "CurrentTime" || rec.AnsweredBy != "tool" || rec.Route.By != "mode" ||
		!strings.Contains(rec.Answer, "2026-03-15 00:09:26 JST") {
		t.Fatalf("record %+v", rec)
	}
	if h.srv.total() != 0 || rec.Emission.Path != store.EmissionOffline {
		t.Errorf("%d model requests, emission %s", h.srv.total(), rec.Emission.Path)
	}
	if got := h.stored(rec); got.RouteBy != store.RouteByMode || got.ChosenBy != store.ChosenByGrounding ||
		got.AnsweredBy != store.AnsweredByTool || got.Input != "/GEAR what time is it in Tokyo" || got.Query != "what time is it in Tokyo" {
		t.Errorf("stored route by %q, chosen by %q, answered by %q, input %q", got.RouteBy, got.ChosenBy, got.AnsweredBy, got.Input)
	}
}
