package agent

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
)

// Cancelling while the answer streams stops the turn and records it as
// cancelled, with the part of the answer that arrived.
func TestCancelMidStream(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.01, script: map[reqKind]func(modelRequest) reply{
		kindAnswer: func(r modelRequest) reply {
			rep := streamReply(t, "It is ")
			rep.events = rep.events[:1]
			rep.holdAfter = true
			return rep
		},
	}})
	turn := h.ag.Start(context.Background(), Request{Text: calcQuery})
	var final Event
	var cancelledAt time.Time
	for {
		ev, ok := turn.Next()
		if !ok {
			break
		}
		if _, ok := ev.(AnswerDelta); ok && cancelledAt.IsZero() {
			cancelledAt = time.Now()
			turn.Cancel()
		}
		final = ev
	}
	c, ok := final.(Cancelled)
	if !ok {
		t.Fatalf("final event %T, want Cancelled", final)
	}
	if took := time.Since(cancelledAt); took > 5*time.Second {
		t.Fatalf("the turn took %s to stop", took)
	}
	if c.Record.Status != store.StatusCancelled || c.Record.Answer != "It is " {
		t.Errorf("record %s, answer %q", c.Record.Status, c.Record.Answer)
	}
	got := h.stored(c.Record)
	if got.Status != store.StatusCancelled || got.Finished.IsZero() || got.Answer != "It is " || got.Tool != "Calculator" {
		t.Errorf("stored %+v", got.TurnRecord)
	}
	if err := turn.Confirm("Calculator"); err != ErrNoQuestion {
		t.Errorf("Confirm after the end: %v", err)
	}
}

// A model that will not stop answering is cut at the size bound.
func TestEndlessAnswerIsCut(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.01, limits: Limits{AnswerBytes: 4096},
		script: map[reqKind]func(modelRequest) reply{
			kindAnswer: func(r modelRequest) reply {
				rep := streamReply(t, "la ")
				rep.events = rep.events[:1]
				rep.holdAfter, rep.endless = true, true
				return rep
			},
		}})
	evs, rec := h.ask(Request{Text: calcQuery})
	if rec.Status != store.StatusDone || len(rec.Answer) < 4096 || len(rec.Answer) > 4096+64 {
		t.Fatalf("status %s, answer of %d bytes", rec.Status, len(rec.Answer))
	}
	var cut bool
	for _, n := range eventsOf[Notice](evs) {
		cut = cut || strings.Contains(n.Text, "cut")
	}
	if !cut {
		t.Errorf("no notice that the answer was cut")
	}
}

// One streamed chunk larger than the whole answer may be is cut to the
// bound too, before it is shown or recorded.
func TestOneHugeChunkIsCut(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.01, limits: Limits{AnswerBytes: 4096},
		script: map[reqKind]func(modelRequest) reply{
			kindAnswer: func(r modelRequest) reply { return streamReply(t, strings.Repeat("é", 300<<10)) },
		}})
	evs, rec := h.ask(Request{Text: calcQuery})
	// As above, gear may add a line of its own after the cut.
	if len(rec.Answer) > 4096+64 || !utf8.ValidString(rec.Answer) {
		t.Fatalf("status %s, answer of %d bytes", rec.Status, len(rec.Answer))
	}
	shown := 0
	for _, d := range eventsOf[AnswerDelta](evs) {
		shown += len(d.Text)
	}
	if shown > 4096+64 {
		t.Errorf("%d bytes of answer shown", shown)
	}
}

// A model failure (a rejected key) fails the turn with one line naming the
// role and what to do, never the key, and the turn is recorded as failed.
func TestModelFailureFailsTheTurn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.01, script: map[reqKind]func(modelRequest) reply{
		kindEmit: func(r modelRequest) reply {
			return reply{status: 401, body: fixture(t, "error_401_invalid_api_key.json")}
		},
		kindAnswer: nil,
	}})
	evs, rec := h.ask(Request{Text: calcQuery})
	failed := eventsOf[Failed](evs)
	if len(failed) != 1 || rec.Status != store.StatusFailed {
		t.Fatalf("status %s, failed %+v", rec.Status, failed)
	}
	msg := failed[0].Err.Error()
	if !strings.Contains(msg, "API key rejected") || strings.Contains(msg, "F18b") || strings.Contains(msg, "\n") {
		t.Errorf("error %q", msg)
	}
	if h.srv.count(kindEmit) != 1 || h.agentRuns(rec) != 0 {
		t.Errorf("%d emission requests, %d runs after a rejected key", h.srv.count(kindEmit), h.totalRuns())
	}
	if got := h.stored(rec); got.Status != store.StatusFailed || !strings.Contains(got.Error, "API key rejected") {
		t.Errorf("stored %+v", got.TurnRecord)
	}
}

// Cancelling while grounding waits on the models stops the turn at once
// and records it as cancelled, before any call was emitted.
func TestCancelWhileGrounding(t *testing.T) {
	t.Parallel()
	hold := func(r modelRequest) reply {
		<-r.ctx.Done()
		return reply{status: 499}
	}
	h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, modelGrounding: true, route: grounding.RouteModel, confirmBelow: 0.01,
		script: map[reqKind]func(modelRequest) reply{kindRoute: hold, kindPrelim: hold, kindProbe: hold, kindEmbed: hold, kindEmit: nil, kindAnswer: nil}})
	turn := h.ag.Start(context.Background(), Request{Text: calcQuery})
	var final Event
	for {
		ev, ok := turn.Next()
		if !ok {
			break
		}
		if p, ok := ev.(Progress); ok && p.Stage == StageGrounding {
			turn.Cancel()
		}
		final = ev
	}
	c, ok := final.(Cancelled)
	if !ok {
		t.Fatalf("final event %T", final)
	}
	if c.Record.Emission != nil || c.Record.Status != store.StatusCancelled {
		t.Errorf("record %+v", c.Record)
	}
	if got := h.stored(c.Record); got.Status != store.StatusCancelled || got.Error != "cancelled" {
		t.Errorf("stored %+v", got.TurnRecord)
	}
}
