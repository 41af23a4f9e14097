package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

func TestSlashCommands(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line string
		want []string
		quit bool
	}{
		{"/tools", []string{"Tool library — 6 tools", "Calculator(expression: expression)", "What is 18% of 2,450?"}, false},
		{"/help", []string{"Commands", "/mode chat|direct|baseline", "ctrl+t", "wrong tool"}, false},
		{"/mode direct", []string{"Mode direct:", "mode direct"}, false},
		{"/mode baseline", []string{"Mode baseline:", "mode baseline"}, false},
		{"/mode", []string{"The mode is chat."}, false},
		{"/mode sideways", []string{"The mode is chat."}, false},
		{"/use", []string{"/use TOOL answers the last question again"}, false},
		{"/new", []string{"New conversation.", "conversation new"}, false},
		{"/nope", []string{"/nope is not a command. /help lists them"}, false},
		{"/survey", []string{"The questionnaire is not part of this build of gear."}, false},
		{"/GEAR", []string{"Type a question"}, false},
		{"/rate", []string{"Rate the last answer with ctrl+y 👍"}, false},
		{"/quit", nil, true},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			a := newFakeAgent(t)
			m := newTestModel(t, a, &fakeHistory{}, 100, 40)
			m.typeText(c.line)
			quit := m.drive(press(tea.KeyEnter))
			if quit != c.quit {
				t.Fatalf("quit = %v, want %v", quit, c.quit)
			}
			v := m.plain()
			for _, w := range c.want {
				if !strings.Contains(v, w) {
					t.Errorf("view lacks %q:\n%s", w, v)
				}
			}
			if len(a.started) != 0 {
				t.Errorf("a command started a turn: %+v", a.started)
			}
		})
	}
}

func TestModeAppliesToTheNextTurn(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t, newFakeTurn(adelaideEvents(), nil))
	m := newTestModel(t, a, nil, 80, 24)
	m.typeText("/mode direct")
	m.drive(press(tea.KeyEnter))
	m.typeText("what time is it in Adelaide")
	m.drive(press(tea.KeyEnter))
	if len(a.started) != 1 || a.started[0].Mode != store.ModeDirect {
		t.Fatalf("requests %+v, want one in direct mode", a.started)
	}
	if v := m.plain(); !strings.Contains(v, "Australia/Adelaide") || !strings.Contains(v, "CurrentTime · tool 97% · grounding: offline engine") {
		t.Errorf("the direct answer is not shown:\n%s", v)
	}
}

func TestPrefixesAndSwitchesAreTurns(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"/GEAR what time is it in Adelaide", "/GEAR Calculator(2 + 2)",
		"@TallChatBot hello there", "/use wiki", "use the calculator instead"} {
		a := newFakeAgent(t)
		m := newTestModel(t, a, nil, 80, 24)
		m.conversationID = 7
		m.typeText(line)
		m.drive(press(tea.KeyEnter))
		if len(a.started) != 1 || a.started[0].Text != line || a.started[0].Conversation != 7 {
			t.Errorf("%q: requests %+v, want the line as a turn of conversation 7", line, a.started)
		}
	}
}

// fakeForm is a questionnaire of one key: y saves, esc abandons.
type fakeForm struct {
	keys    []string
	summary string
	done    bool
}

func (f *fakeForm) Init() tea.Cmd { return nil }
func (f *fakeForm) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		f.keys = append(f.keys, k.String())
		switch k.String() {
		case "y":
			f.summary, f.done = "Thank you: your answers are saved.", true
		case "esc":
			f.done = true
		}
	}
	return f, nil
}
func (f *fakeForm) View() string                   { return "Q1. How would you rate gear? (0-10)" }
func (f *fakeForm) Done() (summary string, _ bool) { return f.summary, f.done }

func TestSurveyOpensThroughTheSeam(t *testing.T) {
	t.Parallel()
	form := &fakeForm{}
	var size [2]int
	a := newFakeAgent(t)
	m := newTestModel(t, a, nil, 80, 24)
	m.surveyOpener = func(_ context.Context, w, h int) (SurveyForm, error) {
		size = [2]int{w, h}
		return form, nil
	}
	m.typeText("/survey")
	m.drive(press(tea.KeyEnter))
	if size != [2]int{80, 23} {
		t.Errorf("the form was made for %v, want 80×23 (the status line stays)", size)
	}
	if v := m.plain(); !strings.Contains(v, "Q1. How would you rate gear?") {
		t.Fatalf("the form is not shown:\n%s", v)
	}
	m.drive(runes("5"))
	m.drive(runes("y"))
	if strings.Join(form.keys, ",") != "5,y" {
		t.Errorf("the form got keys %v", form.keys)
	}
	if m.form != nil {
		t.Fatal("the form is still open after it was done")
	}
	if v := m.plain(); !strings.Contains(v, "Thank you: your answers are saved.") {
		t.Errorf("the form's summary is not in the conversation:\n%s", v)
	}
}

// A study's phase is on the status line; its default mode is the mode of
// a plain line until /mode changes it.
func TestStudyPhaseOnTheStatusLine(t *testing.T) {
	t.Parallel()
	done := func() *fakeTurn {
		return newFakeTurn([]agent.Event{agent.Done{Record: agent.Record{Status: store.StatusDone, Answer: "A joke."}}}, nil)
	}
	for _, width := range []int{80, 120} {
		a := newFakeAgent(t, done(), done())
		m, err := New(context.Background(), Options{Agent: a, History: &fakeHistory{}, Mode: store.ModeBaseline,
			StudyPhase: "baseline", Renderer: testRenderer(), Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, m)
		h.drive(tea.WindowSizeMsg{Width: width, Height: 24})
		status := func() string {
			lines := strings.Split(h.plain(), "\n")
			return lines[len(lines)-2]
		}
		if s := status(); !strings.Contains(s, "study baseline │ mode baseline") {
			t.Errorf("at %d columns the status line lacks the phase and its mode: %q", width, s)
		}
		h.typeText("tell me a joke")
		h.drive(press(tea.KeyEnter))
		h.typeText("/mode chat")
		h.drive(press(tea.KeyEnter))
		h.typeText("tell me another")
		h.drive(press(tea.KeyEnter))
		if len(a.started) != 2 || a.started[0].Mode != store.ModeBaseline || a.started[1].Mode != store.ModeChat {
			t.Errorf("requests %+v: want baseline, then chat after /mode chat", a.started)
		}
		if s := status(); !strings.Contains(s, "study baseline │ mode chat") {
			t.Errorf("after /mode chat the status line is %q", s)
		}
	}
	m := newTestModel(t, newFakeAgent(t), &fakeHistory{}, 120, 24)
	if strings.Contains(m.plain(), "study") {
		t.Errorf("without a study the status line names none:\n%s", m.plain())
	}
}
