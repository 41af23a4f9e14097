package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/gear-chat/gear/survey"
	"github.com/gear-chat/gear/ui"
)

// chatNow is the clock of the chat tests.
func chatNow() time.Time { return time.Date(2026, 11, 22, 2, 38, 0, 0, time.UTC) }

// chatApp is gear as bare `gear` sets it up, with the given environment,
// a history in dir and HTTP only to the test server (or nowhere).
func chatApp(t testing.TB, env map[string]string, srv *httptest.Server, dir string, offline bool) *app {
	t.Helper()
	allowed := ""
	if srv != nil {
		allowed = strings.TrimPrefix(srv.URL, "http://")
	}
	a := newApp(Deps{Getenv: func(k string) string { return env[k] }, Now: chatNow,
		HTTP: &http.Client{Transport: testServerOnly{t: t, host: allowed}}})
	a.dbPath, a.offline = filepath.Join(dir, "gear.db"), offline
	if err := a.loadConfig(); err != nil {
		t.Fatal(err)
	}
	return a
}

// testServerOnly fails the test on any request that is not to the test
// server: nothing reaches the network.
type testServerOnly struct {
	t    testing.TB
	host string
}

func (o testServerOnly) RoundTrip(r *http.Request) (*http.Response, error) {
	if o.host == "" || r.URL.Host != o.host {
		o.t.Errorf("unexpected request to %s", r.URL)
		return nil, fmt.Errorf("no network in tests: %s", r.URL)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// chatSession is the root model of the chat as bare gear builds it, with a
// colourless renderer, driven by messages.
type chatSession struct {
	t     testing.TB
	m     tea.Model
	msgs  chan tea.Msg
	views []string
	quit  bool
}

func openChat(t testing.TB, a *app) *chatSession {
	t.Helper()
	ctx := context.Background()
	st, err := a.openStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opts, err := a.chatOptions(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	r.SetHasDarkBackground(true)
	opts.Renderer, opts.Location = r, time.UTC
	m, err := ui.New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := &chatSession{t: t, m: m, msgs: make(chan tea.Msg, 256)}
	s.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	s.run(m.Init())
	return s
}

// send updates the model and runs the command it returns on its own
// goroutine, as the program does; its messages arrive on s.msgs.
func (s *chatSession) send(msg tea.Msg) {
	if _, ok := msg.(tea.QuitMsg); ok {
		s.quit = true
		return
	}
	var cmd tea.Cmd
	s.m, cmd = s.m.Update(msg)
	s.views = append(s.views, ansi.Strip(s.m.View()))
	s.run(cmd)
}

func (s *chatSession) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		switch msg := cmd().(type) {
		case nil, spinner.TickMsg:
		case tea.BatchMsg:
			for _, c := range msg {
				s.run(c)
			}
		default:
			s.msgs <- msg
		}
	}()
}

// until feeds messages back until the view holds want.
func (s *chatSession) until(want string) string {
	s.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		if v := ansi.Strip(s.m.View()); strings.Contains(v, want) {
			return v
		}
		select {
		case msg := <-s.msgs:
			s.send(msg)
		case <-deadline:
			s.t.Fatalf("the view never showed %q:\n%s", want, ansi.Strip(s.m.View()))
		}
	}
}

func (s *chatSession) typeLine(line string) {
	s.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(line)})
	s.send(tea.KeyMsg{Type: tea.KeyEnter})
}

// A full chat turn against a model server speaking the OpenAI wire format:
// routing and the call come back under the JSON schema, the answer streams
// in pieces and is shown as it arrives, the badge and the tokens follow,
// and after quitting a new chat shows the conversation again.
func TestChatEndToEnd(t *testing.T) {
	t.Parallel()
	srv := ScriptedChatServer(t, "The Calculator ", "says **96**, ", "computed as 48 × 4 ÷ 2.")
	env := map[string]string{"GEAR_CHAT_MODEL": "test-model", "GEAR_CHAT_BASE_URL": srv.URL + "/v1",
		"GEAR_CHAT_SERVER": "openai"}
	dir := t.TempDir()
	s := openChat(t, chatApp(t, env, srv, dir, false))
	if v := s.until("chat test-model"); !strings.Contains(v, "ground offline") {
		t.Errorf("the status line should name each role's engine:\n%s", v)
	}
	s.typeLine("what is 48 multiplied by 4 divided by 2")
	final := s.until("Calculator · ")
	for _, want := range []string{"you › what is 48 multiplied by 4 divided by 2", "needs a tool: ",
		"Calculator(48 * 4 / 2) → 96", "The Calculator says 96, computed as 48 × 4 ÷ 2.", "% · grounding: offline engine"} {
		if !strings.Contains(final, want) {
			t.Errorf("the finished turn lacks %q:\n%s", want, final)
		}
	}
	if strings.Contains(final, "tokens 0") {
		t.Errorf("the session's tokens were not counted:\n%s", final)
	}
	partial := -1
	for i, v := range s.views {
		if strings.Contains(v, "The Calculator says 96,") && !strings.Contains(v, "computed as") {
			partial = i
			break
		}
	}
	if partial < 0 {
		t.Error("the answer was never shown part-written: it did not stream")
	}

	s.send(tea.KeyMsg{Type: tea.KeyCtrlC})
	s.send(tea.KeyMsg{Type: tea.KeyCtrlC})
	for !s.quit {
		select {
		case msg := <-s.msgs:
			s.send(msg)
		case <-time.After(5 * time.Second):
			t.Fatal("ctrl+c twice did not quit")
		}
	}
	again := openChat(t, chatApp(t, env, srv, dir, false))
	v := again.until("Resumed conversation")
	if !strings.Contains(v, "The Calculator says 96, computed as 48 × 4 ÷ 2.") || !strings.Contains(v, "Calculator · ") {
		t.Errorf("a new chat does not show the conversation again:\n%s", v)
	}
}

// Offline, bare gear answers the must-show questions with the
// tool, its confidence and the engine.
func TestChatOffline(t *testing.T) {
	t.Parallel()
	s := openChat(t, chatApp(t, map[string]string{}, nil, t.TempDir(), true))
	s.until("engine offline")
	s.typeLine("what is 17 * 23")
	v := s.until("Calculator · ")
	if strings.Contains(v, "Which tool?") {
		s.send(tea.KeyMsg{Type: tea.KeyEnter})
		v = s.until("Calculator · ")
	}
	if !strings.Contains(v, "\n  391\n") || !strings.Contains(v, "% · grounding: offline engine") {
		t.Errorf("17 * 23 is not answered with 391 and the calculator badge:\n%s", v)
	}
	s.typeLine("/GEAR what time is it in Adelaide")
	v = s.until("CurrentTime · ")
	if !strings.Contains(v, "Australia/Adelaide") {
		t.Errorf("the time in Adelaide is not shown:\n%s", v)
	}
}

// In a study's baseline phase the chat starts in baseline mode and its
// status line names the phase; a line typed is answered without tools.
func TestChatStudyPhaseSetsTheMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := chatApp(t, map[string]string{}, nil, dir, true)
	ctx := context.Background()
	st, err := a.openStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := survey.StartPhase(ctx, st, survey.PhaseBaseline, "p-test", chatNow()); err != nil {
		t.Fatal(err)
	}
	st.Close()
	s := openChat(t, chatApp(t, map[string]string{}, nil, dir, true))
	s.until("study baseline │ mode baseline")
	s.typeLine("what is 17 * 23")
	v := s.until("baseline mode is the chat model alone")
	if strings.Contains(v, "Calculator ·") {
		t.Errorf("a baseline-phase line was grounded to a tool:\n%s", v)
	}

	st, err = a.openStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := survey.StartPhase(ctx, st, survey.PhaseGear, "", chatNow()); err != nil {
		t.Fatal(err)
	}
	st.Close()
	s = openChat(t, chatApp(t, map[string]string{}, nil, dir, true))
	s.until("study gear │ mode chat")
}

// BenchmarkChatStartup is bare gear offline up to its first frame: the
// configuration, the history opened, the agent wired (tool library,
// ToolDec machines, GEAR's offline engine), the chat built, Init's commands
// run (grounding prepared, the last conversation read back) and the first
// View. Target: ≤ 200 ms.
func BenchmarkChatStartup(b *testing.B) {
	dir := b.TempDir()
	s := openChat(b, chatApp(b, nil, nil, dir, true))
	s.typeLine("/GEAR Calculator(17 * 23)")
	s.until("Calculator · exact call")
	ctx := context.Background()
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	for b.Loop() {
		a := chatApp(b, nil, nil, dir, true)
		st, err := a.openStore(ctx)
		if err != nil {
			b.Fatal(err)
		}
		opts, err := a.chatOptions(ctx, st)
		if err != nil {
			b.Fatal(err)
		}
		opts.Renderer = r
		m, err := ui.New(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		for _, cmd := range m.Init()().(tea.BatchMsg) {
			m.Update(cmd())
		}
		if v := m.View(); !strings.Contains(v, "Resumed conversation") {
			b.Fatalf("the first frame does not show the resumed conversation:\n%s", v)
		}
		st.Close()
	}
}
