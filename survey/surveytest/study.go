// Package surveytest writes a generated user study into real history
// databases through the store and survey APIs, with distributions chosen
// so that every figure of the report is known exactly. The survey and cli
// tests share it.
package surveytest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
)

// Participants is the study's size, as in the paper.
const Participants = 50

// toolFamilies is the library the study used: gear's built-in tools,
// name and family.
func toolFamilies() [][2]string {
	return [][2]string{
		{"Calculator", "calc"}, {"CurrentTime", "timezone"}, {"TimezoneConverter", "timezone"},
		{"WeatherSearch", "weather"}, {"LocationSearch", "location"}, {"WikiSearch", "wiki"},
	}
}

// ToolNames are the study's tools in library order.
func ToolNames() []string {
	tf := toolFamilies()
	out := make([]string, len(tf))
	for i, t := range tf {
		out[i] = t[0]
	}
	return out
}

// category is one kind of rated gear turn: per participant PerParticipant
// turns with Tool ("" for answered without a tool), Up of all of them
// rated up (the first Up in participant order), Flags of the rated-down
// ones flagged "wrong tool" naming Wanted.
type category struct {
	Tool           string
	PerParticipant int
	Up             int
	Flags          int
	Wanted         string
}

// The gear arm: 20 rated turns a participant, 1000 in all, 784 up (the
// paper's 78.4%); per tool CurrentTime 100/100 (the paper's 100% for
// time) down to WikiSearch 101/200 (the paper's 50.5% for translation);
// 80 flagged wrong, so grounding is right in 920 of 1000.
func gearCategories() []category {
	return []category{
		{"CurrentTime", 2, 100, 0, ""},
		{"WikiSearch", 4, 101, 40, "LocationSearch"},
		{"WeatherSearch", 5, 220, 10, "LocationSearch"},
		{"Calculator", 3, 140, 0, ""},
		{"TimezoneConverter", 2, 90, 0, ""},
		{"LocationSearch", 1, 40, 0, ""},
		{"", 3, 93, 30, "WikiSearch"},
	}
}

// Baseline arm: 20 rated turns a participant, 615 of 1000 up (61.5%, so
// gear is 16.9 points ahead, as in the paper), and 2 unrated.
const (
	BaselineRatedPerParticipant = 20
	BaselineUp                  = 615
	baselineUnrated             = 2
)

// Secret is in every free text the study writes (queries, answers,
// comments, open-ended answers): an anonymized report must not contain it.
const Secret = "kestrel-7Q"

// ParticipantID is participant i's id.
func ParticipantID(i int) string { return fmt.Sprintf("p-study-%02d", i) }

// Write writes the study into dir, perFile participants to a database
// (1: a file each, as a study gathers them; 10: five files), and returns
// the paths.
func Write(tb testing.TB, dir string, perFile int) []string {
	tb.Helper()
	ctx := context.Background()
	g := &generator{tb: tb, ctx: ctx, ups: map[string]int{}, flags: map[string]int{}}
	var paths []string
	for first := 0; first < Participants; first += perFile {
		path := filepath.Join(dir, fmt.Sprintf("study-%02d.db", first/perFile+1))
		paths = append(paths, path)
		tick := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
		st, err := store.Open(ctx, path, store.Options{Now: func() time.Time {
			tick = tick.Add(time.Second)
			return tick
		}})
		if err != nil {
			tb.Fatal(err)
		}
		for i := first; i < first+perFile && i < Participants; i++ {
			g.participant(st, i, tick)
		}
		if err := st.Close(); err != nil {
			tb.Fatal(err)
		}
	}
	return paths
}

type generator struct {
	tb  testing.TB
	ctx context.Context
	// ups and flags count, per category, the turns given so far.
	ups, flags map[string]int
	baseUps    int
}

func (g *generator) must(err error) {
	g.tb.Helper()
	if err != nil {
		g.tb.Fatal(err)
	}
}

func (g *generator) participant(st *store.Store, i int, now time.Time) {
	id := ParticipantID(i)
	_, _, err := survey.StartPhase(g.ctx, st, survey.PhaseBaseline, id, now)
	g.must(err)
	conv, err := st.CreateConversation(g.ctx, store.NewConversation{Mode: store.ModeBaseline})
	g.must(err)
	for k := 0; k < BaselineRatedPerParticipant+baselineUnrated; k++ {
		ref := g.begin(st, conv, fmt.Sprintf("tell me something nice %d (%s %s)", k, id, Secret), store.ModeBaseline)
		g.must(st.FinishTurn(g.ctx, store.TurnRecord{TurnID: ref.TurnID, Status: store.StatusDone, Answer: "A nice thing."}))
		if k < BaselineRatedPerParticipant {
			score := store.ScoreDown
			if g.baseUps < BaselineUp {
				score = store.ScoreUp
				g.baseUps++
			}
			g.must(st.Rate(g.ctx, store.Rating{TurnID: ref.TurnID, Score: score}))
		}
	}

	_, _, err = survey.StartPhase(g.ctx, st, survey.PhaseGear, "", now.Add(14*24*time.Hour))
	g.must(err)
	conv, err = st.CreateConversation(g.ctx, store.NewConversation{Mode: store.ModeChat})
	g.must(err)
	for _, c := range gearCategories() {
		for k := 0; k < c.PerParticipant; k++ {
			ref := g.toolTurn(st, conv, c.Tool, fmt.Sprintf("question %d for %s (%s %s)", k, c.Tool, id, Secret))
			r := store.Rating{TurnID: ref.TurnID, Score: store.ScoreDown, Comment: "comment " + Secret}
			if g.ups[c.Tool] < c.Up {
				r.Score = store.ScoreUp
				g.ups[c.Tool]++
			} else if g.flags[c.Tool] < c.Flags {
				r.WrongTool, r.WantedTool = true, c.Wanted
				g.flags[c.Tool]++
			}
			g.must(st.Rate(g.ctx, r))
		}
	}
	// Rated without thumbs (a comment only): in no ratio.
	ref := g.toolTurn(st, conv, "CurrentTime", "what time is it "+Secret)
	g.must(st.Rate(g.ctx, store.Rating{TurnID: ref.TurnID, Comment: "no verdict " + Secret}))
	// Unrated.
	g.toolTurn(st, conv, "WeatherSearch", "weather in Lisbon "+Secret)
	g.toolTurn(st, conv, "", "hello there "+Secret)
	// An exact call in direct mode: a tool ran, no grounding.
	ref = g.begin(st, conv, "Calculator(17 * 23)", store.ModeDirect)
	g.must(st.FinishTurn(g.ctx, store.TurnRecord{TurnID: ref.TurnID, Status: store.StatusDone, Route: store.RouteTool,
		RouteBy: store.RouteByUser, Tool: "Calculator", ToolFamily: "calc", ChosenBy: store.ChosenByCall,
		Emission: store.EmissionExact, Answer: "391", AnsweredBy: store.AnsweredByTool,
		Calls: []store.ToolCall{{Tool: "Calculator", Call: "Calculator(17 * 23)", Check: store.CallValidated, Response: "391"}}}))

	g.questionnaires(st, i)
}

func (g *generator) begin(st *store.Store, conv int64, query string, mode store.Mode) store.TurnRef {
	ref, err := st.BeginTurn(g.ctx, conv, query, mode)
	g.must(err)
	return ref
}

// toolTurn records a chat turn grounded to tool ("" routes to none).
func (g *generator) toolTurn(st *store.Store, conv int64, tool, query string) store.TurnRef {
	ref := g.begin(st, conv, query, store.ModeChat)
	// As the agent records them: a turn routed to no tool is grounded and
	// keeps the grounding scores, but no confidence.
	rec := store.TurnRecord{TurnID: ref.TurnID, Status: store.StatusDone, Route: store.RouteNone,
		RouteBy: store.RouteByThreshold, RouteProbability: 0.3, RouteThreshold: 0.5, Grounded: true,
		Answer: "An answer about " + Secret, AnsweredBy: store.AnsweredByModel}
	top := tool
	if tool == "" {
		top = "WikiSearch"
	} else {
		rec.Route, rec.RouteProbability, rec.Tool, rec.ChosenBy = store.RouteTool, 0.9, tool, store.ChosenByGrounding
		rec.Confidence, rec.Emission = 0.8, store.EmissionOffline
		rec.Calls = []store.ToolCall{{Tool: tool, Call: tool + `("` + Secret + `")`, Check: store.CallValidated, Response: "result " + Secret}}
	}
	for _, tf := range toolFamilies() {
		s := store.GroundingScore{Tool: tf[0], Family: tf[1], Semantic: 0.1, Pattern: 0.1, Final: 0.1, ResponseKind: store.ResponseMock}
		if tf[0] == top {
			s.Semantic, s.Final = 0.6, 0.475
		}
		if tf[0] == tool {
			rec.ToolFamily = tf[1]
		}
		rec.Grounding = append(rec.Grounding, s)
	}
	g.must(st.FinishTurn(g.ctx, rec))
	return ref
}

// questionnaires saves participant i's answers: one complete response
// each, an earlier complete one for participant 0 (superseded by the
// later) and an unfinished one for participants 47-49 (counted, not
// analysed).
func (g *generator) questionnaires(st *store.Store, i int) {
	q := survey.New(ToolNames())
	if i == 0 {
		s, err := survey.Open(g.ctx, st, q)
		g.must(err)
		early := Answers(i)
		early[survey.QOverallExperience], early[survey.QMoreHelpful] = 0, 0
		g.must(s.Save(g.ctx, st, early, true))
	}
	if i >= 47 {
		s, err := survey.Open(g.ctx, st, q)
		g.must(err)
		g.must(s.Save(g.ctx, st, survey.Answers{survey.QOverallExperience: 1}, false))
	}
	s, err := survey.Open(g.ctx, st, q)
	g.must(err)
	g.must(s.Save(g.ctx, st, Answers(i), true))
}

// Answers are participant i's answers. Their distributions:
//
//	overall_experience  5,6,7,8,9 ten times each: mean 7, median 7
//	smarter             8 for all
//	more_helpful        38 of 50 rated 6-10 (76% agree, the paper's figure)
//	old_accuracy        4 and 6, 25 each: mean 5, median 5
//	new_accuracy        9 for ten, 7 for forty: mean 7.4, median 7
//	noticed_tools       yes 45 of 50
//	tool_choice_accuracy 9 for all
//	wrong_tool_recall   five answers (i = 0, 10, 20, 30, 40)
//	asked_other_tool    yes 25; switched_on_request yes 40
//	tool_answer_accuracy 8 for all
//	tools_used          WeatherSearch 30, CurrentTime 28, WikiSearch 25,
//	                    Calculator 10 (more than half: WeatherSearch 60%,
//	                    CurrentTime 56%)
//	tool_accuracy.*     WeatherSearch 8, CurrentTime 10, WikiSearch 5,
//	                    Calculator 9, from the participants who used them
//	feedback            two answers (i = 0, 25)
//	overall_score       70,80,90,100 by i mod 4: 13,13,12,12 of them:
//	                    mean 84.6, median 80
func Answers(i int) survey.Answers {
	a := survey.Answers{
		survey.QOverallExperience:  5 + i%5,
		survey.QSmarter:            8,
		survey.QOldAccuracy:        4 + 2*(i%2),
		survey.QNewAccuracy:        7,
		survey.QNoticedTools:       i < 45,
		survey.QToolChoiceAccuracy: 9,
		survey.QAskedOtherTool:     i%2 == 0,
		survey.QSwitchedOnRequest:  i < 40,
		survey.QToolAnswerAccuracy: 8,
		survey.QOverallScore:       70 + 10*(i%4),
	}
	if i < 38 {
		a[survey.QMoreHelpful] = 6 + i%5
	} else {
		a[survey.QMoreHelpful] = i % 6
	}
	if i < 10 {
		a[survey.QNewAccuracy] = 9
	}
	used := []string{}
	rating := map[string]int{"Calculator": 9, "CurrentTime": 10, "WeatherSearch": 8, "WikiSearch": 5}
	for _, t := range ToolNames() {
		in := t == "WeatherSearch" && i < 30 || t == "CurrentTime" && i < 28 ||
			t == "WikiSearch" && i%2 == 0 || t == "Calculator" && i < 10
		if in {
			used = append(used, t)
			a[survey.ToolQuestionPrefix+t] = rating[t]
		}
	}
	a[survey.QToolsUsed] = used
	if i%10 == 0 {
		a[survey.QWrongToolRecall] = fmt.Sprintf("asked about Lisbon and got the clock (%s %s)", ParticipantID(i), Secret)
	}
	if i%25 == 0 {
		a[survey.QFeedback] = "more tools please " + Secret
	}
	return a
}
