package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

func TestMigrationsAreNumberedUpToSchemaVersion(t *testing.T) {
	t.Parallel()
	all, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != SchemaVersion {
		t.Fatalf("%d migration files, SchemaVersion is %d", len(all), SchemaVersion)
	}
	for i, m := range all {
		if m.version != i+1 || m.sql == "" {
			t.Errorf("migration %d: %+v", i+1, m)
		}
	}
}

// seedAt writes, with plain SQL valid at schema version v, a conversation
// whose user message and tool response hold the word "kestrel", and at
// v >= 3 a rating, a survey response and a setting, at v >= 4 a cached
// embedding.
func seedAt(t *testing.T, db *sql.DB, v int) {
	t.Helper()
	stmts := []string{
		`INSERT INTO conversations (id, title, mode, created_at, updated_at) VALUES (1, 'kestrels', 'chat', 1000, 2000)`,
		`INSERT INTO turns (id, conversation_id, query, mode, status, tool, tool_family, confidence, created_at, finished_at)
			VALUES (1, 1, 'where do kestrel birds live', 'chat', 'done', 'WikiSearch', 'wiki', 0.8, 1000, 2000)`,
		`INSERT INTO messages (conversation_id, turn_id, role, text, created_at) VALUES (1, 1, 'user', 'where do kestrel birds live', 1000)`,
		`INSERT INTO messages (conversation_id, turn_id, role, text, created_at) VALUES (1, 1, 'assistant', 'Across Europe, Asia and Africa.', 2000)`,
		`INSERT INTO grounding_scores (turn_id, tool, family, rank, semantic, pattern, final, response_kind)
			VALUES (1, 'WikiSearch', 'wiki', 1, 0.7, 0.4, 0.62, 'real')`,
		`INSERT INTO tool_calls (turn_id, seq, tool, call, checked, response, created_at)
			VALUES (1, 1, 'WikiSearch', 'WikiSearch("kestrel")', 'validated', 'The common kestrel is a bird of prey', 1500)`,
	}
	if v >= 3 {
		stmts = append(stmts,
			`INSERT INTO ratings (turn_id, score, wrong_tool, rated_at) VALUES (1, 1, 0, 3000)`,
			`INSERT INTO survey_responses (participant_id, questionnaire_version, answers, status, started_at, updated_at)
				VALUES ('p1', 'v1', '{"q1": 7}', 'in-progress', 3000, 3000)`,
			`INSERT INTO settings (key, value, updated_at) VALUES ('participant_id', 'p1', 3000)`)
	}
	if v >= 4 {
		stmts = append(stmts, `INSERT INTO embeddings (model, text_hash, dims, vector, created_at)
			VALUES ('m', zeroblob(32), 1, zeroblob(4), 3000)`)
	}
	if v == 0 {
		return
	}
	for _, stmt := range stmts {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("seed at version %d: %v", v, err)
		}
	}
}

// TestMigrateFromEveryVersion builds a database at each earlier version,
// with data, and opens it with the current code.
func TestMigrateFromEveryVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for from := 0; from < SchemaVersion; from++ {
		t.Run(fmt.Sprintf("from version %d", from), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gear.db")
			if from > 0 {
				old, err := Open(ctx, path, Options{migrateTo: from})
				if err != nil {
					t.Fatal(err)
				}
				var v int
				if err := old.w.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != from {
					t.Fatalf("built version %d, want %d (%v)", v, from, err)
				}
				seedAt(t, old.w, from)
				old.Close()
			}
			s, err := Open(ctx, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var version, appID int
			if err := s.w.QueryRow("SELECT (SELECT user_version FROM pragma_user_version), (SELECT application_id FROM pragma_application_id)").Scan(&version, &appID); err != nil {
				t.Fatal(err)
			}
			if version != SchemaVersion || appID != applicationID {
				t.Fatalf("after migration: version %d, application id %#x", version, appID)
			}
			if from > 0 {
				checkSeed(t, s, from)
			}
			// The migrated database takes new turns and searches them.
			conv, err := s.CreateConversation(ctx, NewConversation{})
			if err != nil {
				t.Fatal(err)
			}
			ref, err := s.BeginTurn(ctx, conv, "a falcon after migrating", ModeChat)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.FinishTurn(ctx, benchRecord(ref.TurnID)); err != nil {
				t.Fatal(err)
			}
			q, _ := ParseQuery("falcon", nil)
			if hits, err := s.Search(ctx, q, 5); err != nil || len(hits) != 1 {
				t.Errorf("search after migration: %v, %v", hits, err)
			}
		})
	}
}

func checkSeed(t *testing.T, s *Store, from int) {
	t.Helper()
	ctx := context.Background()
	turn, err := s.Turn(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if turn.Query != "where do kestrel birds live" || turn.Answer != "Across Europe, Asia and Africa." ||
		len(turn.Grounding) != 1 || len(turn.Calls) != 1 || turn.Confidence != 0.8 || !turn.Started.Equal(time.UnixMilli(1000)) {
		t.Errorf("seeded turn = %+v", turn)
	}
	// Every call recorded before tool sources were kept was of a built-in tool.
	if len(turn.Calls) == 1 && (turn.Calls[0].Source != ToolSource{Kind: SourceBuiltin} || turn.Calls[0].Source.String() != "built-in") {
		t.Errorf("seeded call's source = %+v", turn.Calls[0].Source)
	}
	// Rows written before the index existed are searchable.
	q, _ := ParseQuery("kestrel", nil)
	hits, err := s.Search(ctx, q, 5)
	if err != nil || len(hits) != 1 || hits[0].TurnID != 1 {
		t.Errorf("search for seeded rows: %+v, %v", hits, err)
	}
	if from >= 3 {
		if turn.Rating == nil || turn.Rating.Score != ScoreUp {
			t.Errorf("seeded rating = %+v", turn.Rating)
		}
		if _, ok, err := s.ResumableSurvey(ctx, "p1", "v1"); !ok || err != nil {
			t.Errorf("seeded survey not resumable: %v", err)
		}
	}
}
