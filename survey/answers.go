package survey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Answers maps question ids to answers: an int for a rating or a score, a
// bool for yes/no, a []string of tool names for a choice, a string for an
// open-ended question. A question without an entry is unanswered.
type Answers map[string]any

// AnswerError is an answer the questionnaire refuses: it names the
// question and says what it takes.
type AnswerError struct {
	Question Question
	Reason   string
}

func (e *AnswerError) Error() string { return e.Question.Label() + ": " + e.Reason }

// UnknownQuestionError is an answer to a question the questionnaire does
// not have.
type UnknownQuestionError struct {
	ID      string
	Version string
}

func (e *UnknownQuestionError) Error() string {
	return fmt.Sprintf("there is no question %q in questionnaire %s (gear survey --questions lists the ids)", e.ID, e.Version)
}

// Decode reads answers from a JSON object, question id -> answer, and
// validates every one: a rating or score is a whole number in range, yes/no
// is true/false or "yes"/"no", a choice is a list of the tools, text is a
// string. null or "" leaves a question unanswered. The first bad answer is
// the error, in questionnaire order.
func (q Questionnaire) Decode(data []byte) (Answers, error) {
	raw, err := decodeObject(data)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(raw))
	for id := range raw {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if _, ok := q.Question(id); !ok {
			return nil, &UnknownQuestionError{ID: id, Version: q.Version}
		}
	}
	out := Answers{}
	for _, x := range q.Questions {
		v, ok := raw[x.ID]
		if !ok {
			continue
		}
		val, answered, err := x.decodeJSON(v)
		if err != nil {
			return nil, err
		}
		if answered {
			out[x.ID] = val
		}
	}
	return out, nil
}

// Restore reads a stored response's answers leniently, for resuming:
// answers to questions this questionnaire does not have (a tool since
// removed) or no longer valid are dropped and their ids returned.
func (q Questionnaire) Restore(data []byte) (Answers, []string) {
	raw, err := decodeObject(data)
	if err != nil {
		return Answers{}, nil
	}
	out := Answers{}
	var dropped []string
	for id, v := range raw {
		x, ok := q.Question(id)
		if !ok {
			dropped = append(dropped, id)
			continue
		}
		val, answered, err := x.decodeJSON(v)
		switch {
		case err != nil:
			dropped = append(dropped, id)
		case answered:
			out[id] = val
		}
	}
	sort.Strings(dropped)
	return out, dropped
}

func decodeObject(data []byte) (map[string]json.RawMessage, error) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return nil, errors.New("the answers must be a JSON object, question id -> answer")
	}
	if dec.More() {
		return nil, errors.New("the answers must be one JSON object; there is more after it")
	}
	return raw, nil
}

// decodeJSON reads one answer; answered is false for null and "".
func (x Question) decodeJSON(raw json.RawMessage) (val any, answered bool, err error) {
	raw = bytes.TrimSpace(raw)
	if bytes.Equal(raw, []byte("null")) {
		return nil, false, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, false, x.refuse("the answer is not valid JSON")
	}
	switch x.Kind {
	case KindRating, KindScore:
		switch n := v.(type) {
		case json.Number:
			return x.number(n.String())
		case string:
			return nil, false, x.refuse(fmt.Sprintf("got the text %q; answer with %s, as a number", clip(n), x.Scale()))
		}
	case KindYesNo:
		switch b := v.(type) {
		case bool:
			return b, true, nil
		case string:
			return x.ParseField(b)
		}
	case KindChoice:
		list, ok := v.([]any)
		if !ok {
			break
		}
		names := make([]string, 0, len(list))
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				return nil, false, x.refuse("every choice must be a tool's name, as text; answer with " + x.Scale())
			}
			names = append(names, s)
		}
		val, err := x.choices(names)
		return val, err == nil, err
	case KindText:
		if s, ok := v.(string); ok {
			return x.ParseField(s)
		}
	}
	return nil, false, x.refuse("answer with " + x.Scale())
}

// ParseField reads what a form field holds: the typed digits of a rating
// or score, "yes"/"no", or the text. An empty field is unanswered (no
// error: whether that is allowed is Missing's question).
func (x Question) ParseField(s string) (val any, answered bool, err error) {
	switch x.Kind {
	case KindRating, KindScore:
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, false, nil
		}
		return x.number(s)
	case KindYesNo:
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "":
			return nil, false, nil
		case "yes", "y", "true":
			return true, true, nil
		case "no", "n", "false":
			return false, true, nil
		}
		return nil, false, x.refuse(fmt.Sprintf("got %q; answer yes or no", clip(s)))
	case KindText:
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, false, nil
		}
		if !utf8.ValidString(s) {
			return nil, false, x.refuse("the text is not valid UTF-8")
		}
		if n := utf8.RuneCountInString(s); n > MaxTextRunes {
			return nil, false, x.refuse(fmt.Sprintf("the text has %d characters; at most %d are kept", n, MaxTextRunes))
		}
		return s, true, nil
	case KindChoice:
		val, err := x.choices(strings.FieldsFunc(s, func(r rune) bool { return r == ',' }))
		return val, err == nil, err
	}
	return nil, false, x.refuse("this question takes no answer")
}

// number reads a whole number in the question's range.
func (x Question) number(s string) (any, bool, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, false, x.refuse(fmt.Sprintf("%q is not a number; answer with %s", clip(s), x.Scale()))
	}
	if f != math.Trunc(f) {
		return nil, false, x.refuse(fmt.Sprintf("%s is not a whole number; answer with %s", s, x.Scale()))
	}
	if f < float64(x.Min) || f > float64(x.Max) {
		return nil, false, x.refuse(fmt.Sprintf("%s is out of range; answer with %s", s, x.Scale()))
	}
	return int(f), true, nil
}

// choices matches tool names to the options, any case, keeping the
// options' order and dropping repeats. An empty list is an answer: no
// tool used.
func (x Question) choices(names []string) ([]string, error) {
	picked := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		found := false
		for _, o := range x.Options {
			if strings.EqualFold(o, n) {
				picked[o], found = true, true
				break
			}
		}
		if !found {
			return nil, x.refuse(fmt.Sprintf("%q is not one of the tools; answer with %s", clip(n), x.Scale()))
		}
	}
	out := []string{}
	for _, o := range x.Options {
		if picked[o] {
			out = append(out, o)
		}
	}
	return out, nil
}

func (x Question) refuse(reason string) error { return &AnswerError{Question: x, Reason: reason} }

// FieldText is an answer as a form field shows it: the inverse of
// ParseField ("" for unanswered).
func (x Question) FieldText(v any) string {
	switch v := v.(type) {
	case int:
		return strconv.Itoa(v)
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case string:
		return v
	case []string:
		return strings.Join(v, ", ")
	}
	return ""
}

// Check validates answers already in Go form (what the form produced), as
// Decode validates JSON.
func (q Questionnaire) Check(a Answers) error {
	data, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("answers: %w", err)
	}
	_, err = q.Decode(data)
	return err
}

// Missing lists the required questions a has no answer to.
func (q Questionnaire) Missing(a Answers) []Question {
	var out []Question
	for _, x := range q.Questions {
		if _, ok := a[x.ID]; x.Required && !ok {
			out = append(out, x)
		}
	}
	return out
}

// Answered counts the questions a answers.
func (q Questionnaire) Answered(a Answers) int {
	n := 0
	for _, x := range q.Questions {
		if _, ok := a[x.ID]; ok {
			n++
		}
	}
	return n
}

// clip shortens a value quoted back in an error.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:39]) + "…"
}
