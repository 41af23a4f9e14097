package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Issue 16, item 10: the start-up check of the model servers runs in the
// background and says what it found once.
func TestStartupCheckWarnsOnce(t *testing.T) {
	t.Parallel()
	calls := 0
	opts := Options{Agent: newFakeAgent(t), Renderer: testRenderer(), Now: testNow, Location: time.UTC,
		Check: func(context.Context) ([]string, []string) {
			calls++
			return []string{"using OpenAI for chat, grounding and embeddings"},
				[]string{"the model server at http://127.0.0.1:9/v1: server unreachable (chat, grounding, embedding)"}
		}}
	m, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	h := &harness{Model: m, late: make(chan tea.Msg, 64)}
	h.drive(func() tea.Msg { return h.Init()() }())
	v := h.plain()
	if calls != 1 || strings.Count(v, "server unreachable") != 1 || strings.Count(v, "using OpenAI") != 1 {
		t.Errorf("the check ran %d times; want its warning once:\n%s", calls, v)
	}
}
