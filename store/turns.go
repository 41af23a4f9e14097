package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// Writing a conversation and its turns: a conversation created, a turn
// begun and finished in one transaction each with its usage, grounding
// scores, tool calls and answer, the call reading's columns, and the
// small text helpers they share.
// The checks a record passes first are in turns_check.go.

// titleRunes bounds a conversation title taken from its first query.
const titleRunes = 60

// CreateConversation records a new conversation and returns its id.
func (s *Store) CreateConversation(ctx context.Context, c NewConversation) (int64, error) {
	if c.Mode == "" {
		c.Mode = ModeChat
	}
	if err := checkMode(c.Mode); err != nil {
		return 0, fmt.Errorf("create conversation: %w", err)
	}
	now := unixMS(s.now())
	var id int64
	err := s.write(ctx, false, func(tx *sql.Tx) error {
		participant, phase := c.ParticipantID, c.StudyPhase
		if participant == "" {
			if err := settingTx(ctx, tx, SettingParticipantID, &participant); err != nil {
				return err
			}
		}
		if phase == "" {
			if err := settingTx(ctx, tx, SettingStudyPhase, &phase); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO conversations
			(title, mode, created_at, updated_at, chat_engine, chat_model, grounding_engine, grounding_model,
			 embedding_engine, embedding_model, participant_id, study_phase)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			truncateRunes(c.Title, titleRunes), c.Mode, now, now, c.Chat.Engine, c.Chat.Model,
			c.Grounding.Engine, c.Grounding.Model, c.Embedding.Engine, c.Embedding.Model, participant, phase)
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, classify(s.path, "create conversation", err)
}

// BeginTurn commits the user's query as a message and a running turn, in
// one transaction synced to disk. Call it before any model or tool is
// called: whatever happens next, what the user typed is kept. The
// conversation takes its title from its first query.
func (s *Store) BeginTurn(ctx context.Context, conversationID int64, query string, mode Mode) (TurnRef, error) {
	if err := checkMode(mode); err != nil {
		return TurnRef{}, fmt.Errorf("begin turn: %w", err)
	}
	if strings.TrimSpace(query) == "" {
		return TurnRef{}, errors.New("begin turn: the query is empty")
	}
	query = capText(query)
	started := s.now()
	now := unixMS(started)
	ref := TurnRef{ConversationID: conversationID, Started: fromUnixMS(now)}
	err := s.write(ctx, true, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE conversations SET updated_at = ?,
			title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?`,
			now, truncateRunes(oneLine(query), titleRunes), conversationID)
		if err != nil {
			return err
		}
		if err := requireRow(res, "conversation", conversationID); err != nil {
			return err
		}
		res, err = tx.ExecContext(ctx, `INSERT INTO turns (conversation_id, query, mode, status, created_at, owner_pid)
			VALUES (?, ?, ?, 'running', ?, ?)`, conversationID, query, mode, now, os.Getpid())
		if err != nil {
			return err
		}
		if ref.TurnID, err = res.LastInsertId(); err != nil {
			return err
		}
		res, err = tx.ExecContext(ctx, `INSERT INTO messages (conversation_id, turn_id, role, text, created_at)
			VALUES (?, ?, 'user', ?, ?)`, conversationID, ref.TurnID, query, now)
		if err != nil {
			return err
		}
		ref.UserMessageID, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return TurnRef{}, classify(s.path, "begin turn", err)
	}
	return ref, nil
}

// FinishTurn writes everything a turn did after BeginTurn, in one
// transaction. Calling it again for the same turn replaces the record: a
// turn that awaited confirmation and then ran, or progress saved while it
// runs. Cancelling ctx does not stop the write, so a cancelled turn is
// still recorded.
func (s *Store) FinishTurn(ctx context.Context, rec TurnRecord) error {
	if err := rec.check(); err != nil {
		return fmt.Errorf("finish turn %d: %w", rec.TurnID, err)
	}
	rec = rec.capped()
	ctx = context.WithoutCancel(ctx)
	now := unixMS(s.now())
	var finished any
	if rec.Status != StatusRunning && rec.Status != StatusAwaitingConfirmation {
		finished = now
	}
	var confidence, routeP, routeT any
	if rec.HasConfidence() {
		confidence = rec.Confidence
	}
	if rec.routeScored() {
		routeP, routeT = rec.RouteProbability, rec.RouteThreshold
	}
	callConfidence, callDoubts, err := rec.CallReading.columns()
	if err != nil {
		return fmt.Errorf("finish turn %d: %w", rec.TurnID, err)
	}
	err = s.write(ctx, false, func(tx *sql.Tx) error {
		var conversationID int64
		err := tx.QueryRowContext(ctx, `UPDATE turns SET status = ?, input = ?, route = ?, route_by = ?,
			route_probability = ?, route_threshold = ?, grounded = ?, tool = ?, tool_family = ?, chosen_by = ?,
			confidence = ?, call_confidence = ?, call_doubts = ?, emission = ?, repair_note = ?, answered_by = ?, error = ?,
			route_ms = ?, ground_ms = ?, emit_ms = ?, tool_ms = ?, answer_ms = ?, total_ms = ?, finished_at = ?
			WHERE id = ? RETURNING conversation_id`,
			rec.Status, rec.Input, rec.Route, rec.RouteBy, routeP, routeT, rec.Grounded, rec.Tool, rec.ToolFamily,
			rec.ChosenBy, confidence, callConfidence, callDoubts, rec.Emission, rec.RepairNote, rec.AnsweredBy, rec.Error,
			ms(rec.Latency.Route), ms(rec.Latency.Ground), ms(rec.Latency.Emit),
			ms(rec.Latency.Tool), ms(rec.Latency.Answer), ms(rec.Latency.Total), finished, rec.TurnID,
		).Scan(&conversationID)
		if errors.Is(err, sql.ErrNoRows) {
			return &NotFoundError{"turn", rec.TurnID}
		}
		if err != nil {
			return err
		}
		for _, table := range []string{"turn_usage", "grounding_scores", "tool_calls"} {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE turn_id = ?", rec.TurnID); err != nil {
				return err
			}
		}
		if err := insertUsage(ctx, tx, rec); err != nil {
			return err
		}
		if err := insertGrounding(ctx, tx, rec); err != nil {
			return err
		}
		if err := insertCalls(ctx, tx, rec, now); err != nil {
			return err
		}
		if err := writeAnswer(ctx, tx, conversationID, rec, now); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "UPDATE conversations SET updated_at = ? WHERE id = ?", now, conversationID)
		return err
	})
	return classify(s.path, "finish turn", err)
}

func insertUsage(ctx context.Context, tx *sql.Tx, rec TurnRecord) error {
	for _, u := range rec.Usage {
		_, err := tx.ExecContext(ctx, `INSERT INTO turn_usage
			(turn_id, role, calls, prompt_tokens, completion_tokens, estimated) VALUES (?, ?, ?, ?, ?, ?)`,
			rec.TurnID, u.Role, u.Calls, u.PromptTokens, u.CompletionTokens, u.Estimated)
		if err != nil {
			return err
		}
	}
	return nil
}

func insertGrounding(ctx context.Context, tx *sql.Tx, rec TurnRecord) error {
	if len(rec.Grounding) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO grounding_scores
		(turn_id, tool, family, rank, semantic, pattern, final, probability, call, response, response_kind)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i, g := range rec.Grounding {
		rank := g.Rank
		if rank == 0 {
			rank = i + 1
		}
		_, err := stmt.ExecContext(ctx, rec.TurnID, g.Tool, g.Family, rank, g.Semantic, g.Pattern, g.Final,
			g.Probability, g.Call, truncateBytes(g.Response, MaxExcerpt), g.ResponseKind)
		if err != nil {
			return err
		}
	}
	return nil
}

func insertCalls(ctx context.Context, tx *sql.Tx, rec TurnRecord, now int64) error {
	for i, c := range rec.Calls {
		kind := c.Source.Kind
		switch kind {
		case "":
			kind = SourceBuiltin
		case SourceBuiltin, SourceFile, SourceMCP:
		default:
			return fmt.Errorf("tool call %s: unknown source kind %q (want built-in, file or mcp)", c.Tool, kind)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tool_calls
			(turn_id, seq, tool, source_kind, source_name, call, checked, original, response, error, duration_ms, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			rec.TurnID, i+1, c.Tool, kind, c.Source.Name, c.Call, c.Check, c.Original, c.Response, c.Error, ms(c.Duration), now)
		if err != nil {
			return err
		}
	}
	return nil
}

// writeAnswer keeps the turn's one answer message in step with rec.Answer.
func writeAnswer(ctx context.Context, tx *sql.Tx, conversationID int64, rec TurnRecord, now int64) error {
	if rec.Answer == "" {
		_, err := tx.ExecContext(ctx, "DELETE FROM messages WHERE turn_id = ? AND role = 'assistant'", rec.TurnID)
		return err
	}
	res, err := tx.ExecContext(ctx, `UPDATE messages SET text = ?, created_at = ?
		WHERE turn_id = ? AND role = 'assistant' AND text <> ?`, rec.Answer, now, rec.TurnID, rec.Answer)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n > 0 {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO messages (conversation_id, turn_id, role, text, created_at)
		VALUES (?, ?, 'assistant', ?, ?) ON CONFLICT (turn_id, role) DO NOTHING`,
		conversationID, rec.TurnID, rec.Answer, now)
	return err
}

// oneLine folds whitespace so a query reads as a title.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// truncateBytes cuts s to at most n bytes on a character boundary.
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// requireRow is a NotFoundError for what id when res changed no row.
func requireRow(res sql.Result, what string, id int64) error {
	n, err := res.RowsAffected()
	if err == nil && n == 0 {
		return &NotFoundError{what, id}
	}
	return err
}

// settingTx reads a setting inside a transaction; a missing one leaves
// *value as is.
func settingTx(ctx context.Context, tx *sql.Tx, key string, value *string) error {
	err := tx.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", key).Scan(value)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	return err
}

// columns are the reading as turns keeps it: call_confidence (NULL when
// there is none) and call_doubts (a JSON array, ” when there is none).
func (r *CallReading) columns() (confidence any, doubts string, err error) {
	if r == nil {
		return nil, "", nil
	}
	if len(r.Doubts) == 0 {
		return r.Confidence, "", nil
	}
	data, err := json.Marshal(r.Doubts)
	return r.Confidence, string(data), err
}

// readCallReading is the reading stored in a turn's columns; nil when the
// turn has none. Doubts that do not parse (a file edited by hand) are
// kept as one doubt, so what was recorded is never lost.
func readCallReading(confidence sql.NullFloat64, doubts string) *CallReading {
	if !confidence.Valid {
		return nil
	}
	r := &CallReading{Confidence: confidence.Float64}
	if doubts == "" {
		return r
	}
	if err := json.Unmarshal([]byte(doubts), &r.Doubts); err != nil {
		r.Doubts = []string{capText(oneLine(doubts))}
	}
	return r
}
