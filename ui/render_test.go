package ui

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// hostile is text a tool or a model could send to take over the terminal.
const hostile = "safe\x1b]0;owned\x07 \x1b[2J\x1b[31mred\x1b[0m \x9b1;1H\u202eevil\r\nnext"

func TestUntrustedTextIsSanitised(t *testing.T) {
	t.Parallel()
	rec := calcRecord()
	rec.Answer, rec.Call.Response, rec.Grounding.Preliminary = hostile, hostile, hostile
	rec.Grounding.Tools[0].Tool = "Calc\x1b[5mulator"
	events := calcEvents()
	events[len(events)-1] = agent.Done{Record: rec}
	m := newTestModel(t, newFakeAgent(t, newFakeTurn(events, nil)), nil, 80, 40)
	m.typeText("hi \x1b]52;c;cGF5bG9hZA==\x07")
	m.drive(press(tea.KeyEnter))
	m.drive(press(tea.KeyCtrlG))
	view := m.View()
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\x1b[31m", "\x9b", "\u202e", "\x07", "\r", "\x1b[5m"} {
		if strings.Contains(view, bad) {
			t.Errorf("the view carries %q", bad)
		}
	}
	if !strings.Contains(ansi.Strip(view), "safe") || !strings.Contains(ansi.Strip(view), "next") {
		t.Errorf("sanitising lost the text:\n%s", ansi.Strip(view))
	}
}

// scenes puts the chat in each state the views are checked in.
func scenes(t *testing.T) map[string]func(*harness) {
	return map[string]func(*harness){
		"welcome": func(*harness) {},
		"turns": func(m *harness) {
			m.typeText("what is 17 * 23")
			m.drive(press(tea.KeyEnter))
			m.typeText("/GEAR what time is it in Adelaide")
			m.drive(press(tea.KeyEnter))
		},
		"details": func(m *harness) {
			m.typeText("what is 17 * 23")
			m.drive(press(tea.KeyEnter))
			m.drive(press(tea.KeyCtrlG))
		},
		"gate": func(m *harness) {
			m.agent.(*fakeAgent).turns = []*fakeTurn{gateTurn()}
			m.typeText("what is 17 * 23")
			m.drive(press(tea.KeyEnter))
		},
		"streaming": func(m *harness) {
			ev := calcEvents()
			m.agent.(*fakeAgent).turns = []*fakeTurn{newFakeTurn(append(ev[:6:6],
				agent.Progress{Stage: agent.StageAnswering}, agent.AnswerDelta{Text: "The product of 17 and"}), nil)}
			m.typeText("what is 17 * 23")
			m.drive(press(tea.KeyEnter))
		},
		"tools": func(m *harness) {
			m.typeText("/tools")
			m.drive(press(tea.KeyEnter))
		},
		"help": func(m *harness) {
			m.typeText("/help")
			m.drive(press(tea.KeyEnter))
		},
		"picker": func(m *harness) {
			m.typeText("what is 17 * 23")
			m.drive(press(tea.KeyEnter))
			m.drive(press(tea.KeyCtrlT))
		},
		"callgate": func(m *harness) {
			m.agent.(*fakeAgent).turns = []*fakeTurn{callGateTurn()}
			m.typeText(feetQuery)
			m.drive(press(tea.KeyEnter))
		},
		"callcard": func(m *harness) {
			m.agent.(*fakeAgent).turns = []*fakeTurn{callGateTurn()}
			m.typeText(feetQuery)
			m.drive(press(tea.KeyEnter))
			m.drive(press(tea.KeyEnter))
			m.drive(press(tea.KeyCtrlG))
		},
		"offer": func(m *harness) {
			m.agent.(*fakeAgent).turns = []*fakeTurn{offerTurn()}
			m.typeText(moonsQuery)
			m.drive(press(tea.KeyEnter))
		},
		"history": func(m *harness) {
			m.typeText("/history")
			m.drive(press(tea.KeyEnter))
		},
	}
}

func sceneModel(t *testing.T, name string, w, h int) *harness {
	hist := &fakeHistory{convs: []store.Conversation{{ID: 1, NewConversation: store.NewConversation{
		Title: "what is 17 * 23", Mode: store.ModeChat}, Updated: testNow(), TurnCount: 2}}}
	a := newFakeAgent(t, newFakeTurn(calcEvents(), nil), newFakeTurn(adelaideEvents(), nil))
	m := newTestModel(t, a, hist, w, h)
	scenes(t)[name](m)
	return m
}

func TestEveryViewFitsTheTerminal(t *testing.T) {
	t.Parallel()
	sizes := [][2]int{{80, 24}, {120, 40}, {300, 60}, {40, 16}, {24, 10}}
	for name := range scenes(t) {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s/%dx%d", name, sz[0], sz[1]), func(t *testing.T) {
				m := sceneModel(t, name, sz[0], sz[1])
				lines := strings.Split(m.View(), "\n")
				if len(lines) != sz[1] {
					t.Errorf("%d lines, want %d", len(lines), sz[1])
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w > sz[0] {
						t.Errorf("line %d is %d wide, want ≤ %d: %q", i, w, sz[0], ansi.Strip(l))
					}
				}
			})
		}
	}
}

const markdownAnswer = "Here is the **code**:\n\n```go\npackage main\n\nfunc main() { fmt.Println(\"a long line of code that must not be reflowed by the renderer\") }\n```\n\nAnd a paragraph long enough to be wrapped again when the window becomes narrower than it is now."

func TestResizeRewrapsAndKeepsCodeIntact(t *testing.T) {
	t.Parallel()
	rec := agent.Record{TurnID: 9, Input: "show me code", Query: "show me code", Mode: store.ModeBaseline,
		Status: store.StatusDone, Answer: markdownAnswer, AnsweredBy: "model"}
	m := newTestModel(t, newFakeAgent(t, newFakeTurn([]agent.Event{agent.Done{Record: rec}}, nil)), nil, 100, 30)
	m.typeText("show me code")
	m.drive(press(tea.KeyEnter))
	wide := ansi.Strip(m.View())
	if !strings.Contains(wide, `fmt.Println("a long line of code that must not be reflowed by the renderer") }`) {
		t.Fatalf("the code line is not intact at 100 columns:\n%s", wide)
	}
	m.drive(tea.WindowSizeMsg{Width: 50, Height: 30})
	narrow := ansi.Strip(m.View())
	for i, l := range strings.Split(narrow, "\n") {
		if ansi.StringWidth(l) > 50 {
			t.Errorf("line %d is wider than 50: %q", i, l)
		}
	}
	joined := strings.Join(strings.Fields(narrow), "")
	if !strings.Contains(joined, strings.Join(strings.Fields(`fmt.Println("a long line of code that must not be reflowed by the renderer") }`), "")) {
		t.Errorf("the code lost characters at 50 columns:\n%s", narrow)
	}
	if w, n := span(wide, "And a paragraph", "now."), span(narrow, "And a paragraph", "now."); n <= w || w == 0 {
		t.Errorf("the paragraph takes %d lines at 100 columns and %d at 50: not re-wrapped\n%s", w, n, narrow)
	}
}

// span counts the lines from the one holding from to the one holding to.
func span(view, from, to string) int {
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		if strings.Contains(l, from) {
			for j := i; j < len(lines); j++ {
				if strings.Contains(lines[j], to) {
					return j - i + 1
				}
			}
		}
	}
	return 0
}

func TestColoursFollowTheBackgroundAndNoColor(t *testing.T) {
	t.Parallel()
	render := func(profile termenv.Profile, dark, noColor bool) string {
		r := lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(profile)
		r.SetHasDarkBackground(dark)
		m, err := New(t.Context(), Options{Agent: newFakeAgent(t), Renderer: r, NoColor: noColor, Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		e := &entry{kind: entryTurn, input: "what is 17 * 23", rec: calcRecord(), expanded: true}
		e.rec.Answer, e.rec.AnsweredBy = "The answer is **391**.", "model"
		return strings.Join(m.paint.lines(e, 80), "\n") + "\n" + m.View()
	}
	dark, light := render(termenv.TrueColor, true, false), render(termenv.TrueColor, false, false)
	if dark == light {
		t.Error("light and dark backgrounds render the same colours")
	}
	if !strings.Contains(dark, "38;2;") {
		t.Error("a true-colour terminal gets no colour")
	}
	noColor := render(termenv.ANSI, true, true)
	if strings.Contains(noColor, "38;") || strings.Contains(noColor, "48;") || regexp.MustCompile(`\x1b\[[0-9;]*3[0-7]m`).MatchString(noColor) {
		t.Errorf("NO_COLOR still sets colours: %q", noColor)
	}
	if !strings.Contains(noColor, "\x1b[7m") {
		t.Error("NO_COLOR lost the reverse video that shows the cursor")
	}
	// Inline code is marked with backticks where colour cannot show it
	// (its padding would read as double spaces); the rest is the same.
	if !strings.Contains(ansi.Strip(noColor), "Try `what is 17 * 23`,") {
		t.Errorf("without colour, inline code should be in backticks:\n%s", ansi.Strip(noColor))
	}
	words := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "`", " ")), " ") }
	if words(ansi.Strip(noColor)) != words(ansi.Strip(dark)) {
		t.Errorf("without colour the text should be the same:\n%s\n---\n%s", ansi.Strip(noColor), ansi.Strip(dark))
	}
}

func TestScrollingKeepsItsPlace(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, newFakeAgent(t), nil, 80, 24)
	for i := range 40 {
		m.addNotice(fmt.Sprintf("note number %d", i))
	}
	if !strings.Contains(m.plain(), "note number 39") {
		t.Fatal("the view does not follow the bottom")
	}
	m.drive(press(tea.KeyPgUp))
	v := m.plain()
	if strings.Contains(v, "note number 39") || !strings.Contains(v, "note number 30") {
		t.Errorf("page up did not scroll:\n%s", v)
	}
	m.conv.add(&entry{kind: entryNotice, text: "a new note"})
	if strings.Contains(m.plain(), "a new note") || !strings.Contains(m.plain(), "note number 30") {
		t.Error("new lines moved a scrolled-up view")
	}
	for range 3 {
		m.drive(press(tea.KeyPgUp))
	}
	if !strings.Contains(m.plain(), "note number 0") {
		t.Errorf("page up did not reach the top:\n%s", m.plain())
	}
	for range 10 {
		m.drive(press(tea.KeyPgDown))
	}
	if !m.conv.follow || !strings.Contains(m.plain(), "a new note") {
		t.Errorf("page down did not come back to the bottom:\n%s", m.plain())
	}
}

// FuzzTurnLines renders a turn whose answer, tool response and tool name
// are arbitrary text: no line may pass the width, and nothing but colour
// and style codes (SGR) may reach the terminal.
func FuzzTurnLines(f *testing.F) {
	for _, seed := range []string{"391", hostile, markdownAnswer, "\t\ttabs\tand\x00nul", "👍🏽 wide 漢字 text",
		strings.Repeat("x", 300), "```\n" + strings.Repeat("y", 200) + "\n```", "# head\n\n| a | b |\n|---|---|\n| 1 | 2 |"} {
		f.Add(seed, 80)
	}
	sgr := regexp.MustCompile(`\x1b\[[0-9;]*m`)
	f.Fuzz(func(t *testing.T, text string, width int) {
		width = 20 + abs(width)%200
		r := lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(termenv.TrueColor)
		r.SetHasDarkBackground(true)
		m, err := New(t.Context(), Options{Agent: newFakeAgent(t), Renderer: r, Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		for _, by := range []store.Answerer{store.AnsweredByModel, store.AnsweredByTool} {
			rec := calcRecord()
			rec.Answer, rec.AnsweredBy, rec.Call.Response, rec.Tool = text, by, text, text
			e := &entry{kind: entryTurn, input: text, rec: rec, expanded: true}
			for i, l := range m.paint.lines(e, width) {
				if w := ansi.StringWidth(l); w > width {
					t.Fatalf("line %d is %d wide at %d: %q", i, w, width, l)
				}
				rest := sgr.ReplaceAllString(l, "")
				if strings.ContainsAny(rest, "\x1b\x07\r\u009b\u009d\u202e") || strings.Contains(rest, "\x9b") {
					t.Fatalf("line %d carries a control sequence: %q", i, l)
				}
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
