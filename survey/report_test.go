package survey_test

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
	"github.com/gear-chat/gear/survey/surveytest"
)

// readStudy writes the generated study and reads it back as sources.
func readStudy(t *testing.T, perFile int) []survey.Source {
	t.Helper()
	ctx := context.Background()
	var sources []survey.Source
	for _, path := range surveytest.Write(t, t.TempDir(), perFile) {
		st, err := store.Open(ctx, path, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := st.Export(ctx)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, survey.Source{Label: path, Dump: d})
	}
	return sources
}

func near(a, b float64) bool { return math.Abs(a-b) < 5e-7 }

func checkProportion(t *testing.T, name string, got survey.Proportion, x, n int, low, high float64) {
	t.Helper()
	if got.X != x || got.N != n || !near(got.Ratio, float64(x)/float64(n)) || !near(got.Low, low) || !near(got.High, high) {
		t.Errorf("%s = %+v, want %d/%d with 95%% CI %.6f-%.6f", name, got, x, n, low, high)
	}
}

// TestStudyReport checks every figure of the generated study (see package
// surveytest for its design): the paper's own numbers come back, with the
// Wilson and Newcombe intervals computed independently.
func TestStudyReport(t *testing.T) {
	t.Parallel()
	rep := survey.Compute(readStudy(t, 1), surveytest.ToolNames())
	checkStudy(t, rep)
}

func checkStudy(t *testing.T, rep survey.Report) {
	t.Helper()
	if rep.Participants.N != 50 || rep.Participants.WithSurvey != 50 ||
		!reflect.DeepEqual(rep.Participants.ByPhase, map[string]int{"baseline": 50, "gear": 50}) {
		t.Errorf("participants = %+v", rep.Participants)
	}
	if len(rep.Participants.List) != 50 || rep.Participants.List[7] != (survey.Participant{ID: "p-study-07",
		BaselineTurns: 22, GearTurns: 24, Rated: 40, Survey: "complete"}) {
		t.Errorf("participant rows: %d, row 7 %+v", len(rep.Participants.List), rep.Participants.List[7])
	}
	wantTurns := survey.Turns{N: 2300, ByMode: map[string]int{"baseline": 1100, "chat": 1150, "direct": 50},
		ByPhase: map[string]int{"baseline": 1100, "gear": 1200}, WithTool: 1000, Rated: 2000, WrongTool: 80}
	if !reflect.DeepEqual(rep.Turns, wantTurns) {
		t.Errorf("turns = %+v\nwant %+v", rep.Turns, wantTurns)
	}
	wantUsage := []survey.ToolUse{
		{Tool: "WeatherSearch", Turns: 300, Share: 0.30, Participants: 50, ParticipantShare: 1},
		{Tool: "Calculator", Turns: 200, Share: 0.20, Participants: 50, ParticipantShare: 1},
		{Tool: "WikiSearch", Turns: 200, Share: 0.20, Participants: 50, ParticipantShare: 1},
		{Tool: "CurrentTime", Turns: 150, Share: 0.15, Participants: 50, ParticipantShare: 1},
		{Tool: "TimezoneConverter", Turns: 100, Share: 0.10, Participants: 50, ParticipantShare: 1},
		{Tool: "LocationSearch", Turns: 50, Share: 0.05, Participants: 50, ParticipantShare: 1},
	}
	if !reflect.DeepEqual(rep.ToolUsage, wantUsage) {
		t.Errorf("tool usage = %+v", rep.ToolUsage)
	}
	wantSat := []struct {
		tool      string
		x, n      int
		low, high float64
	}{
		{"CurrentTime", 100, 100, 0.963007, 1},
		{"Calculator", 140, 150, 0.881638, 0.963388},
		{"TimezoneConverter", 90, 100, 0.825634, 0.944771},
		{"WeatherSearch", 220, 250, 0.833862, 0.914637},
		{"LocationSearch", 40, 50, 0.669629, 0.887562},
		{"WikiSearch", 101, 200, 0.436270, 0.573542},
	}
	if len(rep.ToolSatisfaction) != len(wantSat) {
		t.Fatalf("tool satisfaction = %+v", rep.ToolSatisfaction)
	}
	for i, w := range wantSat {
		got := rep.ToolSatisfaction[i]
		if got.Tool != w.tool {
			t.Errorf("tool satisfaction row %d is %s, want %s", i, got.Tool, w.tool)
		}
		checkProportion(t, "satisfaction of "+w.tool, got.Proportion, w.x, w.n, w.low, w.high)
	}
	checkProportion(t, "grounding accuracy", rep.Grounding.Proportion, 920, 1000, 0.901534, 0.935252)
	if rep.Grounding.Wrong != 80 {
		t.Errorf("wrong = %d", rep.Grounding.Wrong)
	}
	s := rep.Satisfaction
	checkProportion(t, "baseline satisfaction", s.Baseline, 615, 1000, 0.584456, 0.644664)
	checkProportion(t, "gear satisfaction", s.Gear, 784, 1000, 0.757433, 0.808393)
	if d := s.Difference; !near(d.Value, 0.169) || !near(d.Low, 0.129178) || !near(d.High, 0.208089) || d.Method != "newcombe-wilson" {
		t.Errorf("difference = %+v, want 0.169 (0.129178 to 0.208089, Newcombe)", d)
	}
	if !near(s.RelativeIncrease, 0.169/0.615) {
		t.Errorf("relative increase = %v", s.RelativeIncrease)
	}
	if rep.Surveys.Used != 50 || rep.Surveys.Complete != 51 || rep.Surveys.InProgress != 3 || len(rep.Surveys.OtherVersions) != 0 {
		t.Errorf("surveys = %+v", rep.Surveys)
	}
	checkQuestions(t, rep)
	checkHeadlines(t, rep)
}

func checkQuestions(t *testing.T, rep survey.Report) {
	t.Helper()
	if len(rep.Questions) != 21 {
		t.Fatalf("%d question summaries, want 21", len(rep.Questions))
	}
	byID := map[string]survey.QuestionSummary{}
	for _, q := range rep.Questions {
		byID[q.ID] = q
	}
	hist := func(id string) []int {
		var out []int
		for _, b := range byID[id].Distribution.Histogram {
			out = append(out, b.Count)
		}
		return out
	}
	dists := []struct {
		id           string
		n            int
		mean, median float64
		hist         []int
	}{
		{survey.QOverallExperience, 50, 7, 7, []int{0, 0, 0, 0, 0, 10, 10, 10, 10, 10, 0}},
		{survey.QSmarter, 50, 8, 8, []int{0, 0, 0, 0, 0, 0, 0, 0, 50, 0, 0}},
		// 38 of 6+i%5 (i < 38: 8 each of 6-8, 7 each of 9-10) and i%6 for
		// i = 38..49 (2 each of 0-5).
		{survey.QMoreHelpful, 50, (8*6 + 8*7 + 8*8 + 7*9 + 7*10 + 2*15) / 50.0, 7, []int{2, 2, 2, 2, 2, 2, 8, 8, 8, 7, 7}},
		{survey.QOldAccuracy, 50, 5, 5, []int{0, 0, 0, 0, 25, 0, 25, 0, 0, 0, 0}},
		{survey.QNewAccuracy, 50, 7.4, 7, []int{0, 0, 0, 0, 0, 0, 0, 40, 0, 10, 0}},
		{survey.QOverallScore, 50, 84.6, 80, []int{0, 0, 0, 0, 0, 0, 0, 13, 13, 24}},
		{survey.ToolQuestionPrefix + "WeatherSearch", 30, 8, 8, []int{0, 0, 0, 0, 0, 0, 0, 0, 30, 0, 0}},
		{survey.ToolQuestionPrefix + "LocationSearch", 0, 0, 0, []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	}
	for _, d := range dists {
		got := byID[d.id]
		if got.Distribution == nil || got.Distribution.N != d.n || !near(got.Distribution.Mean, d.mean) ||
			got.Distribution.Median != d.median || !reflect.DeepEqual(hist(d.id), d.hist) {
			t.Errorf("%s: %+v, want n %d mean %v median %v histogram %v", d.id, got.Distribution, d.n, d.mean, d.median, d.hist)
		}
	}
	for id, yes := range map[string]int{survey.QNoticedTools: 45, survey.QAskedOtherTool: 25, survey.QSwitchedOnRequest: 40} {
		if got := byID[id]; got.Yes == nil || got.Yes.X != yes || got.Yes.N != 50 {
			t.Errorf("%s: yes = %+v, want %d of 50", id, got.Yes, yes)
		}
	}
	wantChoices := []survey.ChoiceCount{{"Calculator", 10, 0.2}, {"CurrentTime", 28, 0.56}, {"TimezoneConverter", 0, 0},
		{"WeatherSearch", 30, 0.6}, {"LocationSearch", 0, 0}, {"WikiSearch", 25, 0.5}}
	if got := byID[survey.QToolsUsed]; got.Answered != 50 || !reflect.DeepEqual(got.Choices, wantChoices) {
		t.Errorf("tools used: %+v", got)
	}
	if got := byID[survey.QWrongToolRecall].Answers; len(got) != 5 || !strings.Contains(got[1], "p-study-10") {
		t.Errorf("open answers to wrong_tool_recall = %q", got)
	}
	if got := byID[survey.QFeedback]; got.Answered != 2 || len(got.Answers) != 2 {
		t.Errorf("feedback = %+v", got)
	}
	if got := byID[survey.QToolErrorRecall]; got.Answered != 0 || got.Answers != nil {
		t.Errorf("tool_error_recall = %+v", got)
	}
}

func checkHeadlines(t *testing.T, rep survey.Report) {
	t.Helper()
	want := []struct {
		id        string
		value     float64
		n         int
		low, high float64
		detail    string
	}{
		{"tools_more_useful", 0.76, 50, 0.625873, 0.857026, ""},
		{"grounded_right", 0.92, 1000, 0.901534, 0.935252, ""},
		{"answered_satisfactorily", 0.784, 1000, 0.757433, 0.808393, ""},
		{"increase_over_baseline", 0.169, 2000, 0.129178, 0.208089, "gear 78.4% vs baseline 61.5%; relative increase 27.5%"},
		{"best_tool", 1, 100, 0.963007, 1, "CurrentTime"},
		{"worst_tool", 0.505, 200, 0.436270, 0.573542, "WikiSearch"},
		{"popular_tools", 0.6, 50, 0.461814, 0.723916, "WeatherSearch 60.0%, CurrentTime 56.0%"},
	}
	if len(rep.Headlines) != len(want) {
		t.Fatalf("headlines = %+v", rep.Headlines)
	}
	for i, w := range want {
		h := rep.Headlines[i]
		if h.ID != w.id || !near(h.Value, w.value) || h.N != w.n || !near(h.Low, w.low) || !near(h.High, w.high) ||
			h.Detail != w.detail || h.Rule == "" || h.Paper == "" {
			t.Errorf("headline %d = %+v\nwant %+v", i, h, w)
		}
	}
}

// TestMergedDatabases: the same study gathered in five files of ten
// participants reports the same figures as fifty files of one.
func TestMergedDatabases(t *testing.T) {
	t.Parallel()
	rep := survey.Compute(readStudy(t, 10), surveytest.ToolNames())
	if len(rep.Sources) != 5 {
		t.Fatalf("%d sources", len(rep.Sources))
	}
	checkStudy(t, rep)
}

// TestAnonymizedReport: no participant id, file name or free text is
// left in the anonymized report's JSON.
func TestAnonymizedReport(t *testing.T) {
	t.Parallel()
	sources := readStudy(t, 10)
	rep := survey.Compute(sources, surveytest.ToolNames()).Anonymize()
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, leak := range []string{surveytest.Secret, "p-study-", "study-01.db", "Lisbon", "more tools please"} {
		if strings.Contains(text, leak) {
			t.Errorf("anonymized report contains %q", leak)
		}
	}
	checkHeadlines(t, rep)
	if rep.Questions[7].Answered != 5 || rep.Questions[7].Answers != nil {
		t.Errorf("anonymized open question = %+v", rep.Questions[7])
	}
}

// TestReportWithoutData: an empty history gives zeros, not NaNs.
func TestReportWithoutData(t *testing.T) {
	t.Parallel()
	rep := survey.Compute([]survey.Source{{Label: "empty", Dump: store.Dump{}}}, surveytest.ToolNames())
	if _, err := json.Marshal(rep); err != nil {
		t.Fatalf("empty report does not encode: %v", err)
	}
	if rep.Participants.N != 0 || rep.Satisfaction.Gear.N != 0 || rep.Headlines[0].N != 0 {
		t.Errorf("empty report = %+v", rep)
	}
}

// A "wrong tool" flag saying no tool was needed counts as wrong grounding;
// turns grounding did not decide (typed calls, baseline) are not counted.
func TestGroundingAccuracyCountsNoToolNeeded(t *testing.T) {
	t.Parallel()
	tool := func(r *store.Rating) store.Turn {
		return store.Turn{Mode: store.ModeChat, Rating: r, TurnRecord: store.TurnRecord{Route: store.RouteTool,
			RouteBy: store.RouteByThreshold, Grounded: true, Tool: "Calculator", ChosenBy: store.ChosenByGrounding}}
	}
	noTool := store.Turn{Mode: store.ModeChat, Rating: &store.Rating{Score: store.ScoreUp},
		TurnRecord: store.TurnRecord{Route: store.RouteNone, RouteBy: store.RouteByModel, Grounded: true}}
	typed := store.Turn{Mode: store.ModeDirect, Rating: &store.Rating{WrongTool: true, WantedTool: store.WantedNone},
		TurnRecord: store.TurnRecord{Route: store.RouteTool, RouteBy: store.RouteByUser, Tool: "Calculator", ChosenBy: store.ChosenByCall}}
	baseline := store.Turn{Mode: store.ModeBaseline, Rating: &store.Rating{Score: store.ScoreDown}}
	d := store.Dump{Conversations: []store.ConversationDump{{Turns: []store.Turn{
		tool(&store.Rating{Score: store.ScoreUp}),
		tool(&store.Rating{WrongTool: true, WantedTool: store.WantedNone}),
		noTool, typed, baseline,
	}}}}
	rep := survey.Compute([]survey.Source{{Label: "a", Dump: d}}, []string{"Calculator"})
	if g := rep.Grounding; g.X != 2 || g.N != 3 || g.Wrong != 1 {
		t.Errorf("grounding accuracy %+v, want 2 of 3 right, 1 wrong (no tool was needed)", g)
	}
}
