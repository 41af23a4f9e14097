package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// fileHolds reports whether the database file or its WAL holds needle.
func fileHolds(t *testing.T, path, needle string) bool {
	t.Helper()
	for _, f := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(needle)) {
			return true
		}
	}
	return false
}

func TestDeleteConversationPurgesEverything(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gear.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const secret = "quokkasecretword"
	keep, _ := s.CreateConversation(ctx, NewConversation{})
	keepRef, _ := s.BeginTurn(ctx, keep, "weather in Perth", ModeChat)
	if err := s.FinishTurn(ctx, benchRecord(keepRef.TurnID)); err != nil {
		t.Fatal(err)
	}
	if err := s.Rate(ctx, Rating{TurnID: keepRef.TurnID, Score: ScoreUp}); err != nil {
		t.Fatal(err)
	}
	gone, _ := s.CreateConversation(ctx, NewConversation{})
	// Enough turns that the index has several segments.
	for range 20 {
		ref, err := s.BeginTurn(ctx, gone, "my private "+secret+" question", ModeChat)
		if err != nil {
			t.Fatal(err)
		}
		rec := benchRecord(ref.TurnID)
		rec.Calls[0].Response = "tool saw " + secret
		rec.Grounding[0].Response = "probe saw " + secret
		rec.Answer = "answer about " + secret
		if err := s.FinishTurn(ctx, rec); err != nil {
			t.Fatal(err)
		}
		if err := s.Rate(ctx, Rating{TurnID: ref.TurnID, Score: ScoreDown, Comment: "comment " + secret}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	if !fileHolds(t, path, secret) {
		t.Fatal("the secret never reached the file; the test proves nothing")
	}

	if err := s.DeleteConversation(ctx, gone); err != nil {
		t.Fatal(err)
	}
	q, _ := ParseQuery(secret, nil)
	if hits, err := s.Search(ctx, q, 5); err != nil || len(hits) != 0 {
		t.Errorf("search after delete: %v, %v", hits, err)
	}
	for _, table := range []string{"turns", "messages", "grounding_scores", "tool_calls", "ratings", "turn_usage"} {
		var n int
		s.r.QueryRow("SELECT count(*) FROM " + table).Scan(&n)
		if n == 0 {
			t.Errorf("%s: the kept conversation's rows went too", table)
		}
	}
	var indexed int
	s.r.QueryRow("SELECT count(*) FROM messages_fts_docsize").Scan(&indexed)
	if indexed != 2 {
		t.Errorf("message index holds %d documents, want the kept 2", indexed)
	}
	if fileHolds(t, path, secret) {
		t.Error("the deleted text is still in the database file")
	}
	if _, err := s.Conversation(ctx, gone); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted conversation: %v", err)
	}
	if err := s.DeleteConversation(ctx, gone); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting twice: %v", err)
	}
	if got, err := s.Turn(ctx, keepRef.TurnID); err != nil || len(got.Grounding) != 5 {
		t.Errorf("kept turn: %+v, %v", got, err)
	}
}

func TestDeleteAll(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gear.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for range 3 {
		conv, _ := s.CreateConversation(ctx, NewConversation{})
		ref, _ := s.BeginTurn(ctx, conv, "numbat question", ModeChat)
		s.FinishTurn(ctx, benchRecord(ref.TurnID))
	}
	s.SetSetting(ctx, SettingParticipantID, "p-1")
	if _, err := s.SaveSurvey(ctx, SurveyResponse{ParticipantID: "p-1", Version: "v1", Answers: json.RawMessage(`{"q": "numbat"}`)}); err != nil {
		t.Fatal(err)
	}
	s.PutEmbeddings(ctx, "m", []string{"numbat"}, [][]float32{{1}})
	got, err := s.DeleteAll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got != (Totals{Conversations: 3, Surveys: 1}) {
		t.Errorf("deleted %+v", got)
	}
	if left, _ := s.Counts(ctx); left != (Totals{}) {
		t.Errorf("left %+v", left)
	}
	if v, ok, _ := s.Setting(ctx, SettingParticipantID); !ok || v != "p-1" {
		t.Error("the participant id did not survive")
	}
	if vecs, _ := s.CachedEmbeddings(ctx, "m", []string{"numbat"}); vecs[0] != nil {
		t.Error("the embedding cache survived")
	}
	if fileHolds(t, path, "numbat") {
		t.Error("deleted text is still in the file")
	}
}
