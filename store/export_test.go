package store

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func exportFixture(t *testing.T) (*Store, []int64) {
	t.Helper()
	ctx := context.Background()
	s := openTest(t, Options{Now: fixedClock(t0)})
	s.SetSetting(ctx, SettingParticipantID, "participant-8c1e")
	var ids []int64
	for _, q := range []string{"weather in Adelaide", "time in Tokyo"} {
		conv, _ := s.CreateConversation(ctx, NewConversation{Chat: RoleModel{"ollama", "llama3.2"}})
		ref, _ := s.BeginTurn(ctx, conv, q, ModeChat)
		rec := benchRecord(ref.TurnID)
		rec.Error, rec.RepairNote = "tool said Adelaide was busy", "quoted the place"
		rec.Input = "/GEAR " + q
		rec.Calls[0].Original = `Weather(Adelaide)`
		rec.CallReading = &CallReading{Confidence: 0.64, Doubts: []string{"the place Adelaide matched loosely"}}
		if err := s.FinishTurn(ctx, rec); err != nil {
			t.Fatal(err)
		}
		s.Rate(ctx, Rating{TurnID: ref.TurnID, Score: ScoreUp, WrongTool: true, WantedTool: "WikiSearch", Comment: "my own words"})
		ids = append(ids, conv)
	}
	_, err := s.SaveSurvey(ctx, SurveyResponse{ParticipantID: "participant-8c1e", Version: "v1", Phase: "gear", Status: SurveyComplete,
		Answers: json.RawMessage(`{"useful": 8, "switches": true, "tools_used": ["Weather", "Calculator"], "comments": "I live on Elm Street", "grid": {"time": 9, "why": "free text"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	return s, ids
}

func TestExportRoundTripsThroughJSON(t *testing.T) {
	t.Parallel()
	s, ids := exportFixture(t)
	ctx := context.Background()
	all, err := s.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if all.Format != DumpFormat || all.SchemaVersion != SchemaVersion || len(all.Conversations) != 2 || len(all.Surveys) != 1 {
		t.Fatalf("dump = %+v", all)
	}
	b, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	var back Dump
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, all) {
		t.Errorf("JSON round trip differs:\n%+v\n%+v", back, all)
	}
	if decoded, err := DecodeDump(b); err != nil || !reflect.DeepEqual(decoded, all) {
		t.Errorf("DecodeDump of the export differs (%v):\n%+v\n%+v", err, decoded, all)
	}
	// The grounding table is in the JSON under its paper names.
	var generic struct {
		Conversations []struct {
			Turns []struct {
				Grounding []map[string]any `json:"grounding"`
				Latency   map[string]any   `json:"latency"`
			} `json:"turns"`
		} `json:"conversations"`
	}
	json.Unmarshal(b, &generic)
	g := generic.Conversations[0].Turns[0].Grounding
	if len(g) != 5 || g[0]["s"] != 0.9 || g[0]["p"] != 0.5 || g[0]["f"] != 0.8 || g[0]["tool"] != "Weather" {
		t.Errorf("grounding JSON = %v", g)
	}
	if generic.Conversations[0].Turns[0].Latency["total_ms"] != 1400.0 {
		t.Errorf("latency JSON = %v", generic.Conversations[0].Turns[0].Latency)
	}

	one, err := s.Export(ctx, ids[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Conversations) != 1 || one.Conversations[0].ID != ids[1] || len(one.Surveys) != 0 ||
		one.Conversations[0].Turns[0].Query != "time in Tokyo" {
		t.Errorf("one conversation = %+v", one)
	}
	if _, err := s.Export(ctx, ids[0], 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("exporting a missing conversation: %v", err)
	}
}

func TestAnonymizeDropsFreeTextAndPersonalIDs(t *testing.T) {
	t.Parallel()
	s, _ := exportFixture(t)
	full, err := s.Export(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(full)
	anon := full.Anonymize()
	b, err := json.Marshal(anon)
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for _, text := range []string{"Adelaide", "Tokyo", "participant-8c1e", "my own words", "Elm Street", "free text",
		"quoted the place", "busy", "sunny", "a response excerpt", "Weather(Adelaide)", `("Adelaide")`} {
		if strings.Contains(out, text) {
			t.Errorf("anonymized export still holds %q", text)
		}
	}
	for _, kept := range []string{`"tool":"Weather"`, `"s":0.9`, `"wanted_tool":"WikiSearch"`, `"wrong_tool":true`,
		`"useful":8`, `"switches":true`, `"tools_used":["Weather","Calculator"]`, `"grid":{"time":9}`, `"phase":"gear"`,
		`"anonymized":true`, `"model":"llama3.2"`, `"chosen_by":"grounding"`, `"answered_by":"model"`, `"route_by":"threshold"`,
		`"route_probability":0.97`, `"probability":0.91`, `"call_reading":{"confidence":0.64}`} {
		if !strings.Contains(out, kept) {
			t.Errorf("anonymized export lost %s", kept)
		}
	}
	if after, _ := json.Marshal(full); string(after) != string(before) {
		t.Error("Anonymize changed the dump it was called on")
	}
}
