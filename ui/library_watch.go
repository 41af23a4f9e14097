package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// Library tells the chat about the tool library's outside sources while it
// runs: MCP servers connect in the background (the chat never waits for
// one) and a server's tools may change. The agent's Specs already hold
// the current tools; Library says when to read them again and how each
// server stands.
type Library interface {
	// Changed receives after each change of a server's state or tools.
	Changed() <-chan struct{}
	// Servers are the MCP servers' states, in configuration order.
	Servers() []ServerState
}

// ServerState is one MCP server as the status line and /tools show it.
type ServerState struct {
	Name string
	// State is "connecting", "ready" or "failed"; Detail says why it
	// failed ("" otherwise).
	State  string
	Tools  int
	Detail string
}

// libraryChangedMsg carries the servers' states after a change.
type libraryChangedMsg struct{ servers []ServerState }

// watchLibraryCmd waits for the next change of the library.
func watchLibraryCmd(l Library) tea.Cmd {
	return func() tea.Msg {
		<-l.Changed()
		return libraryChangedMsg{servers: l.Servers()}
	}
}

// onLibraryChanged reads the tools again and keeps watching.
func (m *Model) onLibraryChanged(msg libraryChangedMsg) tea.Cmd {
	m.servers = msg.servers
	m.specs = m.agent.Specs()
	m.names = m.names[:0]
	for _, s := range m.specs {
		m.names = append(m.names, s.Name)
	}
	return watchLibraryCmd(m.library)
}

// serversSummary is the status line's word on the MCP servers: "3 ready",
// "1 connecting", "1 failed", joined.
func serversSummary(servers []ServerState) string {
	counts := map[string]int{}
	for _, s := range servers {
		counts[s.State]++
	}
	var parts []string
	for _, state := range []string{"ready", "connecting", "failed"} {
		if n := counts[state]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, state))
		}
	}
	return strings.Join(parts, " · ")
}

// serversMarkdown lists the MCP servers for /tools.
func serversMarkdown(servers []ServerState) string {
	if len(servers) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## MCP servers\n\n")
	for _, s := range servers {
		state := s.State
		switch s.State {
		case "ready":
			state = fmt.Sprintf("%d tools", s.Tools)
			if s.Tools == 1 {
				state = "1 tool"
			}
		case "failed":
			state = "failed: " + s.Detail
		}
		fmt.Fprintf(&b, "- **%s** — %s\n", mdText(s.Name), mdText(state))
	}
	b.WriteString("\n`gear mcp list` shows them from the shell.\n\n")
	return b.String()
}
