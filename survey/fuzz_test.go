package survey_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/gear-chat/gear/survey"
)

// FuzzDecodeAnswers feeds arbitrary answer files to the questionnaire:
// it never panics, and answers it accepts are valid, encode, and decode
// back to the same answers.
func FuzzDecodeAnswers(f *testing.F) {
	for _, seed := range []string{
		`{"overall_experience": 8, "noticed_tools": "yes", "tools_used": ["wikisearch"], "feedback": "ok"}`,
		`{"overall_score": 100.0, "smarter": -0, "asked_other_tool": false}`,
		`{"overall_experience": 1e1, "old_accuracy": 1e400}`,
		`{"tools_used": [], "feedback": null, "wrong_tool_recall": "\u001b[31m"}`,
		`{"tool_accuracy.Calculator": "7"}`,
		`{"a": 1`,
	} {
		f.Add([]byte(seed))
	}
	q := survey.New([]string{"Calculator", "WikiSearch"})
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := q.Decode(data)
		if err != nil {
			return
		}
		if err := q.Check(a); err != nil {
			t.Fatalf("decoded answers fail the check: %v", err)
		}
		enc, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("decoded answers do not encode: %v", err)
		}
		again, err := q.Decode(enc)
		if err != nil || !reflect.DeepEqual(again, a) {
			t.Fatalf("answers %v round-trip to %v, %v", a, again, err)
		}
		for _, x := range q.Questions {
			if v, ok := a[x.ID]; ok {
				back, answered, err := x.ParseField(x.FieldText(v))
				if x.Kind != survey.KindChoice && (err != nil || !answered || !reflect.DeepEqual(back, v)) {
					t.Fatalf("%s: %v shows as %q, which parses to %v, %v", x.ID, v, x.FieldText(v), back, err)
				}
			}
		}
	})
}
