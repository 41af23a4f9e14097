package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Turn is a running turn. Its events are pulled with Next, one at a time —
// from a tea.Cmd in the UI — and never block the pipeline: they queue until
// read. All methods are safe for concurrent use.
type Turn struct {
	cancel context.CancelFunc

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []Event
	ended   bool // the final event is queued
	drained bool // the final event was returned by Next
	final   Record

	confirmMu sync.Mutex
	asking    *Confirmation // the open question, nil when none
	answer    chan string
}

func newTurn(cancel context.CancelFunc) *Turn {
	t := &Turn{cancel: cancel, answer: make(chan string, 1)}
	t.cond = sync.NewCond(&t.mu)
	return t
}

// Next returns the next event, waiting for it. After the final event (Done,
// Failed or Cancelled) has been returned it returns nil, false at once.
func (t *Turn) Next() (Event, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(t.queue) == 0 && !t.drained {
		t.cond.Wait()
	}
	if len(t.queue) == 0 {
		return nil, false
	}
	ev := t.queue[0]
	t.queue[0] = nil
	t.queue = t.queue[1:]
	if t.ended && len(t.queue) == 0 {
		t.drained = true
	}
	return ev, true
}

// Wait reads the remaining events and returns the final record.
func (t *Turn) Wait() Record {
	for {
		if _, ok := t.Next(); !ok {
			break
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.final
}

// Cancel stops the turn: within 200 ms its last event is Cancelled, and it
// is recorded as cancelled. Cancelling a finished turn does nothing.
func (t *Turn) Cancel() { t.cancel() }

// ErrNoQuestion is Confirm's error when the turn is not waiting for one.
var ErrNoQuestion = errors.New("agent: the turn is not waiting for a confirmation")

// Confirm answers ConfirmationNeeded: tool is one of the candidates' tools
// (or any tool of the library), or NoTool to answer without a tool.
func (t *Turn) Confirm(tool string) error {
	t.confirmMu.Lock()
	defer t.confirmMu.Unlock()
	if t.asking == nil {
		return ErrNoQuestion
	}
	select {
	case t.answer <- tool:
		t.asking = nil
		return nil
	default:
		return fmt.Errorf("agent: the confirmation was already answered")
	}
}

// emit queues an event. Events after the final one are dropped.
func (t *Turn) emit(ev Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return
	}
	t.queue = append(t.queue, ev)
	switch e := ev.(type) {
	case Done:
		t.ended, t.final = true, e.Record
	case Failed:
		t.ended, t.final = true, e.Record
	case Cancelled:
		t.ended, t.final = true, e.Record
	}
	t.cond.Broadcast()
}

// ask opens a question for Confirm.
func (t *Turn) ask(c Confirmation) {
	t.confirmMu.Lock()
	defer t.confirmMu.Unlock()
	cp := c
	t.asking = &cp
}

// closeQuestion ends an open question without an answer (cancellation).
func (t *Turn) closeQuestion() {
	t.confirmMu.Lock()
	defer t.confirmMu.Unlock()
	t.asking = nil
}
