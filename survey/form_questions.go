package survey

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/huh"
)

// startQuestions builds the questions, filled with answers.
func (f *Form) startQuestions(answers Answers) {
	q := f.session.Questionnaire
	f.values = &formValues{text: map[string]*string{}, tools: new([]string), kept: map[string]string{}, answered: map[string]bool{}}
	if data, err := json.Marshal(answers); err == nil && len(answers) > 0 {
		f.lastSaved = string(data)
	}
	var groups []*huh.Group
	total := len(q.Questions)
	for _, x := range q.Questions {
		title := fmt.Sprintf("%d/%d  %s", x.Number, total, x.Text)
		desc := x.Hint
		var field huh.Field
		switch x.Kind {
		case KindChoice:
			if v, ok := answers[x.ID].([]string); ok {
				*f.values.tools = append([]string(nil), v...)
			}
			field = huh.NewMultiSelect[string]().Key(x.ID).Title(title).Description(desc).
				Options(huh.NewOptions(x.Options...)...).Value(f.values.tools)
		case KindYesNo:
			v := x.FieldText(answers[x.ID])
			f.values.text[x.ID] = &v
			if v != "" {
				f.values.answered[x.ID] = true
			}
			field = huh.NewSelect[string]().Key(x.ID).Title(title).Description(desc).
				Options(huh.NewOption("Yes", "yes"), huh.NewOption("No", "no")).
				Value(&v).Validate(fieldValidator(x, ""))
		case KindText:
			v := x.FieldText(answers[x.ID])
			f.values.text[x.ID] = &v
			field = huh.NewText().Key(x.ID).Title(title).Description(desc).CharLimit(MaxTextRunes).
				Value(&v).Validate(fieldValidator(x, ""))
		default:
			var v string
			f.values.text[x.ID] = &v
			in := huh.NewInput().Key(x.ID).Title(title).CharLimit(len(itoa(x.Max))).Value(&v)
			kept := x.FieldText(answers[x.ID])
			if kept != "" {
				f.values.kept[x.ID] = kept
				in = in.Placeholder(kept)
				desc = strings.TrimSpace(desc + "  (your answer: " + kept + "; enter keeps it, typing replaces it)")
			}
			field = in.Description(desc).Validate(fieldValidator(x, kept))
		}
		g := huh.NewGroup(field)
		if x.Tool != "" {
			tool, used := x.Tool, f.values.tools
			g = g.WithHideFunc(func() bool { return !slices.Contains(*used, tool) })
		}
		groups = append(groups, g)
	}
	f.form = f.styled(huh.NewForm(groups...))
	f.stage = stageQuestions
	f.focus = f.form.GetFocusedField().GetKey()
}

// fieldValidator is what huh runs when the participant leaves a field:
// the question's own parsing, and an answer where one is required.
func fieldValidator(x Question, kept string) func(string) error {
	return func(s string) error {
		if s == "" {
			s = kept
		}
		_, answered, err := x.ParseField(s)
		var ae *AnswerError
		if errors.As(err, &ae) {
			return errors.New(ae.Reason)
		}
		if err != nil {
			return err
		}
		if !answered && x.Required {
			return errors.New("this question needs an answer: " + x.Scale())
		}
		return nil
	}
}

// Answers are the form's valid answers as they stand; fields holding
// something invalid (left with shift+tab) are left out.
func (f *Form) Answers() Answers {
	out := Answers{}
	if f.values == nil {
		return out
	}
	for _, x := range f.session.Questionnaire.Questions {
		if x.Kind == KindChoice {
			if f.touched(x.ID) || len(*f.values.tools) > 0 {
				out[x.ID] = append([]string{}, *f.values.tools...)
			}
			continue
		}
		text, ok := f.values.answer(x.ID)
		if !ok || x.Kind == KindYesNo && !f.values.answered[x.ID] && !f.touched(x.ID) {
			continue
		}
		if v, answered, err := x.ParseField(text); err == nil && answered {
			out[x.ID] = v
		}
	}
	return out
}

// touched reports whether the participant has been past a question (an
// empty choice is then an answer: no tool used).
func (f *Form) touched(id string) bool {
	q := f.session.Questionnaire
	cur, ok := q.Question(f.focus)
	x, _ := q.Question(id)
	return f.closing && f.complete || ok && cur.Number > x.Number
}
