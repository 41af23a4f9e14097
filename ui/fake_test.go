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
	"github.com/gear-chat/gear/internal/timercmd"
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

// parked counts the turns' readers waiting for an event the test has not
// pushed yet (one that comes after a confirmation).
func (a *fakeAgent) parked() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, t := range a.handed {
		n += t.parked()
	}
	return n
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
		// A turn nobody scripted never ends: its reader stays parked.
		t := newFakeTurn(nil, nil)
		a.handed = append(a.handed, t)
		return t
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
	afterConfirm func(tool string) []agent.Event

	mu      sync.Mutex
	arrived *sync.Cond // signalled when events are pushed
	events  []agent.Event
	ended   bool // the final event is pushed
	// waiting counts readers inside Next with nothing to read.
	waiting   int
	confirmed []string
	cancelled bool
}

func newFakeTurn(events []agent.Event, afterConfirm func(string) []agent.Event) *fakeTurn {
	t := &fakeTurn{afterConfirm: afterConfirm}
	t.arrived = sync.NewCond(&t.mu)
	t.push(events...)
	return t
}

// push queues events; the final one ends the turn.
func (t *fakeTurn) push(events ...agent.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, ev := range events {
		if t.ended {
			break
		}
		t.events = append(t.events, ev)
		switch ev.(type) {
		case agent.Done, agent.Failed, agent.Cancelled:
			t.ended = true
		}
	}
	t.arrived.Broadcast()
}

func (t *fakeTurn) Next() (agent.Event, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(t.events) == 0 && !t.ended {
		t.waiting++
		t.arrived.Wait()
		t.waiting--
	}
	if len(t.events) == 0 {
		return nil, false
	}
	ev := t.events[0]
	t.events = t.events[1:]
	return ev, true
}

// parked is how many readers wait in Next for an event only the test can
// bring (through Confirm): none once an event or the end is there to read,
// even if a woken reader has not taken it yet.
func (t *fakeTurn) parked() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.events) > 0 || t.ended {
		return 0
	}
	return t.waiting
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

// harness is the chat under test with its command runner. It runs one
// command at a time and, after each, waits until every command still
// running is parked: waiting for what only the test does next (a turn
// waiting for a confirmation, a watch on a library that never changes).
// Timers are never run (a test sends their message itself), so a view is
// the same however slow the machine is.
type harness struct {
	*Model
	tb testing.TB
	// parkers count the commands parked on the fakes.
	parkers []func() int

	mu       sync.Mutex
	inFlight int       // commands started and not returned
	answers  []tea.Msg // what returned commands answered, in order
}

// settleTimeout bounds the wait for commands that neither answer nor park:
// a bug in the chat or in a fake, reported as such.
const settleTimeout = time.Minute

// newHarness wraps a chat built with the fakes of this file.
func newHarness(tb testing.TB, m *Model) *harness {
	h := &harness{Model: m, tb: tb}
	if a, ok := m.agent.(*fakeAgent); ok {
		h.parkers = append(h.parkers, a.parked)
	}
	if l, ok := m.library.(*fakeLibrary); ok {
		h.parkers = append(h.parkers, l.watchers)
	}
	return h
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
	return newHarness(t, m)
}

// drive sends the messages and runs the commands they return, feeding the
// commands' messages back until none is left and every command still
// running is parked. Spinner frames are dropped so views stay the same. It
// reports whether the program was told to quit.
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
		// A parked command may answer once another one ran (a turn's
		// next event after its confirmation).
		for _, msg := range h.settle() {
			queue = append(queue, h.expand(msg)...)
		}
		if len(queue) == 0 {
			return quit
		}
	}
}

// run runs a command, expanding batches, and returns its messages, with
// those of commands it woke; a command that parks answers later, if at
// all, through settle.
func (h *harness) run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil || timercmd.Is(cmd) {
		return nil
	}
	h.mu.Lock()
	h.inFlight++
	h.mu.Unlock()
	go func() {
		msg := cmd()
		h.mu.Lock()
		defer h.mu.Unlock()
		h.answers = append(h.answers, msg)
		h.inFlight--
	}()
	var out []tea.Msg
	for _, msg := range h.settle() {
		out = append(out, h.expand(msg)...)
	}
	return out
}

// settle waits until every running command is parked and returns what
// the others answered, in the order they answered.
func (h *harness) settle() []tea.Msg {
	deadline := time.Now().Add(settleTimeout)
	for {
		h.mu.Lock()
		parked := 0
		for _, p := range h.parkers {
			parked += p()
		}
		if h.inFlight == parked {
			out := h.answers
			h.answers = nil
			h.mu.Unlock()
			return out
		}
		inFlight := h.inFlight
		h.mu.Unlock()
		if time.Now().After(deadline) {
			h.tb.Fatalf("after %v, %d commands still run and only %d are parked", settleTimeout, inFlight, parked)
		}
		// Polled: the fakes do not say when one of their readers parks.
		time.Sleep(100 * time.Microsecond)
	}
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
