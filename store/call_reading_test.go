package store

import (
	"context"
	"database/sql"
	"math"
	"reflect"
	"strings"
	"testing"
)

// The call confidence and its doubts are kept with the turn and read back
// as they were written; a turn without one reads back without one (not as
// 0%), and a doubt is kept on one line.
func TestCallReadingIsKeptWithTheTurn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{Now: fixedClock(t0)})
	conv, err := s.CreateConversation(ctx, NewConversation{Mode: ModeChat, Grounding: RoleModel{EngineOffline, EngineOffline}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		in   *CallReading
		want *CallReading
	}{
		{"none", nil, nil},
		{"sure, no doubts", &CallReading{Confidence: 0.97}, &CallReading{Confidence: 0.97}},
		{"zero is a reading", &CallReading{Confidence: 0}, &CallReading{Confidence: 0}},
		{"doubts", &CallReading{Confidence: 0.42, Doubts: []string{"the number 7 found no place", "the operator was read from \"by\""}},
			&CallReading{Confidence: 0.42, Doubts: []string{"the number 7 found no place", "the operator was read from \"by\""}}},
		{"a doubt on two lines is kept on one, an empty one dropped", &CallReading{Confidence: 0.5, Doubts: []string{"two\nlines", "  "}},
			&CallReading{Confidence: 0.5, Doubts: []string{"two lines"}}},
	}
	for _, c := range cases {
		ref, err := s.BeginTurn(ctx, conv, "what is 3 by 4", ModeChat)
		if err != nil {
			t.Fatal(err)
		}
		rec := benchRecord(ref.TurnID)
		rec.CallReading = c.in
		if err := s.FinishTurn(ctx, rec); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := s.Turn(ctx, ref.TurnID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.CallReading, c.want) {
			t.Errorf("%s: read back %+v, want %+v", c.name, got.CallReading, c.want)
		}
		// The export carries it too.
		dump, err := s.Export(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var exported *CallReading
		for _, cd := range dump.Conversations {
			for _, tt := range cd.Turns {
				if tt.TurnID == ref.TurnID {
					exported = tt.CallReading
				}
			}
		}
		if !reflect.DeepEqual(exported, c.want) {
			t.Errorf("%s: exported %+v, want %+v", c.name, exported, c.want)
		}
	}
}

func TestCallReadingOutOfRangeIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{Now: fixedClock(t0)})
	conv, err := s.CreateConversation(ctx, NewConversation{Mode: ModeChat})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := s.BeginTurn(ctx, conv, "what is 2+2", ModeChat)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{-0.1, 1.5, math.NaN()} {
		rec := benchRecord(ref.TurnID)
		rec.CallReading = &CallReading{Confidence: v}
		err := s.FinishTurn(ctx, rec)
		if err == nil || !strings.Contains(err.Error(), "call confidence") {
			t.Errorf("call confidence %v: error %v, want one naming the call confidence", v, err)
		}
	}
}

// A doubts column edited by hand into something that is not a JSON array
// reads back as one doubt: what was recorded is shown, not lost.
func TestCallDoubtsThatDoNotParseAreKept(t *testing.T) {
	t.Parallel()
	got := readCallReading(sql.NullFloat64{Float64: 0.3, Valid: true}, "not json\nat all")
	want := &CallReading{Confidence: 0.3, Doubts: []string{"not json at all"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if r := readCallReading(sql.NullFloat64{}, `["x"]`); r != nil {
		t.Errorf("no confidence should read as no reading, got %+v", r)
	}
}
