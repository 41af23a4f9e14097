package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// One turn stores at most MaxText of each text, however much the model or
// a tool sent, and says where it was cut.
func TestOneTurnStoresAtMostMaxText(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	conv, err := s.CreateConversation(ctx, NewConversation{Mode: ModeChat})
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("é", 300<<10) // 600 KB
	ref, err := s.BeginTurn(ctx, conv, "q "+huge, ModeChat)
	if err != nil {
		t.Fatal(err)
	}
	rec := benchRecord(ref.TurnID)
	rec.Answer, rec.Error, rec.Input = huge, huge, huge
	rec.Calls[0].Response = huge
	if err := s.FinishTurn(ctx, rec); err != nil {
		t.Fatal(err)
	}
	var stored int
	if err := s.w.QueryRowContext(ctx, `SELECT max(length(CAST(text AS BLOB))) FROM messages`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored > MaxText {
		t.Errorf("a message of %d bytes was stored", stored)
	}
	got, err := s.Turn(ctx, ref.TurnID)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"query": got.Query, "answer": got.Answer, "error": got.Error,
		"input": got.Input, "tool response": got.Calls[0].Response} {
		if len(text) > MaxText || !strings.HasSuffix(text, cutMark) || !utf8.ValidString(text) {
			t.Errorf("%s: %d bytes, ends %q", name, len(text), text[max(0, len(text)-40):])
		}
	}
}

// A huge text written by an older gear (before the cap) is read back cut:
// history readers never hold a whole huge message.
func TestHugeStoredTextIsCutOnRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	conv, err := s.CreateConversation(ctx, NewConversation{Mode: ModeChat})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := s.BeginTurn(ctx, conv, "question", ModeChat)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTurn(ctx, benchRecord(ref.TurnID)); err != nil {
		t.Fatal(err)
	}
	// As an older gear would have stored them straight into the rows:
	// 300 KB (read, then cut) and 8 MB (too long to read at all).
	long, huge := strings.Repeat("x", 300<<10), strings.Repeat("x", 8<<20)
	for q, text := range map[string]string{`UPDATE messages SET text = ? WHERE turn_id = ?`: long,
		`UPDATE turns SET error = ? WHERE id = ?`: huge, `UPDATE tool_calls SET response = ? WHERE turn_id = ?`: huge} {
		if _, err := s.w.ExecContext(ctx, q, text, ref.TurnID); err != nil {
			t.Fatal(err)
		}
	}
	turns, err := s.Turns(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := s.Messages(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	dump, err := s.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tu, dt := turns[0], dump.Conversations[0].Turns[0]
	for name, text := range map[string]string{"answer": tu.Answer, "query": tu.Query, "error": tu.Error,
		"tool response": tu.Calls[0].Response, "message": msgs[0].Text, "message 2": msgs[1].Text, "exported answer": dt.Answer} {
		if len(text) > MaxText {
			t.Errorf("%s read back whole: %d bytes", name, len(text))
		}
	}
	if !strings.HasSuffix(tu.Answer, cutMark) {
		t.Errorf("the cut answer is not marked")
	}
	if !strings.Contains(tu.Error, "a text of 8388608 bytes") {
		t.Errorf("the note for a text too long to read: %q", tu.Error)
	}
}

// Migration 6 indexes a text an older gear stored whole by its first 64
// KiB only, keeping the text: a search no longer reads all of it.
func TestHugeLegacyTextIsIndexedByItsStart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gear.db")
	old, err := Open(ctx, path, Options{migrateTo: 5})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := old.CreateConversation(ctx, NewConversation{Mode: ModeChat})
	if err != nil {
		t.Fatal(err)
	}
	// As the older gear wrote a turn, with an answer of 350 KB.
	text := "headword " + strings.Repeat("filler ", 50<<10) + " tailword"
	res, err := old.w.ExecContext(ctx, `INSERT INTO turns (conversation_id, query, mode, status, created_at)
		VALUES (?, 'q', 'chat', 'done', 1)`, conv)
	if err != nil {
		t.Fatal(err)
	}
	turnID, _ := res.LastInsertId()
	if _, err := old.w.ExecContext(ctx, `INSERT INTO messages (conversation_id, turn_id, role, text, created_at)
		VALUES (?, ?, 'assistant', ?, 1)`, conv, turnID, text); err != nil {
		t.Fatal(err)
	}
	old.Close()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	count := func(word string) (n int) {
		if err := s.w.QueryRowContext(ctx, `SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?`, word).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count("headword") != 1 || count("tailword") != 0 {
		t.Errorf("index after migration: headword %d, tailword %d; want 1, 0", count("headword"), count("tailword"))
	}
	var kept int
	if err := s.w.QueryRowContext(ctx, `SELECT octet_length(text) FROM messages WHERE turn_id = ?`, turnID).Scan(&kept); err != nil || kept != len(text) {
		t.Errorf("the text itself: %d bytes (%v), want %d", kept, err, len(text))
	}
}
