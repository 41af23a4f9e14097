package store

import (
	"context"
	"database/sql"
	"errors"
)

// readTx runs fn in one read transaction (one snapshot), retried while
// locked.
func (s *Store) readTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return s.retry(ctx, func(ctx context.Context) error {
		tx, err := s.r.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		return fn(tx)
	})
}

const conversationColumns = `c.id, c.title, c.mode, c.created_at, c.updated_at, c.chat_engine, c.chat_model,
	c.grounding_engine, c.grounding_model, c.embedding_engine, c.embedding_model, c.participant_id, c.study_phase,
	(SELECT count(*) FROM turns WHERE conversation_id = c.id)`

func scanConversation(row interface{ Scan(...any) error }) (Conversation, error) {
	var c Conversation
	var created, updated int64
	err := row.Scan(&c.ID, &c.Title, &c.Mode, &created, &updated, &c.Chat.Engine, &c.Chat.Model,
		&c.Grounding.Engine, &c.Grounding.Model, &c.Embedding.Engine, &c.Embedding.Model,
		&c.ParticipantID, &c.StudyPhase, &c.TurnCount)
	c.Created, c.Updated = fromUnixMS(created), fromUnixMS(updated)
	return c, err
}

// Conversations lists conversations, most recently updated first; limit
// <= 0 lists all.
func (s *Store) Conversations(ctx context.Context, limit int) ([]Conversation, error) {
	if limit <= 0 {
		limit = -1
	}
	var out []Conversation
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = conversationsTx(ctx, tx, "ORDER BY c.updated_at DESC, c.id DESC LIMIT ?", limit)
		return err
	})
	return out, classify(s.path, "list conversations", err)
}

// conversationsTx reads the conversations in the order tail gives.
func conversationsTx(ctx context.Context, tx *sql.Tx, tail string, args ...any) ([]Conversation, error) {
	var out []Conversation
	err := eachRow(ctx, tx, "SELECT "+conversationColumns+" FROM conversations c "+tail, args, func(rows *sql.Rows) error {
		c, err := scanConversation(rows)
		if err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// Conversation returns one conversation.
func (s *Store) Conversation(ctx context.Context, id int64) (Conversation, error) {
	var c Conversation
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		c, err = conversationTx(ctx, tx, id)
		return err
	})
	return c, classify(s.path, "read conversation", err)
}

func conversationTx(ctx context.Context, tx *sql.Tx, id int64) (Conversation, error) {
	c, err := scanConversation(tx.QueryRowContext(ctx,
		"SELECT "+conversationColumns+" FROM conversations c WHERE c.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return c, &NotFoundError{"conversation", id}
	}
	return c, err
}

// Turns returns a conversation's turns in order, with grounding scores,
// calls, usage, answers and ratings.
func (s *Store) Turns(ctx context.Context, conversationID int64) ([]Turn, error) {
	var turns []Turn
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		if _, err := conversationTx(ctx, tx, conversationID); err != nil {
			return err
		}
		var err error
		turns, err = loadTurns(ctx, tx, "t.conversation_id = ?", conversationID)
		return err
	})
	return turns, classify(s.path, "read turns", err)
}

// RecentTurns returns at most limit of a conversation's last turns, in
// order, and how many earlier turns it left out: the chat window reopens a
// conversation of any length without reading all of it.
func (s *Store) RecentTurns(ctx context.Context, conversationID int64, limit int) ([]Turn, int, error) {
	var turns []Turn
	var total int
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		if _, err := conversationTx(ctx, tx, conversationID); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM turns WHERE conversation_id = ?`, conversationID).Scan(&total); err != nil {
			return err
		}
		var err error
		turns, err = loadTurns(ctx, tx, `t.conversation_id = ? AND t.id IN
			(SELECT id FROM turns WHERE conversation_id = ? ORDER BY id DESC LIMIT ?)`, conversationID, conversationID, max(limit, 0))
		return err
	})
	if err != nil {
		return nil, 0, classify(s.path, "read turns", err)
	}
	return turns, total - len(turns), nil
}

// Turn returns one turn.
func (s *Store) Turn(ctx context.Context, id int64) (Turn, error) {
	var turns []Turn
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		turns, err = loadTurns(ctx, tx, "t.id = ?", id)
		return err
	})
	if err == nil && len(turns) == 0 {
		err = &NotFoundError{"turn", id}
	}
	if err != nil {
		return Turn{}, classify(s.path, "read turn", err)
	}
	return turns[0], nil
}

// Messages returns a conversation's messages in order: the context the
// agent gives the model.
func (s *Store) Messages(ctx context.Context, conversationID int64) ([]Message, error) {
	var out []Message
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		if _, err := conversationTx(ctx, tx, conversationID); err != nil {
			return err
		}
		return eachRow(ctx, tx, `SELECT id, conversation_id, turn_id, role, `+clipped("text")+`, created_at
			FROM messages WHERE conversation_id = ? ORDER BY id`, []any{conversationID}, func(rows *sql.Rows) error {
			var m Message
			var created int64
			if err := rows.Scan(&m.ID, &m.ConversationID, &m.TurnID, &m.Role, &m.Text, &created); err != nil {
				return err
			}
			m.Text = capText(m.Text)
			m.Created = fromUnixMS(created)
			out = append(out, m)
			return nil
		})
	})
	return out, classify(s.path, "read messages", err)
}

// loadTurns reads the turns matching where (over turns t) with their
// child rows.
func loadTurns(ctx context.Context, tx *sql.Tx, where string, args ...any) ([]Turn, error) {
	rows, err := tx.QueryContext(ctx, `SELECT t.id, t.conversation_id, `+clipped("t.query")+`, `+clipped("t.input")+`, t.mode, t.status, t.route, t.route_by,
		t.route_probability, t.route_threshold, t.grounded, t.tool, t.tool_family, t.chosen_by, t.confidence,
		t.call_confidence, t.call_doubts, t.emission, `+clipped("t.repair_note")+`, t.answered_by, `+clipped("t.error")+`,
		t.route_ms, t.ground_ms, t.emit_ms, t.tool_ms, t.answer_ms, t.total_ms, t.created_at, t.finished_at,
		COALESCE(um.id, 0), COALESCE(am.id, 0), COALESCE(`+clipped("am.text")+`, ''), `+ratingColumns+`
		FROM turns t
		LEFT JOIN messages um ON um.turn_id = t.id AND um.role = 'user'
		LEFT JOIN messages am ON am.turn_id = t.id AND am.role = 'assistant'
		LEFT JOIN ratings r ON r.turn_id = t.id
		WHERE `+where+` ORDER BY t.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var turns []Turn
	index := map[int64]int{}
	for rows.Next() {
		var t Turn
		var confidence, routeP, routeT, callConfidence sql.NullFloat64
		var callDoubts string
		var lat [6]float64
		var created int64
		var finished sql.NullInt64
		var r ratingRow
		err := rows.Scan(&t.TurnID, &t.ConversationID, &t.Query, &t.Input, &t.Mode, &t.Status, &t.Route, &t.RouteBy,
			&routeP, &routeT, &t.Grounded, &t.Tool, &t.ToolFamily, &t.ChosenBy, &confidence,
			&callConfidence, &callDoubts, &t.Emission, &t.RepairNote, &t.AnsweredBy, &t.Error,
			&lat[0], &lat[1], &lat[2], &lat[3], &lat[4], &lat[5], &created, &finished,
			&t.UserMessageID, &t.AnswerMessageID, &t.Answer,
			&r.score, &r.wrong, &r.wanted, &r.comment, &r.rated)
		if err != nil {
			return nil, err
		}
		t.Query, t.Input, t.RepairNote, t.Error, t.Answer = capText(t.Query), capText(t.Input), capText(t.RepairNote), capText(t.Error), capText(t.Answer)
		t.Confidence, t.RouteProbability, t.RouteThreshold = confidence.Float64, routeP.Float64, routeT.Float64
		t.CallReading = readCallReading(callConfidence, callDoubts)
		t.Latency = Latency{fromMS(lat[0]), fromMS(lat[1]), fromMS(lat[2]), fromMS(lat[3]), fromMS(lat[4]), fromMS(lat[5])}
		t.Started = fromUnixMS(created)
		if finished.Valid {
			t.Finished = fromUnixMS(finished.Int64)
		}
		t.Rating = r.rating(t.TurnID)
		t.Usage, t.Grounding, t.Calls = []RoleUsage{}, []GroundingScore{}, []ToolCall{}
		index[t.TurnID] = len(turns)
		turns = append(turns, t)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if len(turns) == 0 {
		return nil, nil
	}
	return turns, loadChildren(ctx, tx, turns, index, where, args)
}

// ratingColumns are a turn's rating from ratings r, LEFT JOINed: all
// NULL when the turn is unrated. ratingRow receives them.
const ratingColumns = "r.score, r.wrong_tool, r.wanted_tool, r.comment, r.rated_at"

type ratingRow struct {
	score, wrong, rated sql.NullInt64
	wanted, comment     sql.NullString
}

// rating is the turn's rating, nil when it has none.
func (r ratingRow) rating(turnID int64) *Rating {
	if !r.score.Valid {
		return nil
	}
	return &Rating{TurnID: turnID, Score: Score(r.score.Int64), WrongTool: r.wrong.Int64 == 1,
		WantedTool: r.wanted.String, Comment: r.comment.String, Rated: fromUnixMS(r.rated.Int64)}
}

func loadChildren(ctx context.Context, tx *sql.Tx, turns []Turn, index map[int64]int, where string, args []any) error {
	within := " WHERE turn_id IN (SELECT t.id FROM turns t WHERE " + where + ")"
	err := eachRow(ctx, tx, `SELECT turn_id, role, calls, prompt_tokens, completion_tokens, estimated
		FROM turn_usage`+within+` ORDER BY turn_id, CASE role WHEN 'chat' THEN 1 WHEN 'grounding' THEN 2 ELSE 3 END`,
		args, func(rows *sql.Rows) error {
			var id int64
			var u RoleUsage
			if err := rows.Scan(&id, &u.Role, &u.Calls, &u.PromptTokens, &u.CompletionTokens, &u.Estimated); err != nil {
				return err
			}
			t := &turns[index[id]]
			t.Usage = append(t.Usage, u)
			return nil
		})
	if err != nil {
		return err
	}
	err = eachRow(ctx, tx, `SELECT turn_id, rank, tool, family, semantic, pattern, final, COALESCE(probability, 0),
		call, response, response_kind
		FROM grounding_scores`+within+` ORDER BY turn_id, rank, tool`,
		args, func(rows *sql.Rows) error {
			var id int64
			var g GroundingScore
			err := rows.Scan(&id, &g.Rank, &g.Tool, &g.Family, &g.Semantic, &g.Pattern, &g.Final, &g.Probability,
				&g.Call, &g.Response, &g.ResponseKind)
			if err != nil {
				return err
			}
			t := &turns[index[id]]
			t.Grounding = append(t.Grounding, g)
			return nil
		})
	if err != nil {
		return err
	}
	return eachRow(ctx, tx, `SELECT turn_id, tool, source_kind, source_name, `+clipped("call")+`, checked, `+clipped("original")+`, `+clipped("response")+`, `+clipped("error")+`, duration_ms
		FROM tool_calls`+within+` ORDER BY turn_id, seq`,
		args, func(rows *sql.Rows) error {
			var id int64
			var c ToolCall
			var duration float64
			if err := rows.Scan(&id, &c.Tool, &c.Source.Kind, &c.Source.Name, &c.Call, &c.Check, &c.Original, &c.Response, &c.Error, &duration); err != nil {
				return err
			}
			c.Call, c.Original, c.Response, c.Error = capText(c.Call), capText(c.Original), capText(c.Response), capText(c.Error)
			c.Duration = fromMS(duration)
			t := &turns[index[id]]
			t.Calls = append(t.Calls, c)
			return nil
		})
}

func eachRow(ctx context.Context, tx *sql.Tx, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
