package store

import (
	"context"
	"database/sql"
)

// DeleteConversation deletes a conversation with its turns, messages,
// scores, calls and ratings, and purges them from the search index and
// the file: deleted pages are zeroed (secure_delete), the index is merged
// without them and the WAL is truncated. (Another gear process reading at
// that moment can keep old pages in the WAL until its next checkpoint.)
func (s *Store) DeleteConversation(ctx context.Context, id int64) error {
	err := s.write(ctx, false, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM conversations WHERE id = ?", id)
		if err != nil {
			return err
		}
		if err := requireRow(res, "conversation", id); err != nil {
			return err
		}
		return purgeIndex(ctx, tx)
	})
	if err != nil {
		return classify(s.path, "delete conversation", err)
	}
	return classify(s.path, "delete conversation", s.checkpoint(ctx))
}

// Totals counts conversations and survey responses (what DeleteAll removed, or what Counts finds).
type Totals struct {
	Conversations int64 `json:"conversations"`
	Surveys       int64 `json:"survey_responses"`
}

// DeleteAll deletes every conversation and survey response, and the
// embedding cache, purging them as DeleteConversation does. Settings (the
// study's participant id and phase) are kept.
func (s *Store) DeleteAll(ctx context.Context) (Totals, error) {
	var d Totals
	err := s.write(ctx, false, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM conversations")
		if err != nil {
			return err
		}
		if d.Conversations, err = res.RowsAffected(); err != nil {
			return err
		}
		if res, err = tx.ExecContext(ctx, "DELETE FROM survey_responses"); err != nil {
			return err
		}
		if d.Surveys, err = res.RowsAffected(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM embeddings"); err != nil {
			return err
		}
		return purgeIndex(ctx, tx)
	})
	if err != nil {
		return Totals{}, classify(s.path, "delete history", err)
	}
	return d, classify(s.path, "delete history", s.checkpoint(ctx))
}

// purgeIndex merges each full-text index into one segment: FTS4 records a
// deletion as a new segment and keeps the old terms until segments merge.
func purgeIndex(ctx context.Context, tx *sql.Tx) error {
	for _, table := range []string{"messages_fts", "tool_calls_fts"} {
		if _, err := tx.ExecContext(ctx, "INSERT INTO "+table+" ("+table+") VALUES ('optimize')"); err != nil {
			return err
		}
	}
	return nil
}

// checkpoint copies the WAL into the file and truncates it, so deleted
// pages do not linger there.
func (s *Store) checkpoint(ctx context.Context) error {
	return s.retry(ctx, func(ctx context.Context) error {
		var busy, logFrames, done int
		return s.w.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &done)
	})
}

// Counts returns how many conversations and survey responses the database
// holds.
func (s *Store) Counts(ctx context.Context) (Totals, error) {
	var d Totals
	err := s.read(ctx, func(ctx context.Context, db *sql.DB) error {
		return db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM conversations),
			(SELECT count(*) FROM survey_responses)`).Scan(&d.Conversations, &d.Surveys)
	})
	return d, classify(s.path, "count history", err)
}
