package survey

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gear-chat/gear/store"
)

// Responses is the part of the store a questionnaire uses; *store.Store
// provides it.
type Responses interface {
	Settings
	SaveSurvey(ctx context.Context, r store.SurveyResponse) (store.SurveyResponse, error)
	ResumableSurvey(ctx context.Context, participantID, version string) (store.SurveyResponse, bool, error)
}

// Session is one participant answering the questionnaire: the response as
// last saved and, when they left one unfinished, the response to offer
// for resuming. It is not safe for concurrent use; the form saves one
// answer set at a time.
type Session struct {
	Questionnaire Questionnaire
	// Response is the response being answered; its ID is 0 until the
	// first save.
	Response store.SurveyResponse
	// Unfinished is the participant's latest unfinished response to this
	// version, with its answers and the ids of answers dropped because the
	// questionnaire no longer has those questions; nil when there is none.
	Unfinished *Unfinished
}

// Unfinished is a response that can be resumed.
type Unfinished struct {
	Response store.SurveyResponse
	Answers  Answers
	Dropped  []string
}

// Open starts a session for this installation's participant (making the
// id if there is none), in the current study phase.
func Open(ctx context.Context, st Responses, q Questionnaire) (*Session, error) {
	participant, err := ParticipantID(ctx, st)
	if err != nil {
		return nil, err
	}
	phase, _, err := st.Setting(ctx, store.SettingStudyPhase)
	if err != nil {
		return nil, err
	}
	s := &Session{Questionnaire: q, Response: store.SurveyResponse{ParticipantID: participant, Version: q.Version,
		Phase: phase, Answers: json.RawMessage("{}"), Status: store.SurveyInProgress}}
	prev, ok, err := st.ResumableSurvey(ctx, participant, q.Version)
	if err != nil {
		return nil, err
	}
	if ok {
		answers, dropped := q.Restore(prev.Answers)
		s.Unfinished = &Unfinished{Response: prev, Answers: answers, Dropped: dropped}
	}
	return s, nil
}

// Resume continues the unfinished response: saves update it rather than
// start another. It returns its answers (empty when there is none).
func (s *Session) Resume() Answers {
	if s.Unfinished == nil {
		return Answers{}
	}
	prev := s.Unfinished.Response
	s.Response.ID, s.Response.Started = prev.ID, prev.Started
	return s.Unfinished.Answers
}

// IncompleteError lists the required questions a complete response lacks.
type IncompleteError struct{ Missing []Question }

func (e *IncompleteError) Error() string {
	labels := make([]string, len(e.Missing))
	for i, x := range e.Missing {
		labels[i] = x.Label()
	}
	noun := "questions are"
	if len(labels) == 1 {
		noun = "question is"
	}
	return fmt.Sprintf("%d required %s unanswered: %s", len(labels), noun, strings.Join(labels, ", "))
}

// Save validates the answers and stores them with the questionnaire's
// version and the time; complete marks the response finished, which needs
// every required question answered. Nothing is saved when an answer is
// refused.
func (s *Session) Save(ctx context.Context, st Responses, a Answers, complete bool) error {
	if err := s.Questionnaire.Check(a); err != nil {
		return err
	}
	if complete {
		if missing := s.Questionnaire.Missing(a); len(missing) > 0 {
			return &IncompleteError{Missing: missing}
		}
	}
	data, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("survey: %w", err)
	}
	r := s.Response
	r.Answers = data
	r.Status = store.SurveyInProgress
	if complete {
		r.Status = store.SurveyComplete
	}
	saved, err := st.SaveSurvey(ctx, r)
	if err != nil {
		return err
	}
	s.Response = saved
	return nil
}
