package ui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Quitting: ctrl+c cancels a running turn or clears a typed line, and on
// an idle, empty input arms a quit that a second ctrl+c within quitWindow
// carries out (pressQuit); a quit cancels a running turn first (quit).

// quitWindow is how long a first ctrl+c waits for the second.
const quitWindow = 2 * time.Second

// quitDisarmMsg ends the window for a second ctrl+c.
type quitDisarmMsg struct{ seq int }

// pressQuit is ctrl+c, as in mods and aichat: it cancels a running turn
// (its partial answer and record are kept) and clears a typed line; on an
// idle, empty input it arms quitting, and a second ctrl+c within
// quitWindow quits.
func (m *Model) pressQuit() tea.Cmd {
	if m.quitArmed {
		return m.quit()
	}
	switch {
	case m.form != nil || m.browser != nil || m.picker != nil:
		// An open panel: arm as on an idle input.
	case m.turn != nil && !m.quitting && m.stage != "cancelling":
		// The turn is cancelled, and quitting armed: ctrl+c twice still
		// quits, as everywhere.
		m.gate, m.stage = nil, "cancelling"
		m.quitArmed = true
		m.quitSeq++
		m.flash, m.flashForTurn = "Cancelling the turn (what it wrote is kept); ctrl+c again quits.", true
		if len(m.queued) > 0 {
			// A cancel stops what was asked; the lines queued behind it
			// are not sent, but not lost either: they go back to the input.
			m.in.set(strings.TrimSpace(strings.Join(append(m.queued, m.in.value()), "\n")))
			m.queued = nil
			m.flash = "Cancelling (what it wrote is kept); queued lines are back in the input."
		}
		seq := m.quitSeq
		return tea.Batch(cancelCmd(m.turn), tea.Tick(quitWindow, func(time.Time) tea.Msg { return quitDisarmMsg{seq: seq} }))
	case m.in.value() != "":
		m.in.reset()
		m.in.suggestions = nil
		m.flash = "Input cleared; ctrl+c on an empty input, twice, quits."
		return nil
	}
	m.quitArmed = true
	m.quitSeq++
	m.flash = "Press ctrl+c again to quit."
	seq := m.quitSeq
	return tea.Tick(quitWindow, func(time.Time) tea.Msg { return quitDisarmMsg{seq: seq} })
}

// quit leaves gear. A running turn is cancelled first, so its record is
// saved as cancelled; the quit does not wait more than a second for it.
func (m *Model) quit() tea.Cmd {
	if m.turn != nil && !m.quitting {
		m.quitting = true
		m.stage = "cancelling the turn before quitting"
		return tea.Batch(cancelCmd(m.turn), quitAfter(time.Second))
	}
	return tea.Quit
}
