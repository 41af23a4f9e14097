package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
)

// A call read with doubts is asked about with the permission prompt's
// keys: enter runs it, esc does not; "a" allows nothing (the next call is
// another reading); text typed meanwhile stays in the input.
func TestCallQuestion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		keys   []tea.KeyMsg
		chosen string
		view   []string
	}{
		{"enter runs it", []tea.KeyMsg{press(tea.KeyEnter)}, "Calculator",
			[]string{"Calculator(5 * 0.3048 / 0.01) → 152.4 · tool 97% · call 45%", "Calculator · tool 97% · call 45% · grounding: offline engine"}},
		{"esc does not", []tea.KeyMsg{press(tea.KeyEsc)}, agent.NoTool,
			[]string{"Calculator(5 * 0.3048 / 0.01) → not run · tool 97% · call 45%", "was not run"}},
		{"a is not always", []tea.KeyMsg{runes("a"), press(tea.KeyBackspace), press(tea.KeyEsc)}, agent.NoTool, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			turn := callGateTurn()
			allowed := 0
			m := newTestModel(t, newFakeAgent(t, turn), &fakeHistory{}, 80, 24)
			m.allowTool = func(string) error { allowed++; return nil }
			m.typeText(feetQuery)
			m.drive(press(tea.KeyEnter))
			v := m.plain()
			for _, want := range []string{"Run Calculator(5 * 0.3048 / 0.01)?", "only 45% sure", "under 80%",
				"- the quantity '10 inches' found no place", "enter runs it · esc does not run it"} {
				if !strings.Contains(v, want) {
					t.Errorf("question lacks %q:\n%s", want, v)
				}
			}
			if strings.Contains(v, "always") {
				t.Errorf("the call's question offers to always allow:\n%s", v)
			}
			for _, k := range tc.keys {
				m.drive(k)
			}
			if got := turn.confirmations(); len(got) != 1 || got[0] != tc.chosen {
				t.Fatalf("confirmed %v, want %s", got, tc.chosen)
			}
			if allowed != 0 {
				t.Error("a at the call's question allowed the tool")
			}
			v = m.plain()
			for _, want := range tc.view {
				if !strings.Contains(v, want) {
					t.Errorf("view lacks %q:\n%s", want, v)
				}
			}
		})
	}
}

func TestCallQuestionKeepsTypedText(t *testing.T) {
	t.Parallel()
	turn := callGateTurn()
	m := newTestModel(t, newFakeAgent(t, turn), &fakeHistory{}, 80, 24)
	m.typeText(feetQuery)
	m.drive(press(tea.KeyEnter))
	m.typeText("hm")
	m.drive(press(tea.KeyEnter))
	if len(turn.confirmations()) != 0 || m.in.value() != "hm" || !strings.Contains(m.plain(), "Answer the prompt first") {
		t.Fatalf("enter with text in the input answered: %v, input %q", turn.confirmations(), m.in.value())
	}
}

// An unsure "no tool" offers the closest tools: arrows move the
// selection, enter runs it, a digit picks, esc takes none.
func TestOfferedTools(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		keys   []tea.KeyMsg
		chosen string
		view   string
	}{
		{"enter runs the first", []tea.KeyMsg{press(tea.KeyEnter)}, "WikiSearch", "WikiSearch · chosen by you"},
		{"down and enter", []tea.KeyMsg{press(tea.KeyDown), press(tea.KeyDown), press(tea.KeyEnter)}, "WeatherSearch", ""},
		{"down, up and enter", []tea.KeyMsg{press(tea.KeyDown), press(tea.KeyUp), press(tea.KeyEnter)}, "WikiSearch", ""},
		{"a digit", []tea.KeyMsg{runes("2")}, "WeatherSearch", ""},
		{"esc takes none, offline too", []tea.KeyMsg{press(tea.KeyEsc)}, agent.NoTool, "Closest: WikiSearch 41%"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			turn := offerTurn()
			m := newTestModel(t, newFakeAgent(t, turn), &fakeHistory{}, 80, 24)
			m.typeText(moonsQuery)
			m.drive(press(tea.KeyEnter))
			v := m.plain()
			for _, want := range []string{"I'm not sure this needs a tool (no tool: 86%). Closest — pick one or rephrase:",
				`› 1 WikiSearch`, `WikiSearch("moons of jupiter")`, `WeatherSearch("Jupiter") · call 30%`, "esc runs none"} {
				if !strings.Contains(v, want) {
					t.Errorf("offer lacks %q:\n%s", want, v)
				}
			}
			for _, k := range tc.keys {
				m.drive(k)
			}
			if got := turn.confirmations(); len(got) != 1 || got[0] != tc.chosen {
				t.Fatalf("confirmed %v, want %s", got, tc.chosen)
			}
			if tc.view != "" && !strings.Contains(m.plain(), tc.view) {
				t.Errorf("view lacks %q:\n%s", tc.view, m.plain())
			}
		})
	}
}
