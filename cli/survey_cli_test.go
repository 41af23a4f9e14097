package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
)

// TestSurveyAnswersOutOfRange: a scripted questionnaire with a rating of
// 11 is refused with a message naming the question and the scale, and
// nothing is saved.
func TestSurveyAnswersOutOfRange(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	db := filepath.Join(home, "gear.db")
	for _, tt := range []struct {
		answers string
		want    string
	}{
		{`{"overall_experience": 11}`, "gear: survey: standard input: question 1 (overall_experience): 11 is out of range; answer with a whole number from 0 to 10"},
		{`{"overall_score": -5}`, "question 23 (overall_score): -5 is out of range; answer with a whole number from 0 to 100"},
		{`{"tools_used": ["Teleporter"]}`, `"Teleporter" is not one of the tools`},
		{`{"overal_experience": 7}`, `there is no question "overal_experience"`},
	} {
		code, out, errText := studyGear(t, home, tt.answers, "--db", db, "survey", "--answers", "-")
		if code != cli.ExitUsage || !strings.Contains(errText, tt.want) || out != "" {
			t.Errorf("answers %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.answers, code, out, errText, tt.want)
		}
	}
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if all, _ := st.SurveyResponses(context.Background()); len(all) != 0 {
		t.Errorf("refused answers were saved: %+v", all)
	}
}

// TestSurveyAnswersFile: a partial file is saved unfinished and named
// what is missing; a second file completes it, as one response.
func TestSurveyAnswersFile(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	db := filepath.Join(home, "gear.db")
	first := filepath.Join(home, "first.json")
	os.WriteFile(first, []byte(`{"overall_experience": 8, "noticed_tools": "yes", "tools_used": ["wikisearch"], "feedback": "more tools"}`), 0o600)
	code, out, errText := studyGear(t, home, "", "--db", db, "survey", "--answers", first)
	if code != cli.ExitOK || !strings.Contains(out, "Saved an unfinished response") ||
		!strings.Contains(out, "4 of 23 questions answered; still required: smarter, more_helpful") {
		t.Fatalf("exit %d, %q, %q", code, out, errText)
	}
	rest := `{"smarter": 7, "more_helpful": 9, "old_accuracy": 5, "new_accuracy": 8, "tool_choice_accuracy": 9,
		"asked_other_tool": false, "switched_on_request": true, "tool_answer_accuracy": 8, "overall_score": 88,
		"tool_accuracy.WikiSearch": 7}`
	code, out, errText = studyGear(t, home, rest, "--db", db, "survey", "--answers", "-")
	if code != cli.ExitOK || !strings.Contains(out, "Saved a complete response") || !strings.Contains(out, "14 of 23") {
		t.Fatalf("exit %d, %q, %q", code, out, errText)
	}
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, _ := st.SurveyResponses(context.Background())
	if len(all) != 1 || all[0].Status != store.SurveyComplete || all[0].Version != survey.Version || all[0].Completed.IsZero() {
		t.Fatalf("responses = %+v", all)
	}
	var answers map[string]any
	json.Unmarshal(all[0].Answers, &answers)
	if answers["feedback"] != "more tools" || answers["overall_score"] != 88.0 || len(answers) != 14 {
		t.Errorf("answers = %v", answers)
	}
}

func TestSurveyQuestionsAndTerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	code, out, _ := studyGear(t, home, "", "survey", "--questions", "--json")
	var q survey.Questionnaire
	if code != cli.ExitOK || json.Unmarshal([]byte(out), &q) != nil || len(q.Questions) != 23 || q.Version != survey.Version {
		t.Fatalf("gear survey --questions --json: exit %d, %d questions", code, len(q.Questions))
	}
	if q.Questions[13].ID != "tool_accuracy.Calculator" || q.Questions[18].ID != "tool_accuracy.WikiSearch" {
		t.Errorf("tool questions do not follow the library: %s .. %s", q.Questions[13].ID, q.Questions[18].ID)
	}
	code, out, _ = studyGear(t, home, "", "survey", "--questions")
	if code != cli.ExitOK || !strings.Contains(out, "23. Overall score you want to give") {
		t.Errorf("gear survey --questions: exit %d\n%s", code, out)
	}
	code, _, errText := studyGear(t, home, "", "--db", filepath.Join(home, "gear.db"), "survey")
	if code != cli.ExitUsage || !strings.Contains(errText, "needs a terminal; answer from a file with --answers FILE.json") {
		t.Errorf("gear survey without a terminal: exit %d, %q", code, errText)
	}
}

// TestStudyCommands: start a phase, read the status, move on.
func TestStudyCommands(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	db := filepath.Join(home, "gear.db")
	chat := []string{"--chat-model", "m", "--chat-url", "http://127.0.0.1:9/v1"}
	code, out, errText := studyGear(t, home, "", append(chat, "--db", db, "study", "start", "--phase", "baseline", "--participant", "P07")...)
	if code != cli.ExitOK || !strings.Contains(out, "Participant P07: the baseline phase starts today, 2026-11-20.") {
		t.Fatalf("exit %d, %q, %q", code, out, errText)
	}
	code, out, _ = studyGear(t, home, "", append(chat, "--db", db, "study", "start", "--phase", "baseline")...)
	if code != cli.ExitOK || !strings.Contains(out, "already in the baseline phase") {
		t.Errorf("starting twice: %q", out)
	}
	code, out, _ = studyGear(t, home, "", "--db", db, "study", "status", "--json")
	var s map[string]any
	if code != cli.ExitOK || json.Unmarshal([]byte(out), &s) != nil || s["participant_id"] != "P07" ||
		s["phase"] != "baseline" || s["default_mode"] != "baseline" || s["day"] != 1.0 {
		t.Errorf("status: exit %d %s", code, out)
	}
	code, out, _ = studyGear(t, home, "", "--db", db, "study", "status")
	if code != cli.ExitOK || !strings.Contains(out, "default mode:  baseline") || !strings.Contains(out, "next:") {
		t.Errorf("status text:\n%s", out)
	}
	for _, args := range [][]string{{"study", "start"}, {"study", "start", "--phase", "pilot"}} {
		code, _, errText := studyGear(t, home, "", append([]string{"--db", db}, args...)...)
		if code != cli.ExitUsage || !strings.Contains(errText, "baseline or gear") {
			t.Errorf("gear %v: exit %d, %q", args, code, errText)
		}
	}
}
