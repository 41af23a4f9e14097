package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
)

// TestProvenanceRoundTrip records each kind of turn the agent makes and
// reads back who decided what.
func TestProvenanceRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	conv, err := s.CreateConversation(ctx, NewConversation{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		rec  TurnRecord
		// conf and routeP are what is read back.
		conf, routeP float64
	}{
		{"grounding chose", TurnRecord{Route: RouteTool, RouteBy: RouteByThreshold, RouteProbability: 0.93, RouteThreshold: 0.5,
			Grounded: true, Tool: "Calculator", ChosenBy: ChosenByGrounding, Confidence: 0.88, AnsweredBy: AnsweredByModel}, 0.88, 0.93},
		{"decisive", TurnRecord{Route: RouteTool, RouteBy: RouteByDecisive, RouteProbability: 0.99, RouteThreshold: 0.5,
			Grounded: true, Tool: "Calculator", ChosenBy: ChosenByGrounding, Confidence: 0.97, AnsweredBy: AnsweredByModel}, 0.97, 0.99},
		{"routed to no tool", TurnRecord{Route: RouteNone, RouteBy: RouteByModel, RouteProbability: 0.31, RouteThreshold: 0.5,
			Grounded: true, Confidence: 0.4, AnsweredBy: AnsweredByModel}, 0, 0.31},
		{"direct mode", TurnRecord{Route: RouteTool, RouteBy: RouteByMode, RouteProbability: 0.2, RouteThreshold: 0.5,
			Grounded: true, Tool: "WikiSearch", ChosenBy: ChosenByGrounding, Confidence: 0.35, AnsweredBy: AnsweredByTool}, 0.35, 0.2},
		{"tool switch", TurnRecord{Input: "use wiki instead", Route: RouteTool, RouteBy: RouteByUser, RouteProbability: 0.6,
			RouteThreshold: 0.5, Grounded: true, Tool: "WikiSearch", ChosenBy: ChosenByUser, Confidence: 0.1, AnsweredBy: AnsweredByModel}, 0.1, 0.6},
		{"typed call", TurnRecord{Input: "/GEAR Calculator(2 + 2)", Route: RouteTool, RouteBy: RouteByUser, Tool: "Calculator",
			ChosenBy: ChosenByCall, Confidence: 0.5, Emission: EmissionExact, AnsweredBy: AnsweredByTool}, 0, 0},
		{"baseline", TurnRecord{AnsweredBy: AnsweredByModel}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref, err := s.BeginTurn(ctx, conv, "a question: "+tt.name, ModeChat)
			if err != nil {
				t.Fatal(err)
			}
			rec := tt.rec
			rec.TurnID, rec.Status, rec.Answer = ref.TurnID, StatusDone, "an answer"
			if err := s.FinishTurn(ctx, rec); err != nil {
				t.Fatal(err)
			}
			got, err := s.Turn(ctx, ref.TurnID)
			if err != nil {
				t.Fatal(err)
			}
			want := rec
			want.Confidence, want.RouteProbability = tt.conf, tt.routeP
			if !tt.rec.Grounded {
				want.RouteThreshold = 0
			}
			got.Usage, got.Grounding, got.Calls = nil, nil, nil
			if !reflect.DeepEqual(got.TurnRecord, want) {
				t.Errorf("read back\n got %+v\nwant %+v", got.TurnRecord, want)
			}
			var nullConf, nullRoute bool
			err = s.w.QueryRow("SELECT confidence IS NULL, route_probability IS NULL FROM turns WHERE id = ?", ref.TurnID).
				Scan(&nullConf, &nullRoute)
			if err != nil {
				t.Fatal(err)
			}
			if nullConf == rec.HasConfidence() || nullRoute == (rec.Grounded && rec.Route != RouteUndecided) {
				t.Errorf("stored confidence NULL %v, route probability NULL %v", nullConf, nullRoute)
			}
		})
	}
}

// v4Turn is a turn as gear wrote it at schema 4, and what migration 5
// (and DecodeDump, for an export of it) should make of it.
type v4Turn struct {
	name       string
	chat       string // the conversation's chat engine
	mode       Mode
	route      Route
	routeBy    string
	tool       string
	confidence any // nil: NULL
	emission   Emission
	scores     bool
	calls      []CallCheck
	answer     string

	routeByWant RouteMethod
	grounded    bool
	chosenBy    Chooser
	answeredBy  Answerer
}

var v4Turns = []v4Turn{
	{name: "chat, threshold", chat: "openai", mode: ModeChat, route: RouteTool, routeBy: "threshold", tool: "Calculator",
		confidence: 0.9, emission: EmissionPrompted, scores: true, calls: []CallCheck{CallValidated}, answer: "391",
		routeByWant: RouteByThreshold, grounded: true, chosenBy: ChosenByGrounding, answeredBy: AnsweredByModel},
	{name: "chat, decisive stored as combined", chat: "openai", mode: ModeChat, route: RouteTool, routeBy: "combined",
		tool: "Calculator", confidence: 0.99, emission: EmissionGuided, scores: true, calls: []CallCheck{CallRepaired}, answer: "391",
		routeByWant: RouteByDecisive, grounded: true, chosenBy: ChosenByGrounding, answeredBy: AnsweredByModel},
	{name: "chat, routed to no tool", chat: "openai", mode: ModeChat, route: RouteNone, routeBy: "model", scores: true,
		answer: "Hello!", routeByWant: RouteByModel, grounded: true, answeredBy: AnsweredByModel},
	{name: "chat, tool switch", chat: "openai", mode: ModeChat, route: RouteTool, tool: "WikiSearch", confidence: 0.2,
		emission: EmissionPrompted, scores: true, calls: []CallCheck{CallValidated}, answer: "Kestrels are falcons.",
		routeByWant: RouteByUser, grounded: true, chosenBy: ChosenByUser, answeredBy: AnsweredByModel},
	{name: "direct query", chat: "openai", mode: ModeDirect, route: RouteTool, tool: "CurrentTime", confidence: 0.8,
		emission: EmissionOffline, scores: true, calls: []CallCheck{CallValidated}, answer: "10:04 in Adelaide",
		routeByWant: RouteByMode, grounded: true, chosenBy: ChosenByGrounding, answeredBy: AnsweredByTool},
	{name: "typed call", chat: EngineOffline, mode: ModeDirect, route: RouteTool, tool: "Calculator", emission: EmissionExact,
		calls: []CallCheck{CallValidated}, answer: "4", routeByWant: RouteByUser, chosenBy: ChosenByCall, answeredBy: AnsweredByTool},
	{name: "typed call rejected", chat: EngineOffline, mode: ModeDirect, route: RouteTool, emission: EmissionExact,
		calls: []CallCheck{CallRejected}, routeByWant: RouteByUser},
	{name: "offline, tool", chat: EngineOffline, mode: ModeChat, route: RouteTool, routeBy: "threshold", tool: "Calculator",
		confidence: 0.95, emission: EmissionOffline, scores: true, calls: []CallCheck{CallValidated}, answer: "96",
		routeByWant: RouteByThreshold, grounded: true, chosenBy: ChosenByGrounding, answeredBy: AnsweredByTool},
	{name: "offline, no tool", chat: EngineOffline, mode: ModeChat, route: RouteNone, routeBy: "threshold", scores: true,
		answer: "A model endpoint is needed.", routeByWant: RouteByThreshold, grounded: true, answeredBy: AnsweredByGear},
	{name: "call rejected by the machine", chat: "openai", mode: ModeChat, route: RouteTool, routeBy: "threshold",
		tool: "WeatherSearch", confidence: 0.7, emission: EmissionPrompted, scores: true, calls: []CallCheck{CallRejected},
		answer: "I could not write a valid call.", routeByWant: RouteByThreshold, grounded: true, chosenBy: ChosenByGrounding,
		answeredBy: AnsweredByGear},
	{name: "baseline", chat: "openai", mode: ModeBaseline, answer: "Paris.", answeredBy: AnsweredByModel},
	{name: "cancelled before answering", chat: "openai", mode: ModeChat},
}

// writeV4 writes the turns into a database at schema 4, one conversation
// each (its id is the turn's), with plain SQL of that schema.
func writeV4(t *testing.T, db *sql.DB, turns []v4Turn) {
	t.Helper()
	for i, tt := range turns {
		id := i + 1
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := db.Exec(q, args...); err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
		}
		exec(`INSERT INTO conversations (id, mode, created_at, updated_at, chat_engine) VALUES (?, ?, 1000, 2000, ?)`, id, tt.mode, tt.chat)
		exec(`INSERT INTO turns (id, conversation_id, query, mode, status, route, route_by, tool, confidence, emission, created_at)
			VALUES (?, ?, 'q', ?, 'done', ?, ?, ?, ?, ?, 1000)`, id, id, tt.mode, tt.route, tt.routeBy, tt.tool, tt.confidence, tt.emission)
		exec(`INSERT INTO messages (conversation_id, turn_id, role, text, created_at) VALUES (?, ?, 'user', 'q', 1000)`, id, id)
		if tt.answer != "" {
			exec(`INSERT INTO messages (conversation_id, turn_id, role, text, created_at) VALUES (?, ?, 'assistant', ?, 2000)`, id, id, tt.answer)
		}
		if tt.scores {
			exec(`INSERT INTO grounding_scores (turn_id, tool, rank, semantic, pattern, final, response_kind)
				VALUES (?, 'Calculator', 1, 0.5, 0.5, 0.5, 'real')`, id)
		}
		for seq, check := range tt.calls {
			exec(`INSERT INTO tool_calls (turn_id, seq, tool, call, checked, created_at) VALUES (?, ?, 'Calculator', 'Calculator(2+2)', ?, 1500)`,
				id, seq+1, check)
		}
	}
}

func TestMigrationFiveFillsProvenance(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gear.db")
	old, err := Open(ctx, path, Options{migrateTo: 4})
	if err != nil {
		t.Fatal(err)
	}
	writeV4(t, old.w, v4Turns)
	// A deleted turn's id stays used: AUTOINCREMENT's mark survives the
	// rebuild.
	if _, err := old.w.Exec(`INSERT INTO turns (id, conversation_id, query, mode, created_at) VALUES (100, 1, 'gone', 'chat', 1)`); err != nil {
		t.Fatal(err)
	}
	if _, err := old.w.Exec(`DELETE FROM turns WHERE id = 100`); err != nil {
		t.Fatal(err)
	}
	old.Close()

	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, tt := range v4Turns {
		got, err := s.Turn(ctx, int64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		if got.RouteBy != tt.routeByWant || got.Grounded != tt.grounded || got.ChosenBy != tt.chosenBy ||
			got.AnsweredBy != tt.answeredBy || got.Input != "" || got.RouteProbability != 0 {
			t.Errorf("%s: migrated to route_by %q, grounded %v, chosen by %q, answered by %q, input %q; want %q, %v, %q, %q",
				tt.name, got.RouteBy, got.Grounded, got.ChosenBy, got.AnsweredBy, got.Input,
				tt.routeByWant, tt.grounded, tt.chosenBy, tt.answeredBy)
		}
		for _, g := range got.Grounding {
			if g.Probability != 0 {
				t.Errorf("%s: an old grounding row has probability %v, want 0 (not kept)", tt.name, g.Probability)
			}
		}
		if tt.confidence != nil && got.Confidence != tt.confidence {
			t.Errorf("%s: confidence %v, want %v", tt.name, got.Confidence, tt.confidence)
		}
	}

	var fk int
	if err := s.w.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("foreign keys after migrating = %d (%v), want on", fk, err)
	}
	ref, err := s.BeginTurn(ctx, 1, "a new turn", ModeChat)
	if err != nil {
		t.Fatal(err)
	}
	if ref.TurnID != 101 {
		t.Errorf("new turn id %d, want 101: the id of a deleted turn was given again", ref.TurnID)
	}
	// The references into the rebuilt table still cascade.
	if err := s.Rate(ctx, Rating{TurnID: 1, Score: ScoreUp}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteConversation(ctx, 1); err != nil {
		t.Fatal(err)
	}
	var left int
	err = s.w.QueryRow(`SELECT (SELECT count(*) FROM turns WHERE conversation_id = 1) + (SELECT count(*) FROM messages WHERE conversation_id = 1)
		+ (SELECT count(*) FROM ratings WHERE turn_id = 1) + (SELECT count(*) FROM grounding_scores WHERE turn_id = 1)
		+ (SELECT count(*) FROM tool_calls WHERE turn_id = 1)`).Scan(&left)
	if err != nil || left != 0 {
		t.Errorf("%d rows of the deleted conversation left (%v)", left, err)
	}
	if _, err := s.w.Exec(`INSERT INTO messages (conversation_id, turn_id, role, text, created_at) VALUES (2, 9999, 'user', 'x', 1)`); err == nil {
		t.Error("a message for a turn that does not exist was accepted: foreign keys are not enforced")
	}
}

// TestDecodeDumpUpgradesVersionOne checks that an export made before
// schema 5 reads as the migrated database does.
func TestDecodeDumpUpgradesVersionOne(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gear.db")
	old, err := Open(ctx, path, Options{migrateTo: 4})
	if err != nil {
		t.Fatal(err)
	}
	writeV4(t, old.w, v4Turns)
	old.Close()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	migrated, err := s.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, anonymize := range []bool{false, true} {
		t.Run(fmt.Sprintf("anonymized %v", anonymize), func(t *testing.T) {
			want := migrated
			if anonymize {
				want = want.Anonymize()
			}
			// The export as schema 4 wrote it: no new fields, Grounded
			// meaning a confidence was kept, the old route methods.
			v1 := want
			v1.Format = dumpFormatV1
			v1.Conversations = nil
			for i, c := range want.Conversations {
				c.Turns = append([]Turn(nil), c.Turns...)
				for j := range c.Turns {
					turn := &c.Turns[j]
					turn.RouteBy = RouteMethod(v4Turns[i].routeBy)
					turn.Grounded = v4Turns[i].confidence != nil
					turn.ChosenBy, turn.AnsweredBy = "", ""
				}
				v1.Conversations = append(v1.Conversations, c)
			}
			data, err := json.Marshal(v1)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeDump(data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				for i := range got.Conversations {
					if g, w := got.Conversations[i].Turns, want.Conversations[i].Turns; !reflect.DeepEqual(g, w) {
						t.Errorf("%s: upgraded export\n got %+v\nwant %+v", v4Turns[i].name, g, w)
					}
				}
				t.Fatal("the upgraded export differs from the migrated database's")
			}
		})
	}
}

func TestDecodeDumpRefusesOtherFormats(t *testing.T) {
	t.Parallel()
	for _, data := range []string{`{"format": "gear-history/9"}`, `{}`, `[1, 2]`, `not json`} {
		if _, err := DecodeDump([]byte(data)); err == nil {
			t.Errorf("DecodeDump(%s) accepted it", data)
		}
	}
	d, err := DecodeDump([]byte(`{"format": "` + DumpFormat + `"}`))
	if err != nil || d.Conversations == nil {
		t.Errorf("an empty current export: %+v, %v", d, err)
	}
}
