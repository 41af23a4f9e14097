package survey_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/internal/timercmd"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
)

// driver runs a tea.Model the way a program would, without a terminal:
// each command runs to its end, one at a time, and the messages it
// returns are fed back. Timers (a field's cursor blink) are not run: their
// time would come after the test has moved on.
type driver struct {
	t *testing.T
	m tea.Model
	// hold, when set, keeps back the messages it accepts in held, as a
	// program does while a command is still running.
	hold func(tea.Msg) bool
	held []tea.Msg
}

func (d *driver) send(msgs ...tea.Msg) {
	d.t.Helper()
	queue := append([]tea.Msg(nil), msgs...)
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 500 {
			d.t.Fatal("the form keeps producing messages")
		}
		msg := queue[0]
		queue = queue[1:]
		if d.hold != nil && d.hold(msg) {
			d.held = append(d.held, msg)
			continue
		}
		var cmd tea.Cmd
		d.m, cmd = d.m.Update(msg)
		queue = append(queue, run(cmd)...)
	}
}

// run executes a command and the batches and sequences it returns.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil || timercmd.Is(cmd) {
		return nil
	}
	msg := cmd()
	switch m := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range m {
			out = append(out, run(c)...)
		}
		return out
	}
	if cmds, ok := asCommands(msg); ok {
		var out []tea.Msg
		for _, c := range cmds {
			out = append(out, run(c)...)
		}
		return out
	}
	if _, quit := msg.(tea.QuitMsg); quit {
		return nil
	}
	return []tea.Msg{msg}
}

// asCommands reads tea.Sequence's message, a list of commands of an
// unexported type.
func asCommands(msg tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeOf(tea.Cmd(nil)) {
		return nil, false
	}
	out := make([]tea.Cmd, v.Len())
	for i := range out {
		out[i], _ = v.Index(i).Interface().(tea.Cmd)
	}
	return out, true
}

func keys(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return out
}

func key(k tea.KeyType) tea.Msg { return tea.KeyMsg{Type: k} }

func newForm(t *testing.T, st *store.Store, q survey.Questionnaire) (*driver, *survey.Form) {
	t.Helper()
	f, err := survey.NewForm(context.Background(), st, q, survey.FormOptions{Width: 80})
	if err != nil {
		t.Fatal(err)
	}
	d := &driver{t: t, m: f}
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, m := range run(f.Init()) {
		d.send(m)
	}
	return d, f
}

// TestFormSavesAsItGoesAndResumes drives the huh form with keys: an answer
// out of range is refused on the spot, answers are saved when the
// participant moves on and when they close the form, the next form offers
// them back, and finishing stores a complete response.
func TestFormSavesAsItGoesAndResumes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	q := survey.New([]string{"Calculator", "WikiSearch"})

	enter, esc, down, bksp := key(tea.KeyEnter), key(tea.KeyEsc), key(tea.KeyDown), key(tea.KeyBackspace)
	d, f := newForm(t, st, q)
	d.send(keys("7")...)
	d.send(enter)
	d.send(keys("11")...)
	d.send(enter)
	if view := f.View(); !strings.Contains(view, "11 is out of range") || !strings.Contains(view, "2/17") {
		t.Fatalf("the out-of-range answer was not refused on question 2:\n%s", view)
	}
	d.send(bksp, bksp)
	d.send(keys("9")...)
	d.send(enter)
	if got := saved(t, st); got.Status != store.SurveyInProgress || !sameAnswers(got.Answers, `{"overall_experience":7,"smarter":9}`) {
		t.Errorf("after two answers the store holds %+v", got)
	}
	d.send(keys("6")...) // typed but not confirmed: saved on closing, being valid
	d.send(esc)
	if summary, done := f.Done(); !done || !strings.Contains(summary, "Your answers so far (3 of 17) are saved") {
		t.Fatalf("after esc: %q, %v", summary, done)
	}
	if got := saved(t, st); got.Status != store.SurveyInProgress || !sameAnswers(got.Answers, `{"overall_experience":7,"smarter":9,"more_helpful":6}`) {
		t.Errorf("after esc the store holds %+v", got)
	}

	d, f = newForm(t, st, q)
	if view := f.View(); !strings.Contains(view, "Resume your unfinished questionnaire?") || !strings.Contains(view, "answered 3 of 17") {
		t.Fatalf("no offer to resume:\n%s", view)
	}
	d.send(enter) // Resume
	// A resumed number is shown, not typed in: typing replaces it (a 6
	// after a kept 7 is 6, not 76) and enter keeps it.
	if view := f.View(); !strings.Contains(view, "your answer: 7; enter keeps it") {
		t.Fatalf("the resumed answer is not offered:\n%s", view)
	}
	d.send(keys("6")...)
	d.send(enter)
	if got := saved(t, st); !sameAnswers(got.Answers, `{"overall_experience":6,"smarter":9,"more_helpful":6}`) {
		t.Fatalf("typing 6 over a kept 7 saved %s", got.Answers)
	}
	d.send(enter, enter)
	answer := func(text string) {
		d.send(keys(text)...)
		d.send(enter)
	}
	answer("4")                // 4 old accuracy
	answer("8")                // 5 new accuracy
	d.send(down, enter)        // 6 noticed tools: No (the options are Yes, No: nothing to skip)
	answer("9")                // 7 tool choice accuracy
	answer("picked the clock") // 8 wrong tool recall
	d.send(enter)              // 9 asked another tool: Yes
	d.send(enter)              // 10 switched: Yes
	answer("8")                // 11 tool answer accuracy
	d.send(enter)              // 12 left empty
	d.send(keys("x")...)       // 13 tools used: Calculator
	d.send(enter)              //
	answer("10")               // 14 Calculator accuracy (WikiSearch's is hidden)
	d.send(enter)              // 16 feedback left empty
	answer("85")               // 17 overall score
	if summary, done := f.Done(); !done || !strings.Contains(summary, "Thank you") {
		t.Fatalf("not finished: %q, %v\n%s", summary, done, f.View())
	}
	all, err := st.SurveyResponses(ctx)
	if err != nil || len(all) != 1 {
		t.Fatalf("responses %+v, %v", all, err)
	}
	want := `{"overall_experience":6,"smarter":9,"more_helpful":6,"old_accuracy":4,"new_accuracy":8,"noticed_tools":false,
		"tool_choice_accuracy":9,"wrong_tool_recall":"picked the clock","asked_other_tool":true,"switched_on_request":true,
		"tool_answer_accuracy":8,"tools_used":["Calculator"],"tool_accuracy.Calculator":10,"overall_score":85}`
	if r := all[0]; r.Status != store.SurveyComplete || r.Version != survey.Version || r.Completed.IsZero() || !sameAnswers(r.Answers, want) {
		t.Errorf("stored %+v %s", r, r.Answers)
	}
}

func saved(t *testing.T, st *store.Store) store.SurveyResponse {
	t.Helper()
	all, err := st.SurveyResponses(context.Background())
	if err != nil || len(all) != 1 {
		t.Fatalf("responses %+v, %v", all, err)
	}
	return all[0]
}

func sameAnswers(got json.RawMessage, want string) bool {
	var a, b map[string]any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal([]byte(want), &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

// TestFormStartOver: declining to resume starts a new response and leaves
// the old one unfinished.
func TestFormStartOver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	q := survey.New(nil)
	s, _ := survey.Open(ctx, st, q)
	if err := s.Save(ctx, st, survey.Answers{survey.QSmarter: 2}, false); err != nil {
		t.Fatal(err)
	}
	d, f := newForm(t, st, q)
	d.send(keys("n")...) // Start over
	if !strings.Contains(f.View(), "1/15") {
		t.Fatalf("not at the first question:\n%s", f.View())
	}
	d.send(keys("3")...)
	d.send(key(tea.KeyEnter))
	all, _ := st.SurveyResponses(ctx)
	if len(all) != 2 || !sameAnswers(all[0].Answers, `{"smarter":2}`) || !sameAnswers(all[1].Answers, `{"overall_experience":3}`) {
		t.Errorf("responses: %+v", all)
	}
}

// TestFormClosesWhileSaving: esc while the save of the last answer is
// still running waits for it, then saves once more into the same
// response.
func TestFormClosesWhileSaving(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	d, f := newForm(t, st, survey.New(nil))
	isSave := func(m tea.Msg) bool { return reflect.TypeOf(m).String() == "survey.savedMsg" }
	d.hold = isSave
	d.send(keys("7")...)
	d.send(key(tea.KeyEnter))
	d.send(keys("5")...)
	d.send(key(tea.KeyEsc))
	if len(d.held) != 1 {
		t.Fatalf("%d saves ran, want the first one only while it runs", len(d.held))
	}
	if _, done := f.Done(); done {
		t.Fatal("done before the answers were saved")
	}
	d.hold = nil
	d.send(d.held...)
	if summary, done := f.Done(); !done || !strings.Contains(summary, "(2 of 15) are saved") {
		t.Fatalf("after the saves: %q, %v", summary, done)
	}
	if got := saved(t, st); !sameAnswers(got.Answers, `{"overall_experience":7,"smarter":5}`) {
		t.Errorf("stored %s", got.Answers)
	}
}
