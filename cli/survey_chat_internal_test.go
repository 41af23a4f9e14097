package cli

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/store"
)

// TestChatSurvey: /survey in the chat opens the questionnaire in place of
// the conversation; esc saves the answers so far and closes it into a
// notice; /survey again offers to resume them.
func TestChatSurvey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := chatApp(t, map[string]string{}, nil, dir, true)
	s := openChat(t, a)
	s.typeLine("/survey")
	s.until("1/23  How would you rate your overall experience")
	s.typeLine("8")
	s.until("2/23")
	s.send(tea.KeyMsg{Type: tea.KeyEsc})
	if v := s.until("Your answers so far (1 of 23) are saved"); strings.Contains(v, "2/23") {
		t.Errorf("the questionnaire is still shown:\n%s", v)
	}
	st, err := store.Open(context.Background(), a.cfg.DB, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.SurveyResponses(context.Background())
	if err != nil || len(all) != 1 || all[0].Status != store.SurveyInProgress || string(all[0].Answers) != `{"overall_experience":8}` {
		t.Fatalf("responses %+v, %v", all, err)
	}
	s.typeLine("/survey")
	s.until("Resume your unfinished questionnaire?")
}
