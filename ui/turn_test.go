package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

func TestTurnAnswersWithCardAndBadge(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t, newFakeTurn(calcEvents(), nil))
	m := newTestModel(t, a, &fakeHistory{}, 80, 24)
	m.typeText("what is 17 * 23")
	m.drive(press(tea.KeyEnter))

	if len(a.started) != 1 {
		t.Fatalf("started %d turns, want 1", len(a.started))
	}
	if got := a.started[0]; got.Text != "what is 17 * 23" || got.Mode != store.ModeChat || got.Conversation != 0 {
		t.Errorf("request = %+v", got)
	}
	view := m.plain()
	for _, want := range []string{
		"you › what is 17 * 23",
		"needs a tool: 96% (asks ≥ 13%) · grounding: offline engine",
		"Calculator  ",
		"76%",
		"\n  391\n",
		"Calculator · tool 76% · grounding: offline engine",
		"conversation #1",
		"No chat model is configured",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if strings.Index(view, "No chat model") > strings.Index(view, "you › what is") {
		t.Errorf("the notice should come before the turn it was raised in:\n%s", view)
	}
	if m.in.value() != "" {
		t.Errorf("input not cleared: %q", m.in.value())
	}
	if m.turn != nil || m.running != nil {
		t.Error("the turn is still marked running")
	}
}

func TestProgressNamesTheStageAndAnswerStreams(t *testing.T) {
	t.Parallel()
	turn := newFakeTurn(nil, nil)
	a := newFakeAgent(t, turn)
	m := newTestModel(t, a, nil, 80, 24)
	m.typeText("weather in Paris tomorrow?")
	m.Update(press(tea.KeyEnter))
	m.Update(turnStartedMsg{turn: turn})
	steps := []struct {
		ev   agent.Event
		want string
	}{
		{agent.Progress{Stage: agent.StageGrounding, Tools: 4}, "grounding 4 tools…"},
		{agent.Progress{Stage: agent.StageEmitting, Tool: "WeatherSearch"}, "writing the WeatherSearch call…"},
		{agent.Progress{Stage: agent.StageCalling, Tool: "WeatherSearch"}, "calling WeatherSearch…"},
		{agent.Progress{Stage: agent.StageAnswering}, "writing answer…"},
		{agent.AnswerDelta{Text: "Tomorrow in Paris: "}, "Tomorrow in Paris:"},
		{agent.AnswerDelta{Text: "light rain, 12 °C."}, "Tomorrow in Paris: light rain, 12 °C."},
	}
	for _, s := range steps {
		_, cmd := m.Update(turnEventMsg{turn: turn, event: s.ev, ok: true})
		if cmd == nil {
			t.Fatalf("after %T the next event is not asked for", s.ev)
		}
		if v := m.plain(); !strings.Contains(v, s.want) {
			t.Errorf("after %#v the view lacks %q:\n%s", s.ev, s.want, v)
		}
	}
	if help := m.plain(); !strings.Contains(help, "esc/ctrl+c cancel") {
		t.Errorf("while running the help line should offer esc:\n%s", help)
	}
}

func TestEscCancelsTheTurn(t *testing.T) {
	t.Parallel()
	turn := newFakeTurn(nil, nil)
	m := newTestModel(t, newFakeAgent(t, turn), nil, 80, 24)
	m.typeText("tell me a long story")
	m.Update(press(tea.KeyEnter))
	m.Update(turnStartedMsg{turn: turn})
	m.Update(turnEventMsg{turn: turn, event: agent.AnswerDelta{Text: "Once upon"}, ok: true})
	m.drive(press(tea.KeyEsc))
	if !turn.wasCancelled() {
		t.Fatal("esc did not cancel the turn")
	}
	rec := agent.Record{TurnID: 4, Status: store.StatusCancelled, Error: "cancelled", Answer: "Once upon"}
	m.Update(turnEventMsg{turn: turn, event: agent.Cancelled{Record: rec}, ok: true})
	v := m.plain()
	if !strings.Contains(v, "Once upon") || !strings.Contains(v, "cancelled") {
		t.Errorf("the cancelled turn should keep its partial answer and say so:\n%s", v)
	}
	if m.turn != nil {
		t.Error("the turn is still running")
	}
}

func TestCtrlCTwiceQuits(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, newFakeAgent(t), nil, 80, 24)
	_, cmd := m.Update(press(tea.KeyCtrlC))
	if cmd == nil || !strings.Contains(m.plain(), "Press ctrl+c again to quit") {
		t.Fatalf("the first ctrl+c should arm and say so:\n%s", m.plain())
	}
	m.Update(quitDisarmMsg{seq: m.quitSeq})
	if m.quitArmed {
		t.Fatal("the window for the second ctrl+c did not close")
	}
	m.Update(press(tea.KeyCtrlC))
	_, cmd = m.Update(press(tea.KeyCtrlC))
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("ctrl+c twice did not quit")
	}
}

func TestQuitWhileRunningCancelsFirst(t *testing.T) {
	t.Parallel()
	turn := newFakeTurn(nil, nil)
	m := newTestModel(t, newFakeAgent(t, turn), nil, 80, 24)
	m.typeText("slow question")
	m.Update(press(tea.KeyEnter))
	m.Update(turnStartedMsg{turn: turn})
	m.Update(press(tea.KeyCtrlC))
	_, cmd := m.Update(press(tea.KeyCtrlC))
	if cmd == nil {
		t.Fatal("no command")
	}
	m.run(cmd)
	if !turn.wasCancelled() || !m.quitting {
		t.Fatal("quitting should cancel the running turn first")
	}
	_, cmd = m.Update(turnEventMsg{turn: turn, event: agent.Cancelled{Record: agent.Record{Status: store.StatusCancelled}}, ok: true})
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("the turn's end should quit")
	}
}

func TestConfidenceGate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		key    tea.KeyMsg
		chosen string
		view   string
	}{
		{"enter runs the first", press(tea.KeyEnter), "Calculator", "49% confidence  confirmed by you"},
		{"a number picks another", runes("2"), "WikiSearch", "WikiSearch · chosen by you · grounding: offline engine"},
		{"esc answers without a tool", press(tea.KeyEsc), agent.NoTool, "not run: you chose no tool"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			turn := gateTurn()
			// With a chat model, answering without a tool can answer.
			m := newTestModel(t, withChatModel(newFakeAgent(t, turn)), &fakeHistory{}, 80, 24)
			m.typeText("what is 17 * 23")
			m.drive(press(tea.KeyEnter))
			v := m.plain()
			for _, want := range []string{"Grounding is only 49% sure (it asks under 50%). Which tool?",
				" 1 Calculator", " 2 WikiSearch", " 3 WeatherSearch", "29%", "enter run the selected"} {
				if !strings.Contains(v, want) {
					t.Errorf("gate lacks %q:\n%s", want, v)
				}
			}
			m.drive(runes("7"))
			if m.gate == nil || len(turn.confirmations()) > 0 {
				t.Fatal("a number with no candidate should leave the gate open")
			}
			m.drive(c.key)
			if got := turn.confirmations(); len(got) != 1 || got[0] != c.chosen {
				t.Fatalf("confirmed %v, want %s", got, c.chosen)
			}
			if m.gate != nil {
				t.Error("the gate is still open")
			}
			if v := m.plain(); !strings.Contains(v, c.view) {
				t.Errorf("view lacks %q:\n%s", c.view, v)
			}
		})
	}
}

func TestFailedTurnSaysWhy(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, newFakeAgent(t, newFakeTurn(failedEvents(), nil)), nil, 80, 24)
	m.typeText("weather in Paris")
	m.drive(press(tea.KeyEnter))
	if v := m.plain(); !strings.Contains(v, "✗ weather: Open-Meteo did not answer") {
		t.Errorf("the failure is not shown:\n%s", v)
	}
}

// A line sent while a turn runs is queued, shown as
// queued, and sent once the turn ends.
func TestEnterWhileRunningQueues(t *testing.T) {
	t.Parallel()
	first, second := newFakeTurn(nil, nil), newFakeTurn(nil, nil)
	a := newFakeAgent(t, first, second)
	m := newTestModel(t, a, nil, 80, 24)
	m.typeText("first")
	m.Update(press(tea.KeyEnter))
	m.Update(turnStartedMsg{turn: first})
	m.typeText("second")
	m.drive(press(tea.KeyEnter))
	if len(a.started) != 0 {
		t.Fatalf("started %d turns while one was running", len(a.started))
	}
	if m.in.value() != "" || !strings.Contains(m.plain(), "1 queued: second") {
		t.Errorf("the second line should be queued and shown; input %q\n%s", m.in.value(), m.plain())
	}
	m.drive(turnEventMsg{turn: first, event: agent.Done{Record: agent.Record{Status: store.StatusDone, Answer: "one"}}, ok: true})
	if len(a.started) != 1 || a.started[0].Text != "second" {
		t.Fatalf("after the first turn, started %+v; want the queued line", a.started)
	}
	if strings.Contains(m.plain(), "queued") {
		t.Errorf("the queued line is still shown as queued:\n%s", m.plain())
	}
}

func TestUsageAddsUpInTheStatusLine(t *testing.T) {
	t.Parallel()
	rec := calcRecord()
	rec.Usage = []store.RoleUsage{{Role: store.RoleChat, PromptTokens: 120, CompletionTokens: 30},
		{Role: store.RoleGrounding, PromptTokens: 50}}
	events := append(calcEvents()[:len(calcEvents())-1], agent.Done{Record: rec})
	m := newTestModel(t, newFakeAgent(t, newFakeTurn(events, nil)), nil, 80, 24)
	m.typeText("what is 17 * 23")
	m.drive(press(tea.KeyEnter))
	if v := m.plain(); !strings.Contains(v, "tokens 200") {
		t.Errorf("the status line should count 200 tokens:\n%s", v)
	}
}

func TestSwitchSaysWhichQuestionIsAnsweredAgain(t *testing.T) {
	t.Parallel()
	rec := calcRecord()
	rec.Input, rec.Tool, rec.ChosenBy = "/use wiki", "WikiSearch", "user"
	rec.Route = &agent.Route{NeedsTool: true, By: "user"}
	turn := newFakeTurn([]agent.Event{agent.Started{ConversationID: 1, TurnID: 2, Query: rec.Query}, agent.Done{Record: rec}}, nil)
	m := newTestModel(t, newFakeAgent(t, turn), nil, 80, 24)
	m.typeText("/use wiki")
	m.drive(press(tea.KeyEnter))
	v := m.plain()
	for _, want := range []string{"you › /use wiki\n  ↻ what is 17 * 23", "needs a tool: yes (you named it)",
		"WikiSearch · chosen by you · grounding: offline engine"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
}

// A ctrl+c that cancels the turn does not send the lines queued behind it,
// and does not lose them: they are back in the input.
func TestCtrlCKeepsQueuedLinesInTheInput(t *testing.T) {
	t.Parallel()
	first := newFakeTurn(nil, nil)
	a := newFakeAgent(t, first)
	m := newTestModel(t, a, nil, 80, 24)
	m.typeText("first")
	m.Update(press(tea.KeyEnter))
	m.Update(turnStartedMsg{turn: first})
	m.typeText("second")
	m.drive(press(tea.KeyEnter))
	m.typeText("third")
	m.drive(press(tea.KeyEnter))
	m.drive(press(tea.KeyCtrlC))
	if got := m.in.value(); got != "second\nthird" {
		t.Errorf("input %q after ctrl+c; want the queued lines back", got)
	}
	if len(m.queued) != 0 || !strings.Contains(m.plain(), "queued lines are back in the input") {
		t.Errorf("queued %q:\n%s", m.queued, m.plain())
	}
}
