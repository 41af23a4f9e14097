package survey_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
)

func family(tool string) (string, bool) {
	f, ok := map[string]string{"calculator": "calc", "wikisearch": "wiki", "currenttime": "timezone",
		"locationsearch": "location"}[strings.ToLower(tool)]
	return f, ok
}

func TestFeedbackLabels(t *testing.T) {
	t.Parallel()
	up, down := store.ScoreUp, store.ScoreDown
	chat := func(route store.Route, by store.RouteMethod, tool string, r *store.Rating) store.Turn {
		t := store.Turn{Query: "q", Mode: store.ModeChat, Rating: r}
		t.Route, t.RouteBy, t.Tool, t.Grounded = route, by, tool, true
		if tool != "" {
			t.ChosenBy = store.ChosenByGrounding
			if by == store.RouteByUser {
				t.ChosenBy = store.ChosenByUser
			}
		}
		return t
	}
	pickedAtGate := chat(store.RouteTool, store.RouteByThreshold, "WikiSearch", nil)
	pickedAtGate.ChosenBy = store.ChosenByUser
	directSwitch := chat(store.RouteTool, store.RouteByUser, "CurrentTime", &store.Rating{Score: up})
	directSwitch.Mode = store.ModeDirect
	notGrounded := chat(store.RouteNone, store.RouteByThreshold, "", &store.Rating{Score: up})
	notGrounded.Grounded = false
	tests := []struct {
		name   string
		turn   store.Turn
		family string
		reason string
		skip   string
	}{
		{"thumbs up on a tool", chat(store.RouteTool, store.RouteByThreshold, "WikiSearch", &store.Rating{Score: up}),
			"wiki", survey.ReasonThumbsUp, ""},
		{"thumbs up without a tool", chat(store.RouteNone, store.RouteByThreshold, "", &store.Rating{Score: up}),
			"none", survey.ReasonThumbsUpNoTool, ""},
		{"thumbs up without a tool, as the agent records it", store.Turn{Query: "q", Mode: store.ModeChat,
			Rating: &store.Rating{Score: up}, TurnRecord: store.TurnRecord{Route: store.RouteNone, RouteBy: store.RouteByModel,
				Grounded: true, AnsweredBy: store.AnsweredByModel}},
			"none", survey.ReasonThumbsUpNoTool, ""},
		{"no tool, grounding did not run", notGrounded, "", "", survey.SkipNotGrounded},
		{"wrong tool naming the wanted one", chat(store.RouteNone, store.RouteByThreshold, "",
			&store.Rating{Score: down, WrongTool: true, WantedTool: "CurrentTime"}), "timezone", survey.ReasonWrongTool, ""},
		{"wrong tool wanting none", chat(store.RouteTool, store.RouteByModel, "Calculator",
			&store.Rating{WrongTool: true, WantedTool: store.WantedNone}), "none", survey.ReasonWrongTool, ""},
		{"wrong tool wanting none, rated down", chat(store.RouteTool, store.RouteByThreshold, "WikiSearch",
			&store.Rating{Score: down, WrongTool: true, WantedTool: "None"}), "none", survey.ReasonWrongTool, ""},
		{"wrong tool, tool gone from the library", chat(store.RouteTool, store.RouteByModel, "Calculator",
			&store.Rating{WrongTool: true, WantedTool: "Translator"}), "", "", survey.SkipUnknownTool},
		{"wrong tool without a name", chat(store.RouteTool, store.RouteByThreshold, "Calculator",
			&store.Rating{Score: down, WrongTool: true}), "", "", survey.SkipUnnamed},
		{"user named the tool, unrated", chat(store.RouteTool, store.RouteByUser, "LocationSearch", nil),
			"location", survey.ReasonUserChose, ""},
		{"user named the tool, rated down", chat(store.RouteTool, store.RouteByUser, "LocationSearch", &store.Rating{Score: down}),
			"", "", survey.SkipThumbsDown},
		{"user picked another tool at the confirmation", pickedAtGate, "wiki", survey.ReasonUserChose, ""},
		{"user named the tool in direct mode", directSwitch, "timezone", survey.ReasonUserChose, ""},
		{"thumbs down alone", chat(store.RouteTool, store.RouteByThreshold, "Calculator", &store.Rating{Score: down}),
			"", "", survey.SkipThumbsDown},
		{"comment only", chat(store.RouteTool, store.RouteByThreshold, "Calculator", &store.Rating{Comment: "hm"}),
			"", "", survey.SkipNoVerdict},
		{"unrated", chat(store.RouteTool, store.RouteByThreshold, "Calculator", nil), "", "", ""},
		{"baseline", store.Turn{Query: "q", Mode: store.ModeBaseline, Rating: &store.Rating{Score: up}}, "", "", survey.SkipBaseline},
	}
	exact := chat(store.RouteTool, store.RouteByUser, "Calculator", &store.Rating{Score: up})
	exact.Mode, exact.Grounded, exact.ChosenBy, exact.Emission = store.ModeDirect, false, store.ChosenByCall, store.EmissionExact
	tests = append(tests, struct {
		name   string
		turn   store.Turn
		family string
		reason string
		skip   string
	}{"exact call", exact, "", "", survey.SkipNotGrounded})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := store.Dump{Conversations: []store.ConversationDump{{Turns: []store.Turn{tt.turn}}}}
			labels, skipped := survey.FeedbackLabels(d, family)
			var want []survey.Label
			if tt.family != "" {
				want = []survey.Label{{Query: "q", Family: tt.family, Reason: tt.reason}}
			}
			wantSkipped := map[string]int{}
			if tt.skip != "" {
				wantSkipped[tt.skip] = 1
			}
			if !reflect.DeepEqual(labels, want) || !reflect.DeepEqual(skipped, wantSkipped) {
				t.Errorf("labels %+v skipped %v; want %+v, %v", labels, skipped, want, wantSkipped)
			}
		})
	}
}

// "No tool was needed" as the chat stores it — a wrong-tool rating
// wanting store.WantedNone — labels the query none, and the report counts
// it as wrong grounding.
func TestNoToolNeededThroughTheStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "gear.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	conv, err := st.CreateConversation(ctx, store.NewConversation{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := st.BeginTurn(ctx, conv, "thanks, that was helpful", store.ModeChat)
	if err != nil {
		t.Fatal(err)
	}
	err = st.FinishTurn(ctx, store.TurnRecord{TurnID: ref.TurnID, Status: store.StatusDone, Route: store.RouteTool,
		RouteBy: store.RouteByThreshold, RouteProbability: 0.6, RouteThreshold: 0.5, Grounded: true, Tool: "WikiSearch",
		ToolFamily: "wiki", ChosenBy: store.ChosenByGrounding, Confidence: 0.55, Answer: "An article.", AnsweredBy: store.AnsweredByModel})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Rate(ctx, store.Rating{TurnID: ref.TurnID, Score: store.ScoreDown, WrongTool: true, WantedTool: store.WantedNone}); err != nil {
		t.Fatal(err)
	}
	d, err := st.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	labels, skipped := survey.FeedbackLabels(d, family)
	if len(labels) != 1 || labels[0].Family != survey.None || labels[0].Reason != survey.ReasonWrongTool || len(skipped) != 0 {
		t.Errorf("labels %+v, skipped %v; want the query labelled none", labels, skipped)
	}
	rep := survey.Compute([]survey.Source{{Label: "a", Dump: d}}, []string{"WikiSearch"})
	if g := rep.Grounding; g.N != 1 || g.Wrong != 1 {
		t.Errorf("grounding accuracy %+v, want the turn counted wrong", g)
	}
}
