package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// The start-up check of the model servers runs in the
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
	h := newHarness(t, m)
	h.drive(func() tea.Msg { return h.Init()() }())
	v := h.plain()
	if calls != 1 || strings.Count(v, "server unreachable") != 1 || strings.Count(v, "using OpenAI") != 1 {
		t.Errorf("the check ran %d times; want its warning once:\n%s", calls, v)
	}
}

// The chat window prepares grounding (the library's embeddings) when it
// starts, before any question, so no turn pays for it; a failure is said
// once.
func TestStartupPreparesGrounding(t *testing.T) {
	t.Parallel()
	for _, fail := range []bool{false, true} {
		a := newFakeAgent(t)
		if fail {
			a.prepareErr = errors.New("embed: server unreachable")
		}
		m, err := New(context.Background(), Options{Agent: a, Renderer: testRenderer(), Now: testNow, Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		h := newHarness(t, m)
		h.drive(func() tea.Msg { return h.Init()() }())
		if got := a.prepared.Load(); got != 1 || len(a.started) != 0 {
			t.Errorf("start-up: Prepare ran %d times with %d turns started; want once, before any turn", got, len(a.started))
		}
		if v := h.plain(); fail != strings.Contains(v, "Grounding could not prepare the tools: embed: server unreachable") {
			t.Errorf("failing %v: the screen:\n%s", fail, v)
		}
	}
}

// The input grows with its text and keeps its first
// row in view; past its height it scrolls with the cursor.
func TestInputKeepsItsFirstRow(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {60, 20}} {
		m := newTestModel(t, newFakeAgent(t), nil, size[0], size[1])
		m.typeText("first row")
		m.drive(tea.KeyMsg{Type: tea.KeyEnter, Alt: true})
		m.typeText("second row")
		v := m.plain()
		if !strings.Contains(v, "› first row") || !strings.Contains(v, "  second row") {
			t.Errorf("%dx%d: both rows should show:\n%s", size[0], size[1], v)
		}
		m.Model.in.reset()
		m.drive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("one\ntwo\nthree"), Paste: true})
		v = m.plain()
		for _, want := range []string{"› one", "  two", "  three"} {
			if !strings.Contains(v, want) {
				t.Errorf("%dx%d: a pasted block should show %q:\n%s", size[0], size[1], want, v)
			}
		}
	}
}

// A paste taller than the input box scrolls with the cursor, and the
// rule above the box says where the cursor is, so the rest is known to be
// there; ↑ walks back to the first line.
func TestLongPasteShowsItsScrollPosition(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {60, 20}} {
		m := newTestModel(t, newFakeAgent(t), nil, size[0], size[1])
		var lines []string
		for i := 1; i <= 20; i++ {
			lines = append(lines, fmt.Sprintf("pasted line %d", i))
		}
		m.drive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Join(lines, "\n")), Paste: true})
		v := m.plain()
		if !strings.Contains(v, "line 20 of 20") || !strings.Contains(v, "pasted line 20") || strings.Contains(v, "pasted line 1\n") {
			t.Errorf("%dx%d: the box should show the end of the paste and say line 20 of 20:\n%s", size[0], size[1], v)
		}
		for range 19 {
			m.drive(press(tea.KeyUp))
		}
		v = m.plain()
		if !strings.Contains(v, "line 1 of 20") || !strings.Contains(v, "› pasted line 1") {
			t.Errorf("%dx%d: ↑ should scroll back to the first line:\n%s", size[0], size[1], v)
		}
		m.Model.in.reset()
		m.drive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("word ", 200)), Paste: true})
		if v := m.plain(); !strings.Contains(v, " of ") || !strings.Contains(v, "row ") {
			t.Errorf("%dx%d: one long wrapped line should say which row shows:\n%s", size[0], size[1], v)
		}
		m.Model.in.reset()
		m.typeText("short")
		if v := m.plain(); strings.Contains(v, "scroll") {
			t.Errorf("%dx%d: a line that fits needs no position:\n%s", size[0], size[1], v)
		}
	}
}

// Ctrl+c at the confirm prompt while the input holds text cancels the
// turn (the prompt is not answered), and the typed text stays.
func TestCtrlCAtTheGateKeepsTypedText(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {60, 20}} {
		turn := gateTurn()
		m := newTestModel(t, newFakeAgent(t, turn), &fakeHistory{}, size[0], size[1])
		m.typeText("what is 17 * 23")
		m.drive(press(tea.KeyEnter))
		if m.gate == nil {
			t.Fatal("the gate did not open")
		}
		m.typeText("hello there")
		m.drive(press(tea.KeyCtrlC))
		if !turn.wasCancelled() || len(turn.confirmations()) != 0 {
			t.Errorf("%dx%d: ctrl+c should cancel the turn without answering (cancelled %v, confirmed %v)",
				size[0], size[1], turn.wasCancelled(), turn.confirmations())
		}
		v := m.plain()
		if m.gate != nil || strings.Contains(v, "Which tool?") {
			t.Errorf("%dx%d: the prompt should close:\n%s", size[0], size[1], v)
		}
		if m.in.value() != "hello there" || !strings.Contains(v, "› hello there") || !strings.Contains(v, "Cancelling the turn") {
			t.Errorf("%dx%d: the typed text stays (%q) and the cancel is said:\n%s", size[0], size[1], m.in.value(), v)
		}
	}
}

// Text typed while the confirm prompt is open goes to
// the input, and enter then does not answer the prompt.
func TestTypingAtTheGateIsKept(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {60, 20}} {
		turn := gateTurn()
		m := newTestModel(t, newFakeAgent(t, turn), &fakeHistory{}, size[0], size[1])
		m.typeText("what is 17 * 23")
		m.drive(press(tea.KeyEnter))
		if m.gate == nil {
			t.Fatal("the gate did not open")
		}
		m.typeText("hello there 2")
		m.drive(press(tea.KeyEnter))
		if got := turn.confirmations(); len(got) != 0 {
			t.Fatalf("%dx%d: typing and enter answered the prompt with %v", size[0], size[1], got)
		}
		v := m.plain()
		if m.in.value() != "hello there 2" || !strings.Contains(v, "Answer the prompt first") {
			t.Errorf("%dx%d: the text should stay in the input (%q) with a hint:\n%s", size[0], size[1], m.in.value(), v)
		}
		m.in.reset()
		m.drive(runes("1"))
		if got := turn.confirmations(); len(got) != 1 || got[0] != "Calculator" {
			t.Errorf("%dx%d: with an empty input, 1 picks the first: %v", size[0], size[1], got)
		}
	}
}

// Offline without a chat model the gate does
// not offer "answer without a tool" (esc cancels), its lines wrap at 60
// columns, and its percentages have no decimals.
func TestGateOffersOnlyWhatCanAnswer(t *testing.T) {
	t.Parallel()
	turn := gateTurn()
	m := newTestModel(t, newFakeAgent(t, turn), &fakeHistory{}, 60, 20)
	m.typeText("what is 17 * 23")
	m.drive(press(tea.KeyEnter))
	v := m.plain()
	if strings.Contains(v, "without a tool") || !strings.Contains(v, "esc cancels the question") {
		t.Errorf("offline, the gate should offer esc to cancel, not to answer without a tool:\n%s", v)
	}
	if !strings.Contains(v, "Grounding is only 49% sure (it asks under 50%).") || !strings.Contains(v, "Which tool?") {
		t.Errorf("the prompt should wrap, whole, at 60 columns:\n%s", v)
	}
	m.drive(press(tea.KeyEsc))
	if !turn.wasCancelled() || len(turn.confirmations()) != 0 {
		t.Errorf("esc should cancel the turn (cancelled %v, confirmed %v)", turn.wasCancelled(), turn.confirmations())
	}
}

// Ctrl+c cancels a running turn and keeps its partial
// answer; the turn's hint goes when it ends; ctrl+c clears a typed line;
// on an empty input it arms quitting.
func TestCtrlCCancelsTheRunningTurn(t *testing.T) {
	t.Parallel()
	turn := newFakeTurn(nil, nil)
	m := newTestModel(t, newFakeAgent(t, turn), nil, 120, 40)
	m.typeText("tell me a long story")
	m.Update(press(tea.KeyEnter))
	m.Update(turnStartedMsg{turn: turn})
	m.Update(turnEventMsg{turn: turn, event: agent.AnswerDelta{Text: "Once upon"}, ok: true})
	m.drive(press(tea.KeyCtrlC))
	if !turn.wasCancelled() {
		t.Fatal("ctrl+c did not cancel the turn")
	}
	if !strings.Contains(m.plain(), "Cancelling the turn") {
		t.Errorf("no word on the cancellation:\n%s", m.plain())
	}
	rec := agent.Record{TurnID: 4, Status: store.StatusCancelled, Error: "cancelled", Answer: "Once upon"}
	m.drive(turnEventMsg{turn: turn, event: agent.Cancelled{Record: rec}, ok: true})
	v := m.plain()
	if !strings.Contains(v, "Once upon") || !strings.Contains(v, "cancelled") || strings.Contains(v, "Cancelling the turn") {
		t.Errorf("the partial answer stays, marked cancelled, and the hint goes:\n%s", v)
	}
	m.quitArmed = false
	m.typeText("draft")
	m.drive(press(tea.KeyCtrlC))
	if m.in.value() != "" || m.quitArmed {
		t.Errorf("ctrl+c on a typed line should clear it without arming quit (input %q, armed %v)", m.in.value(), m.quitArmed)
	}
	m.drive(press(tea.KeyCtrlC))
	if !m.quitArmed || !strings.Contains(m.plain(), "Press ctrl+c again to quit") {
		t.Errorf("ctrl+c on an empty input should arm quitting:\n%s", m.plain())
	}
}

// The card shows the call that ran with its result, and
// the route line names its own number.
func TestCardShowsTheCallThatRan(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {60, 20}} {
		m := newTestModel(t, newFakeAgent(t, newFakeTurn(calcEvents(), nil)), nil, size[0], size[1])
		m.typeText("what is 17 * 23")
		m.drive(press(tea.KeyEnter))
		v := m.plain()
		for _, want := range []string{"│ Calculator(17 * 23) → 391", "│ needs a tool: 96%", "76% confidence"} {
			if !strings.Contains(v, want) {
				t.Errorf("%dx%d: the card lacks %q:\n%s", size[0], size[1], want, v)
			}
		}
		if strings.Contains(v, ".8%") || strings.Contains(v, "route: tool") {
			t.Errorf("%dx%d: a percentage with decimals, or the old route line:\n%s", size[0], size[1], v)
		}
	}
}

// The key line is never cut mid-word (the few keys that
// fit, /help first), headings are not shown as "## ", and the status line
// does not spend itself on the database path.
func TestLayoutAtEachSize(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {60, 20}} {
		m := newTestModel(t, newFakeAgent(t, newFakeTurn(calcEvents(), nil)), &fakeHistory{}, size[0], size[1])
		m.typeText("what is 17 * 23")
		m.drive(press(tea.KeyEnter))
		lines := strings.Split(m.plain(), "\n")
		help, status := lines[len(lines)-1], lines[len(lines)-2]
		if strings.Contains(help, "…") || !strings.HasPrefix(help, "/help") {
			t.Errorf("%dx%d: the key line %q should start with /help and not be cut", size[0], size[1], help)
		}
		if strings.Contains(status, "gear.db") {
			t.Errorf("%dx%d: the status line shows the database path: %q", size[0], size[1], status)
		}
		m.conv.toBottom()
		if v := m.plain(); strings.Contains(v, "## ") {
			t.Errorf("%dx%d: a heading shown with its marks:\n%s", size[0], size[1], v)
		}
	}
	m := newTestModel(t, newFakeAgent(t), &fakeHistory{}, 120, 40)
	m.typeText("/help")
	m.drive(press(tea.KeyEnter))
	help := m.conv.entries[len(m.conv.entries)-1].text
	if !strings.Contains(help, "/data/gear/gear.db") || !strings.Contains(help, "gear setup") {
		t.Errorf("/help should name the database and how to connect a chat model:\n%s", help)
	}
}

// /mode baseline without a chat model says it cannot
// answer anything.
func TestBaselineOfflineSaysItCannotAnswer(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, newFakeAgent(t), nil, 120, 40)
	m.typeText("/mode baseline")
	m.drive(press(tea.KeyEnter))
	if v := strings.Join(strings.Fields(m.plain()), " "); !strings.Contains(v, "cannot answer anything in this mode") {
		t.Errorf("/mode baseline offline:\n%s", v)
	}
}

// A typed call that fails does not say "no tool was
// chosen" under "you named it".
func TestFailedTypedCallIsNotContradicted(t *testing.T) {
	t.Parallel()
	rec := agent.Record{Input: "/GEAR Calculator(48 * )", Mode: store.ModeDirect, Status: store.StatusFailed,
		Error: "the call was not run: at column 17: expression ends where a number was expected",
		Route: &agent.Route{NeedsTool: true, By: "user"}}
	m := newTestModel(t, newFakeAgent(t, newFakeTurn([]agent.Event{agent.Failed{Record: rec}}, nil)), nil, 60, 20)
	m.typeText(rec.Input)
	m.drive(press(tea.KeyEnter))
	v := m.plain()
	if strings.Contains(v, "no tool was chosen") || !strings.Contains(v, "the call you typed was not run") {
		t.Errorf("the card contradicts itself:\n%s", v)
	}
}

// Opening the card at 60x20 keeps its header in view.
func TestDetailsKeepTheCardHeader(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, newFakeAgent(t, newFakeTurn(calcEvents(), nil)), &fakeHistory{}, 60, 20)
	m.typeText("what is 17 * 23")
	m.drive(press(tea.KeyEnter))
	m.drive(press(tea.KeyCtrlG))
	v := m.plain()
	if !strings.Contains(v, "you › what is 17 * 23") || !strings.Contains(v, "│ needs a tool: 96%") {
		t.Errorf("the open card lost its header:\n%s", v)
	}
	m.drive(press(tea.KeyPgDown))
	if v := m.plain(); !strings.Contains(v, "response 391") {
		t.Errorf("page down reads on:\n%s", v)
	}
}

// A search hit shows the query once, then where the
// match is when it is not in the query.
func TestSearchRowsSayWhereTheMatchIs(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 11, 21, 9, 5, 0, 0, time.UTC)
	h := &fakeHistory{hits: []store.Hit{
		{ConversationID: 1, TurnID: 1, Source: "user", Snippet: "weather in Lisbon", Query: "weather in Lisbon",
			Highlights: []store.Highlight{{Start: 11, End: 17}}, Started: day},
		{ConversationID: 2, TurnID: 2, Source: "assistant", Snippet: "…sunny in Lisbon tomorrow", Query: "will it rain",
			Highlights: []store.Highlight{{Start: 12, End: 18}}, Started: day},
	}}
	m := newTestModel(t, newFakeAgent(t), h, 120, 40)
	m.typeText("/history lisbon")
	m.drive(press(tea.KeyEnter))
	v := m.plain()
	if strings.Count(v, "weather in Lisbon") != 1 {
		t.Errorf("a match in the query should show the query once:\n%s", v)
	}
	if !strings.Contains(v, "will it rain  · answer: …sunny in Lisbon tomorrow") {
		t.Errorf("a match in the answer should say so:\n%s", v)
	}
}

// The questionnaire in the chat window sits at the
// bottom above the status line, not in the top rows over a blank screen.
func TestSurveyFormSitsAtTheBottom(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {60, 20}} {
		m := newTestModel(t, newFakeAgent(t), nil, size[0], size[1])
		m.surveyOpener = func(context.Context, int, int) (SurveyForm, error) { return &fakeForm{}, nil }
		m.typeText("/survey")
		m.drive(press(tea.KeyEnter))
		lines := strings.Split(m.plain(), "\n")
		if len(lines) != size[1] || !strings.HasPrefix(lines[len(lines)-2], "Q1. How would you rate gear?") ||
			strings.TrimSpace(lines[0]) != "" {
			t.Errorf("%dx%d: the form should end just above the status line:\n%s", size[0], size[1], m.plain())
		}
	}
}

// A hint about the running turn goes when the turn ends.
func TestTurnHintGoesWithTheTurn(t *testing.T) {
	t.Parallel()
	turn := newFakeTurn(nil, nil)
	m := newTestModel(t, newFakeAgent(t, turn), nil, 120, 40)
	m.typeText("slow question")
	m.Update(press(tea.KeyEnter))
	m.Update(turnStartedMsg{turn: turn})
	m.typeText("/new")
	m.drive(press(tea.KeyEnter))
	if !strings.Contains(m.plain(), "A turn is running") {
		t.Fatalf("no hint while the turn runs:\n%s", m.plain())
	}
	m.drive(turnEventMsg{turn: turn, event: agent.Done{Record: agent.Record{Status: store.StatusDone, Answer: "done"}}, ok: true})
	if strings.Contains(m.plain(), "A turn is running") {
		t.Errorf("the hint outlived the turn:\n%s", m.plain())
	}
}
