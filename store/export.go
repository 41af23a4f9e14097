package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"time"
)

// DumpFormat names the export format; it changes when a field changes
// meaning. In gear-history/2 (schema 5) Grounded says grounding ran, also
// for a turn routed to no tool, and route_by, chosen_by and answered_by
// are recorded; DecodeDump reads gear-history/1 too.
const DumpFormat = "gear-history/2"

// Dump is an export of the history: what `gear history export` writes and
// what a study's report reads.
type Dump struct {
	Format        string             `json:"format"`
	SchemaVersion int                `json:"schema_version"`
	Exported      time.Time          `json:"exported"`
	Anonymized    bool               `json:"anonymized"`
	Conversations []ConversationDump `json:"conversations"`
	Surveys       []SurveyResponse   `json:"survey_responses"`
}

// ConversationDump is a conversation with its turns.
type ConversationDump struct {
	Conversation
	Turns []Turn `json:"turns"`
}

// Export reads the given conversations, or with no ids the whole history
// (every conversation, oldest first, and every survey response), in one
// snapshot.
func (s *Store) Export(ctx context.Context, ids ...int64) (Dump, error) {
	d := Dump{Format: DumpFormat, SchemaVersion: SchemaVersion, Exported: fromUnixMS(unixMS(s.now())),
		Conversations: []ConversationDump{}, Surveys: []SurveyResponse{}}
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		d.Conversations, d.Surveys = d.Conversations[:0], d.Surveys[:0]
		if len(ids) > 0 {
			for _, id := range ids {
				c, err := conversationTx(ctx, tx, id)
				if err != nil {
					return err
				}
				turns, err := loadTurns(ctx, tx, "t.conversation_id = ?", id)
				if err != nil {
					return err
				}
				d.Conversations = append(d.Conversations, ConversationDump{c, orEmpty(turns)})
			}
			return nil
		}
		convs, err := conversationsTx(ctx, tx, "ORDER BY c.id")
		if err != nil {
			return err
		}
		index := map[int64]int{}
		for _, c := range convs {
			index[c.ID] = len(d.Conversations)
			d.Conversations = append(d.Conversations, ConversationDump{c, []Turn{}})
		}
		turns, err := loadTurns(ctx, tx, "1")
		if err != nil {
			return err
		}
		for _, t := range turns {
			c := &d.Conversations[index[t.ConversationID]]
			c.Turns = append(c.Turns, t)
		}
		d.Surveys, err = surveysTx(ctx, tx, "ORDER BY id")
		return err
	})
	if err != nil {
		return Dump{}, classify(s.path, "export", err)
	}
	return d, nil
}

func orEmpty(turns []Turn) []Turn {
	if turns == nil {
		return []Turn{}
	}
	return turns
}

// Anonymize returns a copy without free text or ids that identify a
// person: titles, queries, answers, tool calls and responses, error and
// repair notes, call doubts, rating comments and participant ids are
// emptied; in survey answers, strings (open-ended answers) are dropped
// while numbers, booleans and lists of choices stay. Tool names, scores, timings, modes,
// phases and ratings stay, so the study's figures can still be computed.
func (d Dump) Anonymize() Dump {
	out := d
	out.Anonymized = true
	out.Conversations = make([]ConversationDump, len(d.Conversations))
	for i, c := range d.Conversations {
		c.Title, c.ParticipantID = "", ""
		turns := make([]Turn, len(c.Turns))
		for j, t := range c.Turns {
			t.Query, t.Input, t.Answer, t.Error, t.RepairNote = "", "", "", "", ""
			t.Usage = slices.Clone(t.Usage)
			t.Grounding = slices.Clone(t.Grounding)
			for k := range t.Grounding {
				t.Grounding[k].Call, t.Grounding[k].Response = "", ""
			}
			t.Calls = slices.Clone(t.Calls)
			for k := range t.Calls {
				call := &t.Calls[k]
				call.Call, call.Original, call.Response, call.Error = "", "", "", ""
			}
			if t.CallReading != nil {
				// The doubts quote the query; the number stays.
				t.CallReading = &CallReading{Confidence: t.CallReading.Confidence}
			}
			if t.Rating != nil {
				r := *t.Rating
				r.Comment = ""
				t.Rating = &r
			}
			turns[j] = t
		}
		c.Turns = turns
		out.Conversations[i] = c
	}
	out.Surveys = make([]SurveyResponse, len(d.Surveys))
	for i, r := range d.Surveys {
		r.ParticipantID = ""
		r.Answers = anonymizeAnswers(r.Answers)
		out.Surveys[i] = r
	}
	return out
}

func anonymizeAnswers(raw json.RawMessage) json.RawMessage {
	var answers map[string]any
	if err := json.Unmarshal(raw, &answers); err != nil {
		return json.RawMessage("{}")
	}
	kept := map[string]any{}
	for k, v := range answers {
		if v, ok := withoutText(v); ok {
			kept[k] = v
		}
	}
	b, err := json.Marshal(kept)
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}

// withoutText drops strings, except as elements of a list (a multiple
// choice), from an answer value.
func withoutText(v any) (any, bool) {
	switch v := v.(type) {
	case string:
		return nil, false
	case map[string]any:
		kept := map[string]any{}
		for k, x := range v {
			if x, ok := withoutText(x); ok {
				kept[k] = x
			}
		}
		return kept, true
	case []any:
		for _, x := range v {
			if _, isMap := x.(map[string]any); isMap {
				return nil, false
			}
		}
		return v, true
	}
	return v, true
}
