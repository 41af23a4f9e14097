package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// storeWith opens a history in a temporary directory holding the given
// finished turns in one conversation, as the agent records them.
func storeWith(t *testing.T, recs ...agent.Record) (*store.Store, int64) {
	t.Helper()
	return storeWithEngines(t, offlineEngines(), recs...)
}

func TestRatingsAreStoredAgainstTheTurn(t *testing.T) {
	t.Parallel()
	st, conv := storeWith(t, calcRecord())
	turns, err := st.Turns(context.Background(), conv)
	if err != nil || len(turns) != 1 {
		t.Fatalf("turns %v, %v", turns, err)
	}
	id := turns[0].TurnID
	events := calcEvents()
	rec := calcRecord()
	rec.ConversationID, rec.TurnID = conv, id
	events[0] = agent.Started{ConversationID: conv, TurnID: id, Mode: store.ModeChat, Query: rec.Query}
	events[len(events)-1] = agent.Done{Record: rec}
	m := newTestModel(t, newFakeAgent(t, newFakeTurn(events, nil)), st, 80, 24)

	m.drive(press(tea.KeyCtrlY))
	if !strings.Contains(m.plain(), "There is no answer to rate yet.") {
		t.Errorf("rating before any answer should say there is none:\n%s", m.plain())
	}
	m.typeText("what is 17 * 23")
	m.drive(press(tea.KeyEnter))
	if v := m.plain(); !strings.Contains(v, "ctrl+y 👍") || !strings.Contains(v, "ctrl+t wrong tool") {
		t.Errorf("after an answer the help line should offer the ratings:\n%s", v)
	}

	rating := func() store.Rating {
		t.Helper()
		got, err := st.Turn(context.Background(), id)
		if err != nil || got.Rating == nil {
			t.Fatalf("turn %d has no rating: %v", id, err)
		}
		return *got.Rating
	}
	m.drive(press(tea.KeyCtrlY))
	if r := rating(); r.Score != store.ScoreUp || r.WrongTool {
		t.Errorf("after 👍: %+v", r)
	}
	if !strings.Contains(m.plain(), "Calculator · tool 76% · grounding: offline engine · 👍") {
		t.Errorf("the badge does not show 👍:\n%s", m.plain())
	}

	m.drive(press(tea.KeyCtrlT))
	if v := m.plain(); !strings.Contains(v, "Which tool did you want?") || !strings.Contains(v, "6 WikiSearch") {
		t.Fatalf("the tool picker is not shown:\n%s", v)
	}
	m.drive(press(tea.KeyDown), press(tea.KeyDown), press(tea.KeyUp), press(tea.KeyEnter))
	if r := rating(); !r.WrongTool || r.WantedTool != "CurrentTime" || r.Score != store.ScoreUp {
		t.Errorf("after wrong tool → CurrentTime: %+v (the 👍 should stay)", r)
	}
	m.drive(press(tea.KeyCtrlX))
	if r := rating(); r.Score != store.ScoreDown || !r.WrongTool || r.WantedTool != "CurrentTime" {
		t.Errorf("after 👎: %+v (the wrong-tool flag should stay)", r)
	}
	if !strings.Contains(strings.Join(strings.Fields(m.plain()), " "), "👎 wrong tool → CurrentTime") {
		t.Errorf("the badge does not show the rating:\n%s", m.plain())
	}
	m.typeText("/rate wrong wikisearch the answer is a lookup")
	m.drive(press(tea.KeyEnter))
	if r := rating(); r.WantedTool != "WikiSearch" || r.Comment != "the answer is a lookup" {
		t.Errorf("after /rate wrong: %+v", r)
	}
	m.typeText("/rate wrong Nope")
	m.drive(press(tea.KeyEnter))
	if !strings.Contains(m.plain(), "there is no tool called Nope") {
		t.Errorf("an unknown tool should be refused:\n%s", m.plain())
	}
}

// "No tool was needed" is the picker's last choice and /rate wrong none:
// a wrong-tool rating whose wanted tool is store.WantedNone.
func TestNoToolNeededIsAWrongToolRating(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"picker", "/rate wrong none", "/rate wrong NONE"} {
		t.Run(how, func(t *testing.T) {
			st, conv := storeWith(t, calcRecord())
			turns, err := st.Turns(context.Background(), conv)
			if err != nil || len(turns) != 1 {
				t.Fatalf("turns %v, %v", turns, err)
			}
			events := calcEvents()
			rec := calcRecord()
			rec.ConversationID, rec.TurnID = conv, turns[0].TurnID
			events[len(events)-1] = agent.Done{Record: rec}
			m := newTestModel(t, newFakeAgent(t, newFakeTurn(events, nil)), st, 80, 24)
			m.typeText("what is 17 * 23")
			m.drive(press(tea.KeyEnter))
			comment := ""
			if how == "picker" {
				m.drive(press(tea.KeyCtrlT))
				if v := m.plain(); !strings.Contains(v, "7 none (no tool needed)") {
					t.Fatalf("the picker does not offer none:\n%s", v)
				}
				m.drive(runes("7"))
				if v := m.plain(); !strings.Contains(v, "Saved: wrong tool, no tool was needed.") {
					t.Errorf("the saved hint is missing:\n%s", v)
				}
			} else {
				comment = "it is just arithmetic"
				m.typeText(how + " " + comment)
				m.drive(press(tea.KeyEnter))
			}
			got, err := st.Turn(context.Background(), rec.TurnID)
			if err != nil || got.Rating == nil {
				t.Fatalf("no rating stored: %v", err)
			}
			if r := *got.Rating; !r.WrongTool || r.WantedTool != store.WantedNone || r.Comment != comment {
				t.Errorf("stored rating %+v, want wrong tool, wanted %q, comment %q", r, store.WantedNone, comment)
			}
			if v := m.plain(); !strings.Contains(v, "Calculator · tool 76% · grounding: offline engine · no tool needed") {
				t.Errorf("the badge does not say no tool was needed:\n%s", v)
			}
		})
	}
}

func TestResumeShowsTheLastConversation(t *testing.T) {
	t.Parallel()
	st, conv := storeWith(t, calcRecord(), adelaideRecord())
	m := newTestModel(t, newFakeAgent(t), st, 80, 24)
	m.resume = true
	m.drive(m.Init()())
	v := m.plain()
	for _, want := range []string{"you › what is 17 * 23", "Calculator · tool 76% · grounding: offline engine",
		"you › /GEAR what time is it in Adelaide", "CurrentTime · tool 97% · grounding: offline engine", "Resumed conversation #1 (2 turns"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if m.conversationID != conv {
		t.Errorf("conversation %d, want %d", m.conversationID, conv)
	}
	m.drive(press(tea.KeyUp))
	if m.in.value() != "/GEAR what time is it in Adelaide" {
		t.Errorf("↑ should recall the resumed conversation's last line, got %q", m.in.value())
	}
}

func TestResumeDoesNotReplaceANewTurn(t *testing.T) {
	t.Parallel()
	st, _ := storeWith(t, calcRecord())
	turn := newFakeTurn(nil, nil)
	m := newTestModel(t, newFakeAgent(t, turn), st, 80, 24)
	m.resume = true
	load := m.Init()
	m.typeText("a question typed at once")
	m.Update(press(tea.KeyEnter))
	m.drive(load())
	if v := m.plain(); strings.Contains(v, "Resumed") || !strings.Contains(v, "a question typed at once") {
		t.Errorf("the resumed conversation replaced the new question:\n%s", v)
	}
}

func TestHistoryBrowsesSearchesAndReopens(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 11, 21, 9, 5, 0, 0, time.UTC)
	h := &fakeHistory{
		convs: []store.Conversation{
			{ID: 1, NewConversation: store.NewConversation{Title: "what is 17 * 23", Mode: store.ModeChat}, Updated: day, TurnCount: 2},
			{ID: 2, NewConversation: store.NewConversation{Title: "weather in Lisbon", Mode: store.ModeChat}, Updated: day.Add(time.Hour), TurnCount: 1},
		},
		turns: map[int64][]store.Turn{1: {{TurnRecord: calcRecord().StoreRecord(), ConversationID: 1,
			Query: "what is 17 * 23", Mode: store.ModeChat}}},
		hits: []store.Hit{{ConversationID: 1, TurnID: 1, Source: "user", Snippet: "what is 17 * 23",
			Highlights: []store.Highlight{{Start: 8, End: 10}}, Query: "what is 17 * 23", Tool: "Calculator",
			Confidence: 0.76, Grounded: true, Started: day}},
	}
	m := newTestModel(t, newFakeAgent(t), h, 80, 24)
	m.typeText("/history")
	m.drive(press(tea.KeyEnter))
	v := m.plain()
	if !strings.Contains(v, "History — recent conversations") || strings.Index(v, "weather in Lisbon") > strings.Index(v, "what is 17") {
		t.Fatalf("the browser should list the newest conversation first:\n%s", v)
	}
	m.typeText("17")
	if len(h.search) == 0 || h.search[len(h.search)-1] != "17" {
		t.Errorf("searched %q, want the typed word", h.search)
	}
	if v := m.plain(); !strings.Contains(v, "1 turn found") || !strings.Contains(v, "#1    2026-11-21 09:05  what is 17 * 23  Calculator 76%") {
		t.Fatalf("the hit is not listed:\n%s", v)
	}
	m.drive(press(tea.KeyEnter))
	if m.browser != nil {
		t.Fatal("enter should close the browser")
	}
	if v := m.plain(); !strings.Contains(v, "Reopened conversation #1") || !strings.Contains(v, "Calculator · tool 76% · grounding: offline engine") {
		t.Errorf("the conversation was not reopened:\n%s", v)
	}
	m.typeText("/history lisbon")
	m.drive(press(tea.KeyEnter))
	if h.search[len(h.search)-1] != "lisbon" {
		t.Errorf("/history WORDS should search at once, searched %q", h.search)
	}
	m.drive(press(tea.KeyEsc))
	if m.browser != nil {
		t.Error("esc should close the browser")
	}
}

func TestAsPrefix(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"adel": "adel*", "17": "17*", "tool:weather": "tool:weather",
		"new york ": "new york ", `"new york"`: `"new york"`, "": ""} {
		if got := asPrefix(in); got != want {
			t.Errorf("asPrefix(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReopeningASearchHitShowsItsTurn(t *testing.T) {
	t.Parallel()
	var turns []store.Turn
	for i := range 12 {
		rec := calcRecord()
		rec.TurnID = int64(i + 1)
		turns = append(turns, store.Turn{TurnRecord: rec.StoreRecord(), ConversationID: 1,
			Query: fmt.Sprintf("question %d: what is 17 * 23", i+1), Mode: store.ModeChat})
	}
	h := &fakeHistory{
		convs: []store.Conversation{{ID: 1, NewConversation: store.NewConversation{Title: "question 1"}, Updated: testNow()}},
		turns: map[int64][]store.Turn{1: turns},
		hits:  []store.Hit{{ConversationID: 1, TurnID: 3, Snippet: "question 3", Query: "question 3: what is 17 * 23", Started: testNow()}},
	}
	m := newTestModel(t, newFakeAgent(t), h, 80, 24)
	m.typeText("/history question 3")
	m.drive(press(tea.KeyEnter))
	m.drive(press(tea.KeyEnter))
	lines := strings.Split(m.plain(), "\n")
	if !strings.HasPrefix(lines[0], "you › question 3: what is 17 * 23") {
		t.Errorf("the found turn should open at the top of the view:\n%s", m.plain())
	}
}
