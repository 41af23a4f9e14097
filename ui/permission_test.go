package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
)

// permissionTurn asks whether a tool that may write runs.
func permissionTurn() *fakeTurn {
	c := agent.Confirmation{Kind: agent.ConfirmRun, Effect: "writes", Source: "mcp:files",
		Candidates: []agent.Candidate{{Tool: "files.write_file", Family: "files", Confidence: 0.9, Call: `files.write_file("notes.txt", "hi")`}}}
	return newFakeTurn([]agent.Event{agent.ConfirmationNeeded{Confirmation: c}}, func(string) []agent.Event {
		return []agent.Event{agent.Done{Record: agent.Record{Status: "done", Answer: "written"}}}
	})
}

func TestPermissionGate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		key     tea.KeyMsg
		chosen  string
		allowed []string
	}{
		{"enter runs it once", press(tea.KeyEnter), "files.write_file", nil},
		{"a always allows it", runes("a"), "files.write_file", []string{"files.write_file"}},
		{"esc does not run it", press(tea.KeyEsc), agent.NoTool, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			turn := permissionTurn()
			var mu sync.Mutex
			var allowed []string
			opts := Options{Agent: newFakeAgent(t, turn), Renderer: testRenderer(), Now: testNow, Location: time.UTC,
				AllowTool: func(tool string) error {
					mu.Lock()
					defer mu.Unlock()
					allowed = append(allowed, tool)
					return nil
				}}
			mod, err := New(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			mod.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
			m := newHarness(t, mod)
			m.typeText("save my notes")
			m.drive(press(tea.KeyEnter))
			v := m.plain()
			for _, want := range []string{"Run files.write_file? It is not read-only: it may change things.", `files.write_file("notes.txt", "hi")  from mcp:files`, "a always allows this tool",
				"enter run once · a always allow · esc do not run"} {
				if !strings.Contains(v, want) {
					t.Errorf("gate lacks %q:\n%s", want, v)
				}
			}
			m.drive(runes("2"))
			if m.gate == nil || len(turn.confirmations()) > 0 {
				t.Fatal("a number must not answer the question")
			}
			// Typed text is the input's, and while it is there enter does
			// not answer either: only an explicit choice does.
			if got := m.in.value(); got != "2" {
				t.Fatalf("input %q: a key that is not the prompt's goes to the input", got)
			}
			m.drive(press(tea.KeyEnter))
			if m.gate == nil || len(turn.confirmations()) > 0 || !strings.Contains(m.plain(), "Answer the prompt first") {
				t.Fatalf("enter with text typed answered the question or said nothing:\n%s", m.plain())
			}
			m.drive(press(tea.KeyBackspace))
			m.drive(c.key)
			if got := turn.confirmations(); len(got) != 1 || got[0] != c.chosen {
				t.Fatalf("confirmed %v, want %s", got, c.chosen)
			}
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(allowed, ",") != strings.Join(c.allowed, ",") {
				t.Errorf("allowed %v, want %v", allowed, c.allowed)
			}
		})
	}
}

// fakeLibrary reports servers changing; its tests send the change
// themselves, so a watch on it never ends.
type fakeLibrary struct {
	mu       sync.Mutex
	servers  []ServerState
	changed  chan struct{}
	watching int
}

func (l *fakeLibrary) Changed() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.watching++
	return l.changed
}

// watchers counts the watches started, every one of them parked.
func (l *fakeLibrary) watchers() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.watching
}
func (l *fakeLibrary) Servers() []ServerState {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]ServerState(nil), l.servers...)
}

func TestServersOnStatusLineAndTools(t *testing.T) {
	t.Parallel()
	lib := &fakeLibrary{servers: []ServerState{{Name: "files", State: "connecting"}, {Name: "dead", State: "failed", Detail: "cannot start x"}},
		changed: make(chan struct{}, 1)}
	mod, err := New(context.Background(), Options{Agent: newFakeAgent(t), Library: lib, Renderer: testRenderer(), Now: testNow, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	mod.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m := newHarness(t, mod)
	if v := m.plain(); !strings.Contains(v, "mcp 1 connecting · 1 failed") {
		t.Errorf("status line before connecting:\n%s", v)
	}
	lib.mu.Lock()
	lib.servers[0] = ServerState{Name: "files", State: "ready", Tools: 11}
	lib.mu.Unlock()
	m.drive(libraryChangedMsg{servers: lib.Servers()})
	if v := m.plain(); !strings.Contains(v, "mcp 1 ready · 1 failed") {
		t.Errorf("status line after connecting:\n%s", v)
	}
	m.typeText("/tools")
	m.drive(press(tea.KeyEnter))
	if v := m.plain(); !strings.Contains(v, "files — 11 tools") || !strings.Contains(v, "dead — failed: cannot start x") {
		t.Errorf("/tools:\n%s", v)
	}
}
