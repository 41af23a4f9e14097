package ui

import (
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// statusLine shows what serves each model role (or "offline"), the
// database, the study phase when a study runs, the mode, the conversation
// and the session's tokens.
func (m *Model) statusLine(width int) string {
	st := m.st
	sep := st.separator.Render(" │ ")
	field := func(k, v string) string { return st.status.Render(k+" ") + st.statusKey.Render(v) }
	engines := field("engine", "offline")
	e := m.engines
	if e.Chat.Engine != store.EngineOffline || e.Grounding.Engine != store.EngineOffline ||
		e.Embedding.Engine != store.EngineOffline {
		engines = field("chat", roleName(e.Chat)) + st.status.Render(" · ") + field("ground", roleName(e.Grounding)) +
			st.status.Render(" · ") + field("embed", roleName(e.Embedding))
	}
	conv := "new"
	if m.conversationID != 0 {
		conv = fmt.Sprintf("#%d", m.conversationID)
	}
	tail := sep + field("mode", string(m.mode)) + sep + field("conversation", conv) + sep +
		field("tokens", fmt.Sprint(m.tokens))
	if m.studyPhase != "" {
		tail = sep + field("study", m.studyPhase) + tail
	}
	if sum := serversSummary(m.servers); sum != "" {
		tail = sep + field("mcp", sum) + tail
	}
	// The database path is in /help; here it would take half the line.
	return clip(engines+tail, width)
}

// roleName is a role's model, or "offline".
func roleName(r store.RoleModel) string {
	if r.Engine == store.EngineOffline || r.Model == "" {
		return store.EngineOffline
	}
	return cleanLine(r.Model)
}

// dbLabel names the history database, under the home directory as ~/...
func dbLabel(h History, home string) string {
	if h == nil {
		return "none"
	}
	path := h.Path()
	if home != "" && strings.HasPrefix(path, home+string(os.PathSeparator)) {
		path = "~" + path[len(home):]
	}
	return cleanLine(path)
}

// helpLine lists the few keys that matter now, most useful first; what
// does not fit is dropped whole (never cut mid-word), and /help lists
// every key.
func (m *Model) helpLine(width int) string {
	k := m.keys
	var binds []key.Binding
	switch {
	case m.browser != nil:
		binds = []key.Binding{k.Choose, k.Close, k.Move, k.Search}
	case m.picker != nil:
		binds = []key.Binding{k.Choose, k.Close, k.PickNumber, k.Move}
	case m.gate != nil && m.gate.Kind == agent.ConfirmRun:
		binds = permissionBindings(m.allowTool != nil)
	case m.gate != nil && m.gate.Kind == agent.ConfirmCall:
		binds = permissionBindings(false)
	case m.gate != nil:
		run := k.GateRun
		if m.in.value() != "" {
			run = key.NewBinding(key.WithHelp("type", "kept in the input"))
		}
		none := k.GateNone
		if m.gate.Kind == agent.ConfirmNone && !m.canAnswerWithoutTool() {
			none = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "no tool"))
		} else if !m.canAnswerWithoutTool() {
			none = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
		}
		binds = []key.Binding{k.GatePick, run, none}
	case m.busy():
		binds = []key.Binding{k.Cancel, k.Details, k.Scroll}
	default:
		if e := m.conv.lastTurn(); e != nil && e.rateable() && m.history != nil {
			binds = []key.Binding{k.Help, k.Up, k.Down, k.WrongTool, k.Details, k.Quit}
			break
		}
		binds = []key.Binding{k.Help, k.Send, k.Newline, k.Quit}
		if m.conv.lastCard() != nil {
			binds = []key.Binding{k.Help, k.Send, k.Details, k.Quit}
		}
	}
	whole := m.help
	whole.Width = 0 // measure without the help's own cut
	for len(binds) > 1 && ansi.StringWidth(whole.ShortHelpView(binds)) > width {
		binds = binds[:len(binds)-1]
	}
	return clip(m.help.ShortHelpView(binds), width)
}
