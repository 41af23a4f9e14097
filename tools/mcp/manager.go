package mcp

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/gear-chat/gear/tools"
)

// State is where a server's connection stands.
type State string

const (
	StateConnecting State = "connecting"
	StateReady      State = "ready"
	StateFailed     State = "failed"
	// StateDisabled is a configured server the config turns off.
	StateDisabled State = "disabled"
)

// Status is one server's state for `gear mcp list`, /tools and the status
// line.
type Status struct {
	Server  string `json:"server"`
	Address string `json:"address"`
	State   State  `json:"state"`
	Tools   int    `json:"tools"`
	// Error says why the server failed; Skipped why tools were left out.
	Error   string   `json:"error,omitempty"`
	Skipped []string `json:"skipped,omitempty"`
	// Info is the server's own name and version.
	Info string `json:"info,omitempty"`
}

// String is the status in a few words: "connecting", "12 tools",
// "failed: why".
func (s Status) String() string {
	switch s.State {
	case StateReady:
		if s.Tools == 1 {
			return "1 tool"
		}
		return fmt.Sprintf("%d tools", s.Tools)
	case StateFailed:
		return "failed: " + s.Error
	}
	return string(s.State)
}

// Manager connects to every configured server at once, in the background,
// and keeps each one's tools current: a server's
// notifications/tools/list_changed lists its tools again. OnChange hears of
// every change, so the library (and the ToolDec machine) can be rebuilt
// without a restart.
type Manager struct {
	opts     Options
	onChange func()

	mu      sync.Mutex
	servers []*managed
	done    chan struct{} // closed when every first connection attempt ended
	pending int
	closed  bool
	cancel  context.CancelFunc // ends every connection, pending ones too
	version uint64             // counts the changes (see Snapshot)
}

type managed struct {
	server Server
	status Status
	conn   *Conn
	tools  []*Tool
	// settled is closed when the first connection attempt ended.
	settled chan struct{}
}

// NewManager prepares servers; Start connects them. Names must be unique.
// onChange (may be nil) is called, from a background goroutine, after any
// server's state or tools change.
func NewManager(servers []Server, opts Options, onChange func()) (*Manager, error) {
	m := &Manager{opts: opts.withDefaults(), onChange: onChange, done: make(chan struct{})}
	seen := map[string]bool{}
	for _, s := range servers {
		if err := s.Validate(); err != nil {
			return nil, err
		}
		prefix, err := tools.QualifiedName(s.Name, "x")
		if err != nil {
			return nil, fmt.Errorf("mcp server %q: %w", s.Name, err)
		}
		if seen[prefix] {
			return nil, fmt.Errorf("mcp server %q: another server has the same name once sanitised; rename one", s.Name)
		}
		seen[prefix] = true
		m.servers = append(m.servers, &managed{server: s, status: Status{Server: s.Name, Address: s.Describe(), State: StateConnecting}, settled: make(chan struct{})})
	}
	m.pending = len(m.servers)
	if m.pending == 0 {
		close(m.done)
	}
	return m, nil
}

// Start connects every server concurrently and returns at once. The
// connections live until ctx ends or Close.
func (m *Manager) Start(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	m.mu.Lock()
	m.cancel = cancel
	m.mu.Unlock()
	for _, s := range m.servers {
		go m.connect(ctx, s)
	}
}

func (m *Manager) connect(ctx context.Context, s *managed) {
	refresh := make(chan struct{}, 1)
	conn, err := Connect(ctx, s.server, m.opts, func() {
		select {
		case refresh <- struct{}{}:
		default:
		}
	})
	if err == nil {
		var ts []*Tool
		var skipped []string
		ts, skipped, err = conn.Tools(ctx)
		if err == nil {
			m.mu.Lock()
			closed := m.closed
			m.mu.Unlock()
			if closed {
				conn.Close()
				m.firstDone(s)
				return
			}
			m.update(s, func() {
				s.conn, s.tools = conn, ts
				s.status.State, s.status.Tools, s.status.Skipped, s.status.Info = StateReady, len(ts), skipped, conn.ServerInfo()
			})
		} else {
			conn.Close()
		}
	}
	if err != nil {
		m.update(s, func() { s.status.State, s.status.Error = StateFailed, oneLine(unwrapConnect(err)) })
	}
	m.firstDone(s)
	if err != nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-refresh:
			ts, skipped, err := conn.Tools(ctx)
			m.update(s, func() {
				if err != nil {
					s.status.State, s.status.Error = StateFailed, oneLine(unwrapConnect(err))
					s.tools = nil
					return
				}
				s.tools, s.status.State, s.status.Tools, s.status.Skipped, s.status.Error = ts, StateReady, len(ts), skipped, ""
			})
		}
	}
}

// unwrapConnect drops the "mcp server NAME:" prefix a status line
// already shows.
func unwrapConnect(err error) string {
	switch e := err.(type) {
	case *ConnectError:
		return scrub(e.Err.Error(), e.secrets)
	case *ProtocolError:
		return e.Doing + ": " + scrub(e.Err.Error(), e.secrets)
	}
	return err.Error()
}

func (m *Manager) update(s *managed, change func()) {
	m.mu.Lock()
	change()
	m.version++
	closed := m.closed
	m.mu.Unlock()
	// A server failing because the run ends is no news to anyone.
	if m.onChange != nil && !closed {
		m.onChange()
	}
}

func (m *Manager) firstDone(s *managed) {
	m.mu.Lock()
	defer m.mu.Unlock()
	close(s.settled)
	m.pending--
	if m.pending == 0 {
		close(m.done)
	}
}

// Wait returns when every server has connected or failed once, or when
// ctx ends (then the slow ones are still connecting).
func (m *Manager) Wait(ctx context.Context) {
	select {
	case <-m.done:
	case <-ctx.Done():
	}
}

// WaitFor returns when each named server has connected or failed once, or
// when ctx ends; names not configured are ignored.
func (m *Manager) WaitFor(ctx context.Context, names ...string) {
	for _, s := range m.servers {
		for _, n := range names {
			if s.server.Name != n {
				continue
			}
			select {
			case <-s.settled:
			case <-ctx.Done():
				return
			}
		}
	}
}

// Statuses are the servers' states, in configuration order.
func (m *Manager) Statuses() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Status, len(m.servers))
	for i, s := range m.servers {
		out[i] = s.status
		out[i].Skipped = append([]string(nil), s.status.Skipped...)
	}
	return out
}

// Tools are the ready servers' tools, by server in configuration order,
// each server's in its own order.
func (m *Manager) Tools() []tools.Tool {
	ts, _ := m.Snapshot()
	return ts
}

// Snapshot is Tools with the number of changes they reflect: of two
// snapshots, the one with the higher version is the newer.
func (m *Manager) Snapshot() ([]tools.Tool, uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []tools.Tool
	for _, s := range m.servers {
		for _, t := range s.tools {
			out = append(out, t)
		}
	}
	return out, m.version
}

// Servers are the configured servers' names, sorted.
func (m *Manager) Servers() []string {
	names := make([]string, len(m.servers))
	for i, s := range m.servers {
		names[i] = s.server.Name
	}
	sort.Strings(names)
	return names
}

// Close ends every session.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	if m.cancel != nil {
		defer m.cancel()
	}
	conns := make([]*Conn, 0, len(m.servers))
	for _, s := range m.servers {
		if s.conn != nil {
			conns = append(conns, s.conn)
			s.conn = nil
		}
	}
	m.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}
