package survey_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "gear.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestParticipantIDIsRandomAndKept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	id, err := survey.ParticipantID(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^p-[0-9a-f]{10}$`).MatchString(id) {
		t.Errorf("participant id %q", id)
	}
	again, err := survey.ParticipantID(ctx, st)
	if err != nil || again != id {
		t.Errorf("second read %q, %v; want %q", again, err, id)
	}
	other, _ := survey.NewParticipantID()
	if other == id {
		t.Errorf("two random ids are both %q", id)
	}
}

// TestStudyPhases: starting a phase records it for new conversations and
// sets the default mode; starting it again changes nothing.
func TestStudyPhases(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	if m, err := survey.DefaultMode(ctx, st); err != nil || m != store.ModeChat {
		t.Errorf("default mode outside a study = %s, %v", m, err)
	}
	day1 := time.Date(2026, 11, 2, 10, 30, 0, 0, time.UTC)
	s, changed, err := survey.StartPhase(ctx, st, "Baseline", "", day1)
	if err != nil || !changed || s.Phase != survey.PhaseBaseline || !s.Started.Equal(day1) || s.Participant == "" {
		t.Fatalf("start baseline = %+v, %v, %v", s, changed, err)
	}
	if m, _ := survey.DefaultMode(ctx, st); m != store.ModeBaseline {
		t.Errorf("default mode in the baseline phase = %s", m)
	}
	conv, err := st.CreateConversation(ctx, store.NewConversation{Mode: store.ModeBaseline})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := st.Conversation(ctx, conv); c.ParticipantID != s.Participant || c.StudyPhase != survey.PhaseBaseline {
		t.Errorf("conversation records %q / %q", c.ParticipantID, c.StudyPhase)
	}
	again, changed, err := survey.StartPhase(ctx, st, survey.PhaseBaseline, "", day1.Add(48*time.Hour))
	if err != nil || changed || !again.Started.Equal(day1) {
		t.Errorf("starting the same phase again = %+v, %v, %v", again, changed, err)
	}
	gear, changed, err := survey.StartPhase(ctx, st, survey.PhaseGear, "", day1.Add(14*24*time.Hour))
	if err != nil || !changed || gear.Participant != s.Participant || gear.Phase != survey.PhaseGear {
		t.Errorf("start gear = %+v, %v, %v", gear, changed, err)
	}
	if m, _ := survey.DefaultMode(ctx, st); m != store.ModeChat {
		t.Errorf("default mode in the gear phase = %s", m)
	}
	if cur, _ := survey.Current(ctx, st); cur != gear {
		t.Errorf("current = %+v, want %+v", cur, gear)
	}
}

func TestStudyPhaseErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	if _, _, err := survey.StartPhase(ctx, st, "pilot", "", time.Now()); err == nil || !strings.Contains(err.Error(), "want baseline or gear") {
		t.Errorf("phase pilot: %v", err)
	}
	if _, _, err := survey.StartPhase(ctx, st, "gear", "bob smith", time.Now()); err == nil || !strings.Contains(err.Error(), "letters, digits") {
		t.Errorf("participant with a space: %v", err)
	}
	s, _, err := survey.StartPhase(ctx, st, "gear", "P07", time.Now())
	if err != nil || s.Participant != "P07" {
		t.Errorf("named participant: %+v, %v", s, err)
	}
}

// TestResumeUnfinished: answers saved part way are offered next time;
// resuming updates the same response, and finishing needs every required
// question.
func TestResumeUnfinished(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	q := survey.New([]string{"Calculator", "WikiSearch"})
	s, err := survey.Open(ctx, st, q)
	if err != nil || s.Unfinished != nil {
		t.Fatalf("first open: %+v, %v", s, err)
	}
	if err := s.Save(ctx, st, survey.Answers{survey.QOverallExperience: 7, survey.QToolsUsed: []string{"WikiSearch"}}, false); err != nil {
		t.Fatal(err)
	}
	first := s.Response.ID

	s, err = survey.Open(ctx, st, q)
	if err != nil || s.Unfinished == nil {
		t.Fatalf("second open offers nothing: %v", err)
	}
	got := s.Resume()
	if !reflect.DeepEqual(got, survey.Answers{survey.QOverallExperience: 7, survey.QToolsUsed: []string{"WikiSearch"}}) {
		t.Errorf("resumed answers %v", got)
	}
	err = s.Save(ctx, st, got, true)
	var inc *survey.IncompleteError
	if !errors.As(err, &inc) || len(inc.Missing) != 10 || !strings.Contains(err.Error(), "10 required questions are unanswered: question 2 (smarter)") {
		t.Errorf("completing early: %v", err)
	}
	got[survey.QSmarter] = 11
	if err := s.Save(ctx, st, got, false); err == nil || !strings.Contains(err.Error(), "11 is out of range") {
		t.Errorf("an out-of-range answer was saved: %v", err)
	}
	full := completeAnswers()
	if err := s.Save(ctx, st, full, true); err != nil {
		t.Fatal(err)
	}
	all, _ := st.SurveyResponses(ctx)
	if len(all) != 1 || all[0].ID != first || all[0].Status != store.SurveyComplete || all[0].Version != survey.Version ||
		all[0].Completed.IsZero() || all[0].Phase != "" {
		t.Fatalf("responses = %+v", all)
	}
	var stored map[string]any
	json.Unmarshal(all[0].Answers, &stored)
	if stored[survey.QOverallScore] != float64(90) || len(stored) != len(full) {
		t.Errorf("stored answers %v", stored)
	}
	if s, _ := survey.Open(ctx, st, q); s.Unfinished != nil {
		t.Errorf("a complete response is offered for resuming")
	}
}

// completeAnswers answers every required question.
func completeAnswers() survey.Answers {
	return survey.Answers{
		survey.QOverallExperience: 7, survey.QSmarter: 6, survey.QMoreHelpful: 8, survey.QOldAccuracy: 5,
		survey.QNewAccuracy: 8, survey.QNoticedTools: true, survey.QToolChoiceAccuracy: 9, survey.QAskedOtherTool: false,
		survey.QSwitchedOnRequest: true, survey.QToolAnswerAccuracy: 8, survey.QOverallScore: 90,
	}
}
