package cli_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/store"
)

// replayHistory records turns whose decisions the current offline engine
// makes differently, one it makes the same, and turns replay skips; the
// first turn is a day older than the rest.
func replayHistory(t *testing.T, path string) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	day := time.Date(2026, 11, 10, 9, 0, 0, 0, time.UTC)
	st, err := store.Open(ctx, path, store.Options{Now: func() time.Time { return day }})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	conv, err := st.CreateConversation(ctx, store.NewConversation{Mode: store.ModeChat})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	scores := func(top string) []store.GroundingScore {
		var out []store.GroundingScore
		for _, tool := range []string{"Calculator", "CurrentTime", "WeatherSearch", "WikiSearch"} {
			s := store.GroundingScore{Tool: tool, Semantic: 0.1, Pattern: 0.1, Final: 0.1, ResponseKind: store.ResponseMock}
			if tool == top {
				s.Final = 0.5
			}
			out = append(out, s)
		}
		return out
	}
	turn := func(name, query string, mode store.Mode, rec store.TurnRecord, r *store.Rating) {
		ref, err := st.BeginTurn(ctx, conv, query, mode)
		if err != nil {
			t.Fatal(err)
		}
		rec.TurnID, rec.Status = ref.TurnID, store.StatusDone
		if err := st.FinishTurn(ctx, rec); err != nil {
			t.Fatal(err)
		}
		if r != nil {
			r.TurnID = ref.TurnID
			if err := st.Rate(ctx, *r); err != nil {
				t.Fatal(err)
			}
		}
		ids[name] = ref.TurnID
	}
	grounded := func(route store.Route, tool string) store.TurnRecord {
		rec := store.TurnRecord{Route: route, RouteBy: store.RouteByThreshold, Tool: tool, Grounded: true,
			Confidence: 0.6, Grounding: scores(tool)}
		if tool != "" {
			rec.ChosenBy = store.ChosenByGrounding
		}
		return rec
	}
	turn("old", "what is 15% of 240", store.ModeChat, grounded(store.RouteNone, ""), nil)
	day = day.AddDate(0, 0, 1)
	turn("routing", "what is 15% of 240", store.ModeChat, grounded(store.RouteNone, ""), &store.Rating{Score: store.ScoreUp})
	turn("flagged", "what time is it in tokyo", store.ModeChat, grounded(store.RouteTool, "WikiSearch"),
		&store.Rating{Score: store.ScoreDown, WrongTool: true, WantedTool: "CurrentTime"})
	turn("same", "what is 12 times 37", store.ModeChat, grounded(store.RouteTool, "Calculator"), &store.Rating{Score: store.ScoreUp})
	direct := grounded(store.RouteTool, "WikiSearch")
	direct.RouteBy = store.RouteByMode
	turn("direct", "weather forecast for tokyo tomorrow", store.ModeDirect, direct, nil)
	turn("baseline", "tell me a joke", store.ModeBaseline, store.TurnRecord{Answer: "A joke."}, nil)
	turn("exact", "Calculator(2 + 2)", store.ModeDirect, store.TurnRecord{Route: store.RouteTool, RouteBy: store.RouteByUser,
		Tool: "Calculator", ChosenBy: store.ChosenByCall, Emission: store.EmissionExact}, nil)
	return ids
}

func TestReplayListsChangedDecisions(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	db := filepath.Join(home, "gear.db")
	ids := replayHistory(t, db)
	code, out, errText := studyGear(t, home, "", "--db", db, "--offline", "replay", "--since", "2026-11-11", "--json")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var res struct {
		Replayed     int
		RouteChanged int `json:"route_changed"`
		ToolChanged  int `json:"tool_changed"`
		Flagged      int
		Fixed        int
		Skipped      map[string]int
		Changes      []struct {
			TurnID   int64 `json:"turn_id"`
			Was, Now string
			Note     string
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Replayed != 4 || res.RouteChanged != 1 || res.ToolChanged != 2 || res.Flagged != 1 || res.Fixed != 1 ||
		res.Skipped["baseline turns (no grounding)"] != 1 || res.Skipped["exact calls and turns that failed before grounding"] != 1 {
		t.Errorf("replay = %s", out)
	}
	want := map[int64][3]string{
		ids["routing"]: {"none", "Calculator", "was rated up: check the new choice"},
		ids["flagged"]: {"WikiSearch", "CurrentTime", "flagged wrong, wanted CurrentTime: now right"},
		ids["direct"]:  {"WikiSearch", "WeatherSearch", ""},
	}
	if len(res.Changes) != len(want) {
		t.Fatalf("changes = %+v", res.Changes)
	}
	for _, c := range res.Changes {
		w, ok := want[c.TurnID]
		if !ok || c.Was != w[0] || c.Now != w[1] || c.Note != w[2] {
			t.Errorf("change %+v, want %v", c, w)
		}
	}

	code, out, errText = studyGear(t, home, "", "--db", db, "--offline", "replay")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	for _, line := range []string{"replayed 5 turns", "changed: 4 (routing 2, tool 2); flagged turns now right: 1 of 1; rated-up turns changed: 1",
		"none -> Calculator", "routing changed", "    what time is it in tokyo", "decided by mode"} {
		if !strings.Contains(out, line) {
			t.Errorf("output lacks %q:\n%s", line, out)
		}
	}
	code, _, errText = studyGear(t, home, "", "--db", db, "replay", "--since", "last week")
	if code != cli.ExitUsage || !strings.Contains(errText, "want YYYY-MM-DD") {
		t.Errorf("bad --since: exit %d, %q", code, errText)
	}
}
