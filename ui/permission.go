package ui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/tools"
)

// The question before a tool that is not read-only runs (an MCP or
// declared tool that may change something) is the confidence gate's
// panel with its own words: enter runs it once, a always allows it
// (remembered in the config through Options.AllowTool), esc does not run
// it.

// permissionLines draw the question.
func (m *Model) permissionLines(c *agent.Confirmation, width int) []string {
	st := m.st
	tool := ""
	if len(c.Candidates) > 0 {
		tool = cleanLine(c.Candidates[0].Tool)
	}
	what := "may change things"
	if c.Effect == tools.EffectCosts {
		what = "may cost money or quota"
	}
	// The call that would run, when it is known, is what the user says
	// yes to; else the tool's name.
	shown := tool
	if len(c.Candidates) > 0 && c.Candidates[0].Call != "" {
		shown = cleanLine(c.Candidates[0].Call)
	}
	shown = clip(shown, width-1)
	out := []string{
		st.panelTitle.Render(clip("Run "+tool+"? It is not read-only: it "+what+".", width)),
		" " + st.tool.Render(shown) + st.note.Render(clip("  from "+cleanLine(c.Source), max(width-ansi.StringWidth(shown)-1, 0))),
	}
	keys := " enter runs it once · esc does not run it"
	if m.allowTool != nil {
		keys = " enter runs it once · a always allows this tool · esc does not run it"
	}
	return append(out, st.note.Render(clip(keys, width)))
}

// callQuestionLines draw the question before a call read with doubts:
// the call, how sure the engine is of its arguments, the doubts, and (for
// a tool that is also not read-only) what it may do. Enter runs it, esc
// does not; there is no "always", since the next call is another reading.
func (m *Model) callQuestionLines(c *agent.Confirmation, width int) []string {
	st := m.st
	if len(c.Candidates) == 0 {
		return nil
	}
	cand := c.Candidates[0]
	conf := 0.0
	var doubts []string
	if cand.Reading != nil {
		conf, doubts = cand.Reading.Confidence, cand.Reading.Doubts
	}
	out := []string{st.panelTitle.Render(clip("Run "+cleanLine(cand.Call)+"?", width))}
	why := fmt.Sprintf("gear is only %s sure it read your question right (it asks under %s)", pct(conf), pct(c.Threshold))
	if len(doubts) > 0 {
		why += ":"
	}
	for _, l := range wrapLines(why, width-1) {
		out = append(out, " "+l)
	}
	for _, d := range doubts {
		for i, l := range wrapLines(cleanLine(d), width-4) {
			lead := " - "
			if i > 0 {
				lead = "   "
			}
			out = append(out, st.note.Render(lead)+l)
		}
	}
	if c.Effect != "" {
		what := "may change things"
		if c.Effect == "costs" {
			what = "may cost money or quota"
		}
		out = append(out, st.note.Render(clip(" It is not read-only: it "+what+" (from "+cleanLine(c.Source)+").", width)))
	}
	return append(out, st.note.Render(clip(" enter runs it · esc does not run it", width)))
}

var allowKey = key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "always allow"))

// permissionBindings are the help line's keys while the question is open.
func permissionBindings(canAllow bool) []key.Binding {
	once := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run once"))
	no := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "do not run"))
	if canAllow {
		return []key.Binding{once, allowKey, no}
	}
	return []key.Binding{once, no}
}

// permissionKey answers the question.
func (m *Model) permissionKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k, c := m.keys, m.gate
	if len(c.Candidates) == 0 {
		return m.answerGate(agent.NoTool), true
	}
	tool := c.Candidates[0].Tool
	// As at the confidence gate, only an explicit answer answers: while the
	// input holds text, keys are the input's and enter says so.
	typing := m.in.value() != ""
	switch {
	case key.Matches(msg, k.GateRun) && typing:
		m.flash = "Answer the prompt first: enter on an empty input runs " + cleanLine(tool) + " once, esc does not run it; your text stays in the input."
		if c.Kind == agent.ConfirmCall {
			m.flash = "Answer the prompt first: enter on an empty input runs the call, esc does not run it; your text stays in the input."
		}
		m.flashForTurn = true
		return nil, true
	case key.Matches(msg, k.GateRun):
		return m.answerGate(tool), true
	case key.Matches(msg, allowKey) && m.allowTool != nil && !typing && c.Kind == agent.ConfirmRun:
		return tea.Batch(allowCmd(m.allowTool, tool), m.answerGate(tool)), true
	case key.Matches(msg, k.GateNone):
		return m.answerGate(agent.NoTool), true
	}
	// Everything else — scrolling, details, typing — is the chat's.
	return nil, false
}

// allowedMsg reports whether "always allow" was remembered.
type allowedMsg struct {
	tool string
	err  error
}

// allowCmd remembers that tool runs without asking (it writes the config
// file, so it runs as a command, never in Update).
func allowCmd(allow func(string) error, tool string) tea.Cmd {
	return func() tea.Msg { return allowedMsg{tool: tool, err: allow(tool)} }
}

func (m *Model) onAllowed(msg allowedMsg) {
	if msg.err != nil {
		m.addError("Could not remember that " + cleanLine(msg.tool) + " is allowed: " + cleanLine(msg.err.Error()))
		return
	}
	m.flash = cleanLine(msg.tool) + " is allowed from now on (agent.allowed_tools in the config)."
}
