package ui

import (
	"context"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/constrain"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
	"github.com/gear-chat/gear/tools/timezone"
	"github.com/gear-chat/gear/tools/weather"
	"github.com/gear-chat/gear/tools/wiki"
)

// testNow is the tests' fixed clock.
func testNow() time.Time { return time.Date(2026, 11, 22, 2, 38, 0, 0, time.UTC) }

// library is gear's built-in tool library (specs only: nothing runs).
func library(t testing.TB) *tools.Registry {
	t.Helper()
	reg, err := tools.NewRegistry(calc.New(), timezone.NewCurrentTime(timezone.Options{}),
		timezone.NewConverter(timezone.Options{}), weather.NewSearch(weather.Config{}),
		weather.NewLocationSearch(weather.Config{}), wiki.New(wiki.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// fakeAgent hands out scripted turns and records the requests.
type fakeAgent struct {
	reg     *tools.Registry
	machine *constrain.Machine
	engines agent.Engines

	// prepared counts Prepare calls; prepareErr is what they return.
	prepared   atomic.Int32
	prepareErr error

	mu      sync.Mutex
	turns   []*fakeTurn
	started []agent.Request
	handed  []*fakeTurn
}

// queued reports whether a turn handed out still has events waiting to be
// read.
func (a *fakeAgent) queued() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, t := range a.handed {
		if len(t.ch) > 0 {
			return true
		}
	}
	return false
}

func newFakeAgent(t testing.TB, turns ...*fakeTurn) *fakeAgent {
	reg := library(t)
	m, err := constrain.FromRegistry(reg)
	if err != nil {
		t.Fatal(err)
	}
	off := store.RoleModel{Engine: store.EngineOffline, Model: store.EngineOffline}
	return &fakeAgent{reg: reg, machine: m, turns: turns, engines: agent.Engines{Chat: off, Grounding: off, Embedding: off}}
}

// withChatModel makes the agent report a chat model, as one configured
// with a server does.
func withChatModel(a *fakeAgent) *fakeAgent {
	a.engines.Chat = store.RoleModel{Engine: "openai", Model: "gpt-4o-mini"}
	return a
}

func (a *fakeAgent) Start(_ context.Context, req agent.Request) Turn {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.started = append(a.started, req)
	if len(a.turns) == 0 {
		return newFakeTurn(nil, nil)
	}
	t := a.turns[0]
	a.turns = a.turns[1:]
	a.handed = append(a.handed, t)
	return t
}

func (a *fakeAgent) Prepare(context.Context) error {
	a.prepared.Add(1)
	return a.prepareErr
}
func (a *fakeAgent) Parse(text string, mode store.Mode) agent.Input {
	return agent.ParseInput(text, mode, a.reg.Names())
}
func (a *fakeAgent) Specs() []tools.Spec    { return a.reg.Specs() }
func (a *fakeAgent) Engines() agent.Engines { return a.engines }
func (a *fakeAgent) Complete(prefix string) []agent.Completion {
	var out []agent.Completion
	for _, c := range a.machine.Complete(prefix) {
		out = append(out, agent.Completion{Tool: c.Tool, Text: c.Text})
	}
	return out
}

// fakeTurn serves scripted events as the agent's turn does: Next waits
// for the next one, and after the final event reports false. A turn that
// asks for confirmation gets afterConfirm's events once Confirm is called.
type fakeTurn struct {
	ch           chan agent.Event
	afterConfirm func(tool string) []agent.Event

	mu        sync.Mutex
	confirmed []string
	cancelled bool
}

func newFakeTurn(events []agent.Event, afterConfirm func(string) []agent.Event) *fakeTurn {
	t := &fakeTurn{ch: make(chan agent.Event, 64), afterConfirm: afterConfirm}
	t.push(events...)
	return t
}

// push queues events; the final one closes the turn.
func (t *fakeTurn) push(events ...agent.Event) {
	for _, ev := range events {
		t.ch <- ev
		switch ev.(type) {
		case agent.Done, agent.Failed, agent.Cancelled:
			close(t.ch)
			return
		}
	}
}

func (t *fakeTurn) Next() (agent.Event, bool) {
	ev, ok := <-t.ch
	return ev, ok
}

func (t *fakeTurn) Confirm(tool string) error {
	t.mu.Lock()
	t.confirmed = append(t.confirmed, tool)
	t.mu.Unlock()
	if t.afterConfirm != nil {
		t.push(t.afterConfirm(tool)...)
	}
	return nil
}

func (t *fakeTurn) Cancel() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cancelled = true
}

func (t *fakeTurn) confirmations() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.confirmed...)
}

func (t *fakeTurn) wasCancelled() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cancelled
}

// fakeHistory is an in-memory history with fixed contents.
type fakeHistory struct {
	mu     sync.Mutex
	convs  []store.Conversation
	turns  map[int64][]store.Turn
	hits   []store.Hit
	rated  []store.Rating
	search []string
}

func (h *fakeHistory) Path() string { return "/data/gear/gear.db" }
func (h *fakeHistory) Conversations(_ context.Context, limit int) ([]store.Conversation, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := append([]store.Conversation(nil), h.convs...)
	sort.Slice(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
func (h *fakeHistory) Conversation(_ context.Context, id int64) (store.Conversation, error) {
	for _, c := range h.convs {
		if c.ID == id {
			return c, nil
		}
	}
	return store.Conversation{}, &store.NotFoundError{}
}
func (h *fakeHistory) Turns(_ context.Context, id int64) ([]store.Turn, error) {
	return h.turns[id], nil
}
func (h *fakeHistory) Search(_ context.Context, q store.Query, _ int) ([]store.Hit, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var words []string
	for _, t := range q.Terms {
		words = append(words, strings.Join(t.Words, " "))
	}
	h.search = append(h.search, strings.Join(words, " "))
	return h.hits, nil
}
func (h *fakeHistory) Rate(_ context.Context, r store.Rating) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rated = append(h.rated, r)
	return nil
}

// testRenderer draws without colour on a dark background, so views are
// the same on every machine.
func testRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	r.SetHasDarkBackground(true)
	return r
}

// harness is the chat under test with its command runner.
type harness struct {
	*Model
	// late carries the messages of commands that were still waiting when
	// drive moved on (a turn's next event after a confirmation).
	late    chan tea.Msg
	waiting atomic.Int32
	// ready reports whether a waiting command has an answer ready (a
	// scripted turn with events still queued), so drive waits for it
	// however slow the machine is, rather than only for a moment.
	ready func() bool
}

// newTestModel builds the chat at w×h with the fake agent and history.
func newTestModel(t testing.TB, a Agent, h History, w, ht int) *harness {
	t.Helper()
	opts := Options{Agent: a, Renderer: testRenderer(), Now: testNow, Location: time.UTC}
	if h != nil {
		opts.History = h
	}
	m, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: w, Height: ht})
	hn := &harness{Model: m, late: make(chan tea.Msg, 64)}
	if fa, ok := a.(*fakeAgent); ok {
		hn.ready = fa.queued
	}
	return hn
}

// drive sends the messages and runs the commands they return, feeding the
// commands' messages back until none is left. A command that waits (a
// timer, a turn waiting for its confirmation) answers later, if at all:
// drive gives such commands a moment once the queue is empty. Spinner
// frames are dropped so views stay the same. It reports whether the
// program was told to quit.
func (h *harness) drive(msgs ...tea.Msg) (quit bool) {
	queue := msgs
	for {
		for len(queue) > 0 {
			msg := queue[0]
			queue = queue[1:]
			switch msg.(type) {
			case tea.QuitMsg:
				quit = true
				continue
			case tea.BatchMsg:
				queue = append(queue, h.expand(msg)...)
				continue
			}
			_, cmd := h.Update(msg)
			queue = append(queue, h.run(cmd)...)
		}
		if h.waiting.Load() == 0 {
			// A command that finished sent its messages before it stopped
			// counting as waiting: take what is there, then stop.
			select {
			case msg := <-h.late:
				queue = append(queue, msg)
				continue
			default:
				return quit
			}
		}
		select {
		case msg := <-h.late:
			queue = append(queue, msg)
		case <-time.After(100 * time.Millisecond):
			if h.ready == nil || !h.ready() {
				return quit
			}
		}
	}
}

// run runs a command, expanding batches; one that has not answered within
// 20 ms is left to answer on late.
func (h *harness) run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(20 * time.Millisecond):
		h.waiting.Add(1)
		go func() {
			// Send first, stop counting after: drive must never see
			// nothing waiting while a message is still on its way.
			defer h.waiting.Add(-1)
			msg := <-ch
			for _, m := range h.expand(msg) {
				h.late <- m
			}
		}()
		return nil
	}
	return h.expand(msg)
}

func (h *harness) expand(msg tea.Msg) []tea.Msg {
	switch msg := msg.(type) {
	case nil, spinner.TickMsg:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, h.run(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// typeText sends text as the keys a user types.
func (h *harness) typeText(text string) {
	for _, r := range text {
		h.drive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func press(t tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: t} }

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// plain is the view without escape sequences, for assertions on text.
func (h *harness) plain() string { return ansi.Strip(h.View()) }
