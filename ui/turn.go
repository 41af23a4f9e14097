package ui

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// turnStartedMsg carries the turn the agent started.
type turnStartedMsg struct{ turn Turn }

// startTurnCmd starts a turn; the agent runs it on its own goroutine and
// the chat pulls its events one at a time (nextEventCmd).
func startTurnCmd(ctx context.Context, a Agent, req agent.Request) tea.Cmd {
	return func() tea.Msg { return turnStartedMsg{turn: a.Start(ctx, req)} }
}

// turnEventMsg is a turn's next event; ok is false once the final event
// was read.
type turnEventMsg struct {
	turn  Turn
	event agent.Event
	ok    bool
}

// nextEventCmd waits for the turn's next event. Handling the event asks
// for the one after it, so streaming is one Cmd per event and the model
// is only ever changed in Update.
func nextEventCmd(t Turn) tea.Cmd {
	return func() tea.Msg {
		ev, ok := t.Next()
		return turnEventMsg{turn: t, event: ev, ok: ok}
	}
}

// confirmedMsg reports the answer to the confidence gate.
type confirmedMsg struct{ err error }

// confirmCmd answers the turn's confirmation with a tool or agent.NoTool.
func confirmCmd(t Turn, tool string) tea.Cmd {
	return func() tea.Msg { return confirmedMsg{err: t.Confirm(tool)} }
}

// cancelCmd stops the turn; its final event (Cancelled) follows.
func cancelCmd(t Turn) tea.Cmd {
	return func() tea.Msg {
		t.Cancel()
		return nil
	}
}

// quitTimeoutMsg quits even if a cancelled turn has not ended yet.
type quitTimeoutMsg struct{}

// quitAfter bounds the wait for a cancelled turn's record on quitting.
func quitAfter(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return quitTimeoutMsg{} })
}

// busy says a turn is running: started, or its entry still live.
func (m *Model) busy() bool { return m.turn != nil || m.running != nil }

// beginTurn adds the turn to the conversation and starts it.
func (m *Model) beginTurn(text string, mode store.Mode) tea.Cmd {
	e := &entry{kind: entryTurn, input: text, live: true,
		rec: agent.Record{Input: text, Mode: mode, Status: store.StatusRunning, Engines: m.engines}}
	m.conv.add(e)
	m.conv.toBottom()
	m.running, m.stage = e, "starting"
	req := agent.Request{Conversation: m.conversationID, Text: text, Mode: m.mode}
	return tea.Batch(startTurnCmd(m.ctx, m.agent, req), m.spin.Tick)
}

// onTurnEvent applies one event to the running turn's entry.
func (m *Model) onTurnEvent(msg turnEventMsg) tea.Cmd {
	if msg.turn != m.turn || m.running == nil {
		return nil
	}
	if !msg.ok {
		return m.endTurn()
	}
	e := m.running
	defer e.invalidate()
	switch ev := msg.event.(type) {
	case agent.Started:
		e.rec.ConversationID, e.rec.TurnID, e.rec.Mode, e.rec.Query = ev.ConversationID, ev.TurnID, ev.Mode, ev.Query
		m.conversationID = ev.ConversationID
	case agent.Notice:
		m.insertBefore(e, &entry{kind: entryNotice, text: ev.Text})
	case agent.Progress:
		m.stage = stageText(ev)
	case agent.Routed:
		r := ev.Route
		e.rec.Route = &r
	case agent.Grounded:
		g := ev.Grounding
		e.rec.Grounding = &g
	case agent.ConfirmationNeeded:
		c := ev.Confirmation
		if c.Kind == agent.ConfirmRun || c.Kind == agent.ConfirmCall {
			e.rec.Permission = &c
		} else {
			e.rec.Confirmation = &c
		}
		m.gate, m.gateSel, m.stage = &c, 0, "waiting for your choice"
	case agent.CallEmitted:
		em := ev.Emission
		e.rec.Emission = &em
	case agent.ToolStarted:
		m.stage = "calling " + cleanLine(ev.Tool)
	case agent.ToolResult:
		run := ev.Run
		e.rec.Call = &run
	case agent.AnswerDelta:
		e.rec.Answer += ev.Text
	case agent.Done:
		m.finishTurn(ev.Record)
		return tea.Batch(m.endTurn(), m.pictures.load(e, ev.Record))
	case agent.Failed:
		rec := ev.Record
		if rec.Error == "" && ev.Err != nil {
			rec.Error = ev.Err.Error()
		}
		m.finishTurn(rec)
		return m.endTurn()
	case agent.Cancelled:
		m.finishTurn(ev.Record)
		return m.endTurn()
	}
	return nextEventCmd(msg.turn)
}

// finishTurn puts the final record in place: it is the authority on
// everything the events showed on the way.
func (m *Model) finishTurn(rec agent.Record) {
	e := m.running
	if rec.Status == "" {
		rec.Status = store.StatusFailed
	}
	if rec.Input == "" {
		rec.Input = e.input
	}
	e.rec, e.live, e.stream = rec, false, streamed{}
	if rec.ConversationID != 0 {
		m.conversationID = rec.ConversationID
	}
	for _, u := range rec.Usage {
		m.tokens += u.PromptTokens + u.CompletionTokens
	}
	m.gate = nil
}

// endTurn runs after the final event: nothing follows it.
func (m *Model) endTurn() tea.Cmd {
	if m.running != nil && m.running.live {
		// The turn ended without a final event: show it as failed.
		m.finishTurn(agent.Record{Status: store.StatusFailed, Error: "the turn ended without an answer"})
	}
	m.turn, m.running, m.stage, m.gate = nil, nil, "", nil
	if m.flashForTurn {
		m.flash, m.flashForTurn = "", false
	}
	if m.quitting {
		return tea.Quit
	}
	return m.sendQueued()
}

// sendQueued starts the first message queued during the turn.
func (m *Model) sendQueued() tea.Cmd {
	if len(m.queued) == 0 {
		return nil
	}
	text := m.queued[0]
	m.queued = m.queued[1:]
	in := m.agent.Parse(text, m.mode)
	if in.Kind == agent.InputEmpty || in.Kind == agent.InputCommand {
		return m.sendQueued()
	}
	return m.beginTurn(text, in.Mode)
}

// onConfirmed reports a failed confirmation (the turn had moved on).
func (m *Model) onConfirmed(msg confirmedMsg) {
	if msg.err != nil {
		m.flash = "The confirmation was not taken: " + cleanLine(msg.err.Error())
	}
}

// answerGate answers the confidence gate: a candidate's tool, or none.
func (m *Model) answerGate(tool string) tea.Cmd {
	if m.gate == nil || m.turn == nil {
		return nil
	}
	m.gate = nil
	if tool == agent.NoTool {
		m.stage = "answering without a tool"
	} else {
		m.stage = "running " + cleanLine(tool)
	}
	return confirmCmd(m.turn, tool)
}

// stageText is the spinner's words: "grounding 4 tools", "calling
// Forecast", "writing answer".
func stageText(p agent.Progress) string {
	switch p.Stage {
	case agent.StageGrounding:
		return fmt.Sprintf("grounding %d tools", p.Tools)
	case agent.StageEmitting:
		return "writing the " + cleanLine(p.Tool) + " call"
	case agent.StageCalling:
		return "calling " + cleanLine(p.Tool)
	case agent.StageAnswering:
		return "writing answer"
	}
	return string(p.Stage)
}

// insertBefore puts n just above e in the conversation.
func (m *Model) insertBefore(e, n *entry) {
	for i, x := range m.conv.entries {
		if x == e {
			m.conv.entries = append(m.conv.entries[:i], append([]*entry{n}, m.conv.entries[i:]...)...)
			return
		}
	}
	m.conv.add(n)
}
