package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Rate records the user's rating of a turn, replacing an earlier one.
// A zero Rated means now.
func (s *Store) Rate(ctx context.Context, r Rating) error {
	switch r.Score {
	case ScoreNone, ScoreUp, ScoreDown:
	default:
		return fmt.Errorf("rate turn %d: score %d: want 1 (up), -1 (down) or 0", r.TurnID, r.Score)
	}
	if r.Rated.IsZero() {
		r.Rated = s.now()
	}
	err := s.write(ctx, false, func(tx *sql.Tx) error {
		if err := turnExists(ctx, tx, r.TurnID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO ratings (turn_id, score, wrong_tool, wanted_tool, comment, rated_at)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (turn_id) DO UPDATE SET score = excluded.score, wrong_tool = excluded.wrong_tool,
				wanted_tool = excluded.wanted_tool, comment = excluded.comment, rated_at = excluded.rated_at`,
			r.TurnID, r.Score, r.WrongTool, r.WantedTool, r.Comment, unixMS(r.Rated))
		return err
	})
	return classify(s.path, "rate turn", err)
}

func turnExists(ctx context.Context, tx *sql.Tx, id int64) error {
	var one int
	err := tx.QueryRowContext(ctx, "SELECT 1 FROM turns WHERE id = ?", id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return &NotFoundError{"turn", id}
	}
	return err
}

// Setting returns a setting's value and whether it is set.
func (s *Store) Setting(ctx context.Context, key string) (string, bool, error) {
	var value string
	err := s.read(ctx, func(ctx context.Context, db *sql.DB) error {
		return db.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", key).Scan(&value)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, classify(s.path, "read setting", err)
	}
	return value, true, nil
}

// SetSetting sets a setting.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	if key == "" {
		return errors.New("set setting: empty key")
	}
	err := s.write(ctx, false, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
			key, value, unixMS(s.now()))
		return err
	})
	return classify(s.path, "write setting", err)
}

// SaveSurvey inserts a survey response (ID 0) or updates it, and returns it
// as saved, with its ID and times. Save after every answer: a survey left
// in progress is resumed with ResumableSurvey.
func (s *Store) SaveSurvey(ctx context.Context, r SurveyResponse) (SurveyResponse, error) {
	answers := bytes.TrimSpace(r.Answers)
	if len(answers) == 0 {
		answers = []byte("{}")
	}
	var obj map[string]json.RawMessage
	var compact bytes.Buffer
	if err := json.Unmarshal(answers, &obj); err != nil || obj == nil || json.Compact(&compact, answers) != nil {
		return r, errors.New("save survey: answers must be a JSON object, question id -> answer")
	}
	answers = compact.Bytes()
	if strings.TrimSpace(r.ParticipantID) == "" || strings.TrimSpace(r.Version) == "" {
		return r, errors.New("save survey: participant id and questionnaire version are required")
	}
	switch r.Status {
	case "":
		r.Status = SurveyInProgress
	case SurveyInProgress, SurveyComplete:
	default:
		return r, fmt.Errorf("save survey: status %q: want in-progress or complete", r.Status)
	}
	now := s.now()
	r.Answers, r.Updated = json.RawMessage(answers), fromUnixMS(unixMS(now))
	if r.Started.IsZero() {
		r.Started = r.Updated
	}
	if r.Status == SurveyComplete && r.Completed.IsZero() {
		r.Completed = r.Updated
	}
	var completed any
	if !r.Completed.IsZero() {
		completed = unixMS(r.Completed)
	}
	err := s.write(ctx, false, func(tx *sql.Tx) error {
		if r.ID == 0 {
			res, err := tx.ExecContext(ctx, `INSERT INTO survey_responses
				(participant_id, questionnaire_version, phase, answers, status, started_at, updated_at, completed_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
				r.ParticipantID, r.Version, r.Phase, string(answers), r.Status, unixMS(r.Started), unixMS(now), completed)
			if err != nil {
				return err
			}
			r.ID, err = res.LastInsertId()
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE survey_responses SET participant_id = ?, questionnaire_version = ?,
			phase = ?, answers = ?, status = ?, started_at = ?, updated_at = ?, completed_at = ? WHERE id = ?`,
			r.ParticipantID, r.Version, r.Phase, string(answers), r.Status, unixMS(r.Started), unixMS(now), completed, r.ID)
		if err != nil {
			return err
		}
		return requireRow(res, "survey response", r.ID)
	})
	if err != nil {
		return r, classify(s.path, "save survey", err)
	}
	return r, nil
}

// ResumableSurvey returns the participant's latest unfinished response to
// a questionnaire version, if there is one.
func (s *Store) ResumableSurvey(ctx context.Context, participantID, version string) (SurveyResponse, bool, error) {
	var found []SurveyResponse
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		found, err = surveysTx(ctx, tx, `WHERE participant_id = ? AND questionnaire_version = ? AND status = 'in-progress'
			ORDER BY updated_at DESC, id DESC LIMIT 1`, participantID, version)
		return err
	})
	if err != nil || len(found) == 0 {
		return SurveyResponse{}, false, classify(s.path, "read survey", err)
	}
	return found[0], true, nil
}

// SurveyResponses returns every survey response, oldest first.
func (s *Store) SurveyResponses(ctx context.Context) ([]SurveyResponse, error) {
	var out []SurveyResponse
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = surveysTx(ctx, tx, "ORDER BY id")
		return err
	})
	return out, classify(s.path, "read surveys", err)
}

func surveysTx(ctx context.Context, tx *sql.Tx, tail string, args ...any) ([]SurveyResponse, error) {
	out := []SurveyResponse{}
	err := eachRow(ctx, tx, `SELECT id, participant_id, questionnaire_version, phase, answers, status,
		started_at, updated_at, completed_at FROM survey_responses `+tail, args, func(rows *sql.Rows) error {
		var r SurveyResponse
		var answers string
		var started, updated int64
		var completed sql.NullInt64
		err := rows.Scan(&r.ID, &r.ParticipantID, &r.Version, &r.Phase, &answers, &r.Status, &started, &updated, &completed)
		if err != nil {
			return err
		}
		r.Answers = json.RawMessage(answers)
		r.Started, r.Updated = fromUnixMS(started), fromUnixMS(updated)
		if completed.Valid {
			r.Completed = fromUnixMS(completed.Int64)
		}
		out = append(out, r)
		return nil
	})
	return out, err
}
