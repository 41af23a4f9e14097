package survey_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gear-chat/gear/survey"
)

func builtin() survey.Questionnaire {
	return survey.New([]string{"Calculator", "CurrentTime", "TimezoneConverter", "WeatherSearch", "LocationSearch", "WikiSearch"})
}

// TestTable12 checks the questionnaire against the paper's Table 12: 21
// questions with gear's six tools, in the paper's order and types.
func TestTable12(t *testing.T) {
	t.Parallel()
	q := builtin()
	if q.Version != survey.Version || len(q.Questions) != 21 {
		t.Fatalf("version %q, %d questions", q.Version, len(q.Questions))
	}
	want := []struct {
		row  int
		kind survey.Kind
	}{
		{1, survey.KindRating}, {2, survey.KindRating}, {3, survey.KindRating}, {4, survey.KindRating},
		{5, survey.KindRating}, {6, survey.KindYesNo}, {7, survey.KindRating}, {8, survey.KindText},
		{9, survey.KindYesNo}, {10, survey.KindYesNo}, {11, survey.KindRating}, {12, survey.KindText},
		{13, survey.KindChoice}, {14, survey.KindRating}, {14, survey.KindRating}, {14, survey.KindRating},
		{14, survey.KindRating}, {14, survey.KindRating}, {14, survey.KindRating}, {20, survey.KindText},
		{21, survey.KindScore},
	}
	seen := map[string]bool{}
	for i, x := range q.Questions {
		if x.Number != i+1 || x.Row != want[i].row || x.Kind != want[i].kind || seen[x.ID] || x.Text == "" {
			t.Errorf("question %d = %+v, want row %d kind %s", i+1, x, want[i].row, want[i].kind)
		}
		seen[x.ID] = true
		switch x.Kind {
		case survey.KindRating:
			if x.Min != 0 || x.Max != 10 {
				t.Errorf("%s: scale %d-%d", x.ID, x.Min, x.Max)
			}
		case survey.KindScore:
			if x.Min != 0 || x.Max != 100 {
				t.Errorf("%s: scale %d-%d", x.ID, x.Min, x.Max)
			}
		}
	}
	if got := q.Tools(); len(got) != 6 || got[5] != "WikiSearch" {
		t.Errorf("tools = %v", got)
	}
}

// TestToolQuestionsFollowTheLibrary: one accuracy question per tool, in
// library order, whatever the library.
func TestToolQuestionsFollowTheLibrary(t *testing.T) {
	t.Parallel()
	for _, tools := range [][]string{nil, {"Calculator"}, {"Translate", "ImageGen", " ", "Translate", "Stocks"}} {
		q := survey.New(tools)
		var got []string
		for _, x := range q.Questions {
			if x.Tool != "" {
				got = append(got, x.Tool)
				if x.ID != survey.ToolQuestionPrefix+x.Tool || x.Required || !strings.Contains(x.Text, x.Tool+" tool") {
					t.Errorf("tool question %+v", x)
				}
			}
		}
		var want []string
		for _, tool := range tools {
			if tool = strings.TrimSpace(tool); tool != "" && !contains(want, tool) {
				want = append(want, tool)
			}
		}
		if !reflect.DeepEqual(got, want) || len(q.Questions) != 15+len(want) || !reflect.DeepEqual(q.Tools(), want) {
			t.Errorf("tools %q: tool questions %q (%d questions), want %q", tools, got, len(q.Questions), want)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestDecodeAnswers(t *testing.T) {
	t.Parallel()
	q := builtin()
	tests := []struct {
		name string
		json string
		want survey.Answers
		// err is a part of the message, which names the question.
		err string
	}{
		{"ratings, yes/no, choice, text, score",
			`{"overall_experience": 8, "smarter": 10.0, "noticed_tools": true, "asked_other_tool": "No",
			  "tools_used": ["weathersearch", "Calculator", "Calculator"], "feedback": "  Faster please  ", "overall_score": 0}`,
			survey.Answers{"overall_experience": 8, "smarter": 10, "noticed_tools": true, "asked_other_tool": false,
				"tools_used": []string{"Calculator", "WeatherSearch"}, "feedback": "Faster please", "overall_score": 0}, ""},
		{"null and empty text are unanswered", `{"overall_experience": null, "feedback": "", "tools_used": []}`,
			survey.Answers{"tools_used": []string{}}, ""},
		{"rating above 10", `{"overall_experience": 11}`, nil,
			`question 1 (overall_experience): 11 is out of range; answer with a whole number from 0 to 10`},
		{"rating below 0", `{"old_accuracy": -1}`, nil, `question 4 (old_accuracy): -1 is out of range`},
		{"score above 100", `{"overall_score": 101}`, nil,
			`question 21 (overall_score): 101 is out of range; answer with a whole number from 0 to 100`},
		{"tool rating out of range", `{"tool_accuracy.WikiSearch": 12}`, nil, `question 19 (tool_accuracy.WikiSearch): 12 is out of range`},
		{"not a whole number", `{"smarter": 7.5}`, nil, `7.5 is not a whole number`},
		{"text for a rating", `{"smarter": "seven"}`, nil, `got the text "seven"; answer with a whole number from 0 to 10, as a number`},
		{"number for yes/no", `{"noticed_tools": 1}`, nil, `question 6 (noticed_tools): answer with yes or no`},
		{"maybe for yes/no", `{"noticed_tools": "maybe"}`, nil, `got "maybe"; answer yes or no`},
		{"unknown tool", `{"tools_used": ["Translator"]}`, nil, `"Translator" is not one of the tools; answer with a list of tools from Calculator`},
		{"choice not a list", `{"tools_used": "Calculator"}`, nil, `question 13 (tools_used): answer with a list of tools`},
		{"text too long", `{"feedback": "` + strings.Repeat("a", survey.MaxTextRunes+1) + `"}`, nil, `at most 2000 are kept`},
		{"unknown question", `{"overall": 5}`, nil, `there is no question "overall" in questionnaire gear-table12/1`},
		{"tool outside the library", `{"tool_accuracy.Translator": 5}`, nil, `there is no question "tool_accuracy.Translator"`},
		{"not an object", `[1, 2]`, nil, `the answers must be a JSON object`},
		{"two objects", `{} {}`, nil, `must be one JSON object`},
		{"empty", ``, nil, `the answers must be a JSON object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := q.Decode([]byte(tt.json))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestAnswerErrorNamesTheQuestion(t *testing.T) {
	t.Parallel()
	_, err := builtin().Decode([]byte(`{"overall_score": 250}`))
	var ae *survey.AnswerError
	if !errors.As(err, &ae) || ae.Question.ID != survey.QOverallScore {
		t.Fatalf("error %v is not an AnswerError for overall_score", err)
	}
}

// TestFieldRoundTrip: what the form shows parses back to the answer.
func TestFieldRoundTrip(t *testing.T) {
	t.Parallel()
	q := builtin()
	for _, tt := range []struct {
		id    string
		value any
		text  string
	}{
		{survey.QOverallExperience, 0, "0"}, {survey.QOverallScore, 100, "100"}, {survey.QNoticedTools, true, "yes"},
		{survey.QAskedOtherTool, false, "no"}, {survey.QFeedback, "line one\nline two", "line one\nline two"},
		{survey.QToolsUsed, []string{"Calculator", "WikiSearch"}, "Calculator, WikiSearch"},
	} {
		x, _ := q.Question(tt.id)
		if got := x.FieldText(tt.value); got != tt.text {
			t.Errorf("%s: FieldText(%v) = %q, want %q", tt.id, tt.value, got, tt.text)
		}
		back, answered, err := x.ParseField(tt.text)
		if err != nil || !answered || !reflect.DeepEqual(back, tt.value) {
			t.Errorf("%s: ParseField(%q) = %#v, %v, %v", tt.id, tt.text, back, answered, err)
		}
	}
	x, _ := q.Question(survey.QSmarter)
	if _, answered, err := x.ParseField("  "); answered || err != nil {
		t.Errorf("empty field: answered %v, %v", answered, err)
	}
	if _, _, err := x.ParseField("12"); err == nil || !strings.Contains(err.Error(), "12 is out of range") {
		t.Errorf("12 in a field: %v", err)
	}
}

func TestMissingAndRestore(t *testing.T) {
	t.Parallel()
	q := builtin()
	a := survey.Answers{survey.QOverallExperience: 5}
	missing := q.Missing(a)
	if len(missing) != 10 || missing[0].ID != survey.QSmarter || missing[9].ID != survey.QOverallScore {
		t.Errorf("missing = %d, first %+v", len(missing), missing[0])
	}
	restored, dropped := q.Restore([]byte(`{"overall_experience": 5, "smarter": 99, "tool_accuracy.Gone": 3, "feedback": "ok"}`))
	if !reflect.DeepEqual(restored, survey.Answers{"overall_experience": 5, "feedback": "ok"}) ||
		!reflect.DeepEqual(dropped, []string{"smarter", "tool_accuracy.Gone"}) {
		t.Errorf("restored %v, dropped %v", restored, dropped)
	}
}
