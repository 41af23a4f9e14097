package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestTabCompletes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		typed, want string
		candidates  []string
	}{
		{"/to", "/tools", nil},
		{"/gea", "/GEAR ", nil},
		{"@tall", "@TallChatBot ", nil},
		{"/h", "/h", []string{"/history", "/help"}},
		{"/mode d", "/mode direct", nil},
		{"/use Wi", "/use WikiSearch", nil},
		{"/use cu", "/use CurrentTime", nil},
		{"/rate w", "/rate wrong ", nil},
		{"/rate wrong Loc", "/rate wrong LocationSearch", nil},
		{"/rate wrong no", "/rate wrong none", nil},
		{"/GEAR Calc", "/GEAR Calculator(", nil},
		{"/GEAR Timez", `/GEAR TimezoneConverter("`, nil},
		{"/GEAR C", "/GEAR C", []string{"Calculator", "CurrentTime"}},
		{"/GEAR W", "/GEAR W", []string{"WeatherSearch", "WikiSearch"}},
		{"/GEAR what time", "/GEAR what time", nil},
		{"hello", "hello", nil},
	}
	for _, c := range cases {
		t.Run(c.typed, func(t *testing.T) {
			m := newTestModel(t, newFakeAgent(t), nil, 80, 24)
			m.typeText(c.typed)
			m.drive(press(tea.KeyTab))
			if got := m.in.value(); got != c.want {
				t.Errorf("completed to %q, want %q", got, c.want)
			}
			if strings.Join(m.in.suggestions, ",") != strings.Join(c.candidates, ",") {
				t.Errorf("candidates %v, want %v", m.in.suggestions, c.candidates)
			}
			if len(c.candidates) > 0 && !strings.Contains(m.plain(), strings.Join(c.candidates, "  ")) {
				t.Errorf("the candidates are not shown:\n%s", m.plain())
			}
		})
	}
}

func TestRecallEarlierLines(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, newFakeAgent(t), nil, 80, 24)
	for _, line := range []string{"/mode chat", "/tools"} {
		m.typeText(line)
		m.drive(press(tea.KeyEnter))
	}
	m.typeText("draft")
	steps := []struct {
		key  tea.KeyType
		want string
	}{
		{tea.KeyUp, "/tools"},
		{tea.KeyUp, "/mode chat"},
		{tea.KeyUp, "/mode chat"},
		{tea.KeyDown, "/tools"},
		{tea.KeyDown, "draft"},
	}
	for i, s := range steps {
		m.drive(press(s.key))
		if got := m.in.value(); got != s.want {
			t.Fatalf("step %d: input %q, want %q", i, got, s.want)
		}
	}
}

func TestMultiLineInputAndPaste(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	m := newTestModel(t, a, nil, 80, 24)
	m.typeText("first line")
	m.drive(tea.KeyMsg{Type: tea.KeyEnter, Alt: true})
	m.typeText("second")
	m.drive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" pasted\nthird line\n"), Paste: true})
	if got, want := m.in.value(), "first line\nsecond pasted\nthird line\n"; got != want {
		t.Fatalf("input %q, want %q", got, want)
	}
	if len(a.started) != 0 {
		t.Fatal("a newline in a paste sent the message")
	}
	if m.in.ta.Height() < 3 {
		t.Errorf("the input shows %d rows for 4 lines", m.in.ta.Height())
	}
	m.drive(press(tea.KeyUp))
	if m.in.value() != "first line\nsecond pasted\nthird line\n" {
		t.Error("↑ inside a multi-line input should move the cursor, not recall")
	}
	m.drive(press(tea.KeyEnter))
	if len(a.started) != 1 || a.started[0].Text != "first line\nsecond pasted\nthird line" {
		t.Errorf("requests %+v", a.started)
	}
}
