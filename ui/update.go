package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// onKey routes a key: quitting first, then whatever is open (survey,
// history, tool picker, confidence gate), then the chat's keys, and
// everything else to the input.
func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	if key.Matches(msg, k.Quit) {
		return m.pressQuit()
	}
	m.quitArmed, m.flash = false, ""
	switch {
	case m.form != nil:
		return m.updateForm(msg)
	case m.browser != nil:
		return m.browserKey(msg)
	case m.picker != nil:
		return m.pickerKey(msg)
	case m.gate != nil:
		if cmd, ok := m.gateKey(msg); ok {
			return cmd
		}
		// Any other key is the input's: what is typed while the prompt is
		// open is kept, and never answers it.
	}
	if msg.Paste {
		m.in.suggestions = nil
		return m.in.update(msg)
	}
	busy := m.busy()
	switch {
	case key.Matches(msg, k.Cancel):
		m.in.suggestions = nil
		if m.turn != nil && !m.quitting {
			m.stage = "cancelling"
			return cancelCmd(m.turn)
		}
		return nil
	case key.Matches(msg, k.PageUp), key.Matches(msg, k.PageDown):
		h := m.convHeight()
		page := max(h-1, 1)
		if key.Matches(msg, k.PageUp) {
			page = -page
		}
		m.conv.scroll(m.paint, m.contentWidth(), h, page)
		return nil
	case key.Matches(msg, k.Details):
		if e := m.conv.lastCard(); e != nil {
			e.expanded = !e.expanded
			e.invalidate()
			// An open card taller than the screen is read from its top:
			// following the bottom would push its header out of sight.
			for i, x := range m.conv.entries {
				if x == e && e.expanded {
					m.conv.showFrom(i, m.paint, m.contentWidth(), m.convHeight())
				}
			}
			if !e.expanded {
				m.conv.toBottom()
			}
		}
		return nil
	case key.Matches(msg, k.Up) && !busy:
		return m.rateScore(store.ScoreUp)
	case key.Matches(msg, k.Down) && !busy:
		return m.rateScore(store.ScoreDown)
	case key.Matches(msg, k.WrongTool) && !busy:
		m.openPicker()
		return nil
	case key.Matches(msg, k.Image):
		return m.showImage()
	case key.Matches(msg, k.Complete):
		m.completeInput()
		return nil
	case key.Matches(msg, k.Help):
		return m.command("help", "")
	case key.Matches(msg, k.Send):
		return m.submit()
	case key.Matches(msg, k.Recall):
		dir := 1
		if msg.Type == tea.KeyUp {
			dir = -1
		}
		if m.in.recallLine(dir) {
			m.in.suggestions = nil
			return nil
		}
	}
	m.in.suggestions = nil
	return m.in.update(msg)
}

// completeInput is Tab.
func (m *Model) completeInput() {
	c := complete(m.in.value(), m.agent, m.names)
	if c.text != "" {
		m.in.set(c.text)
	}
	m.in.suggestions = c.candidates
	if c.text == "" && len(c.candidates) == 0 {
		m.flash = "Nothing to complete here."
	}
}

// gateKey answers the confidence gate; ok is false for keys it leaves to
// the chat (scrolling, details) and to the input. Only an explicit choice
// answers it: while the input holds text, enter and the digits are the
// input's, and enter says to answer the prompt first.
func (m *Model) gateKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k, c := m.keys, m.gate
	if c.Kind == agent.ConfirmRun || c.Kind == agent.ConfirmCall {
		return m.permissionKey(msg)
	}
	typing := m.in.value() != ""
	switch {
	case key.Matches(msg, k.GateRun) && typing:
		m.flash = "Answer the prompt first: 1-9 picks a tool, " + m.gateEsc() + "; your text stays in the input."
		m.flashForTurn = true
		return nil, true
	case key.Matches(msg, k.GateRun) && len(c.Candidates) > 0:
		return m.answerGate(c.Candidates[clamp(m.gateSel, 0, len(c.Candidates)-1)].Tool), true
	case key.Matches(msg, k.Move) && !typing && len(c.Candidates) > 0 && (msg.Type == tea.KeyUp || msg.Type == tea.KeyDown):
		d := 1
		if msg.Type == tea.KeyUp {
			d = -1
		}
		m.gateSel = clamp(m.gateSel+d, 0, min(len(c.Candidates), 9)-1)
		return nil, true
	case key.Matches(msg, k.GateNone):
		if c.Kind == agent.ConfirmNone {
			// Grounding's own choice: without a chat model the answer
			// lists the tools and their calls, to rephrase or type one.
			return m.answerGate(agent.NoTool), true
		}
		if !m.canAnswerWithoutTool() {
			// No tool would leave nothing to answer with: esc cancels.
			m.gate = nil
			if m.turn != nil {
				m.stage = "cancelling"
				return cancelCmd(m.turn), true
			}
			return nil, true
		}
		return m.answerGate(agent.NoTool), true
	case key.Matches(msg, k.GatePick) && !typing:
		if n := int(msg.Runes[0] - '0'); n >= 1 && n <= len(c.Candidates) {
			return m.answerGate(c.Candidates[n-1].Tool), true
		}
		return nil, true
	}
	return nil, false
}

// gateEsc is what esc does at the gate, in words.
func (m *Model) gateEsc() string {
	if m.gate != nil && m.gate.Kind == agent.ConfirmNone {
		if m.canAnswerWithoutTool() {
			return "esc answers without a tool"
		}
		return "esc runs none (rephrase)"
	}
	if m.canAnswerWithoutTool() {
		return "esc answers without a tool"
	}
	return "esc cancels the question"
}

// pickerKey chooses the tool the user wanted.
func (m *Model) pickerKey(msg tea.KeyMsg) tea.Cmd {
	k, p := m.keys, m.picker
	choose := func(i int) tea.Cmd {
		m.picker = nil
		name := p.tools[i]
		m.flash = wrongToolSaved(name)
		return m.rateEntry(p.turn, func(r *store.Rating) { r.WrongTool, r.WantedTool = true, name })
	}
	switch {
	case key.Matches(msg, k.Close):
		m.picker = nil
	case key.Matches(msg, k.Move):
		if msg.Type == tea.KeyUp || msg.Type == tea.KeyCtrlP {
			p.move(-1)
		} else {
			p.move(1)
		}
	case key.Matches(msg, k.Choose) && len(p.tools) > 0:
		return choose(p.sel)
	case key.Matches(msg, k.PickNumber):
		if n := int(msg.Runes[0] - '0'); n >= 1 && n <= len(p.tools) {
			return choose(n - 1)
		}
	}
	return nil
}

// browserKey moves in the history, reopens a conversation, or searches.
func (m *Model) browserKey(msg tea.KeyMsg) tea.Cmd {
	k, b := m.keys, m.browser
	switch {
	case key.Matches(msg, k.Close):
		m.browser = nil
		return nil
	case key.Matches(msg, k.Move):
		if msg.Type == tea.KeyUp || msg.Type == tea.KeyCtrlP {
			b.move(-1)
		} else {
			b.move(1)
		}
		return nil
	case key.Matches(msg, k.PageUp):
		b.move(-10)
		return nil
	case key.Matches(msg, k.PageDown):
		b.move(10)
		return nil
	case key.Matches(msg, k.Choose):
		conv, turn := b.selected()
		if conv == 0 {
			return nil
		}
		m.browser = nil
		return loadConversationCmd(m.ctx, m.history, conv, turn)
	}
	before := b.query.Value()
	var cmd tea.Cmd
	b.query, cmd = b.query.Update(msg)
	if b.query.Value() == before {
		return cmd
	}
	b.seq++
	b.sel, b.err = 0, ""
	if b.searching() {
		return tea.Batch(cmd, searchCmd(m.ctx, m.history, b.seq, b.query.Value(), m.loc))
	}
	return tea.Batch(cmd, listConversationsCmd(m.ctx, m.history))
}

func (m *Model) onConversations(msg conversationsMsg) {
	if b := m.browser; b != nil {
		b.convs, b.err = msg.convs, ""
		if msg.err != nil {
			b.err = "The history could not be read: " + cleanLine(msg.err.Error())
		}
		b.move(0)
	}
}

func (m *Model) onSearchResults(msg searchResultsMsg) {
	b := m.browser
	if b == nil || msg.seq != b.seq {
		return
	}
	b.hits, b.err = msg.hits, ""
	if msg.err != nil {
		b.err = cleanLine(msg.err.Error())
	}
	b.move(0)
}

// onConversationLoaded shows a conversation read back. The one resumed on
// start is dropped if the user has begun a new one meanwhile.
func (m *Model) onConversationLoaded(msg conversationLoadedMsg) {
	if msg.err != nil {
		m.addError("The conversation could not be read: " + msg.err.Error())
		return
	}
	busy := m.busy()
	if msg.resumed && (msg.conv.ID == 0 || m.conversationID != 0 || busy || m.conv.lastTurn() != nil) {
		return
	}
	if busy {
		m.flash, m.flashForTurn = "A turn is running: open the conversation again once it has answered.", true
		return
	}
	m.showConversation(msg)
}
