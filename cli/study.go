package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
)

func (a *app) studyCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "study",
		Short: "Run the GEAR paper's two-phase user study: baseline chatbot, then gear",
		Long: `The GEAR paper's study (Appendix G): participants use the plain chatbot
(no tools) for two weeks, then the GEAR chatbot for two weeks, rating answers
as they go, then answer the questionnaire (gear survey).

  gear study start --phase baseline   the chat and gear ask answer without
                                      tools by default
  gear study start --phase gear       they ground and use tools again
  gear study status                   where this installation stands
  gear study stop                     end the phase: chat mode again

The participant id is random, made on first use and kept in the history
database (never sent anywhere); every conversation records it with the
phase, and every turn its mode, so gear report can compare the phases.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(a.studyStartCommand(), a.studyStopCommand(), a.studyStatusCommand())
	return cmd
}

func (a *app) studyStartCommand() *cobra.Command {
	var phase, participant string
	cmd := &cobra.Command{
		Use:   "start --phase baseline|gear",
		Short: "Start a study phase",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if phase == "" {
				return usageErrorf("study start: --phase is required: baseline or gear")
			}
			p, err := survey.ParsePhase(phase)
			if err != nil {
				return usageErrorf("study start: %v", err)
			}
			if p == survey.PhaseBaseline && llm.Resolve(a.cfg, llm.RoleChat).Offline {
				return usageErrorf("study start: the baseline phase is the chat model answering alone, and no chat model is configured; configure one first (gear setup, or gear config to see the settings)")
			}
			return a.withStore(cmd, func(ctx context.Context, st *store.Store) error {
				s, changed, err := survey.StartPhase(ctx, st, phase, participant, a.deps.Now())
				if err != nil {
					return usageErrorf("study start: %v", err)
				}
				w := cmd.OutOrStdout()
				if !changed {
					fmt.Fprintf(w, "Participant %s is already in the %s phase (since %s).\n", s.Participant, s.Phase, day(s.Started))
					return nil
				}
				fmt.Fprintf(w, "Participant %s: the %s phase starts today, %s.\n", s.Participant, s.Phase, day(s.Started))
				if s.Phase == survey.PhaseBaseline {
					fmt.Fprintln(w, "gear now answers without tools by default (the paper's plain chatbot). Rate the answers as you go.")
					fmt.Fprintf(w, "After %d days, run: gear study start --phase gear\n", survey.PhaseDays)
				} else {
					fmt.Fprintln(w, "gear now grounds queries and uses tools by default. Rate the answers and flag wrong tools as you go.")
					fmt.Fprintf(w, "After %d days, answer the questionnaire: gear survey (or /survey in the chat).\n", survey.PhaseDays)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&phase, "phase", "", "baseline (no tools) or gear")
	cmd.Flags().StringVar(&participant, "participant", "", "use this participant id instead of a random one (letters, digits, - and _)")
	return cmd
}

func (a *app) studyStopCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "stop",
		Short: "End the study phase: gear answers with tools by default again",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withStore(cmd, func(ctx context.Context, st *store.Store) error {
				was, stopped, err := survey.StopPhase(ctx, st)
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				if !stopped {
					fmt.Fprintln(w, "No study phase is running; nothing to stop.")
					return nil
				}
				fmt.Fprintf(w, "The %s phase (since %s) has ended; gear answers in chat mode by default again.\n", was.Phase, day(was.Started))
				fmt.Fprintf(w, "Participant %s is kept: gear study start resumes the study as the same person.\n", was.Participant)
				return nil
			})
		},
	}
}

// StudyStatus is gear study status --json.
type studyStatus struct {
	survey.Study
	DefaultMode   store.Mode          `json:"default_mode"`
	Day           int                 `json:"day"`
	PhaseDays     int                 `json:"phase_days"`
	Phases        map[string]phaseUse `json:"phases"`
	Questionnaire string              `json:"questionnaire"`
	Next          string              `json:"next"`
}

type phaseUse struct {
	Conversations int `json:"conversations"`
	Turns         int `json:"turns"`
	Rated         int `json:"rated"`
}

func (a *app) studyStatusCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the participant id, the phase, its use so far and the next step",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withStore(cmd, func(ctx context.Context, st *store.Store) error {
				s, err := a.studyStatus(ctx, st)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), s)
				}
				writeStudyStatus(cmd.OutOrStdout(), s)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")
	return cmd
}

func (a *app) studyStatus(ctx context.Context, st *store.Store) (studyStatus, error) {
	cur, err := survey.Current(ctx, st)
	if err != nil {
		return studyStatus{}, err
	}
	s := studyStatus{Study: cur, DefaultMode: survey.ModeFor(cur.Phase), PhaseDays: survey.PhaseDays,
		Phases: map[string]phaseUse{}, Questionnaire: "not started"}
	if !cur.Started.IsZero() {
		s.Day = int(a.deps.Now().Sub(cur.Started)/(24*time.Hour)) + 1
	}
	d, err := st.Export(ctx)
	if err != nil {
		return studyStatus{}, err
	}
	for _, c := range d.Conversations {
		phase := survey.PhaseOf(c.Conversation)
		u := s.Phases[phase]
		u.Conversations++
		u.Turns += len(c.Turns)
		for _, t := range c.Turns {
			if t.Rating != nil && (t.Rating.Score != store.ScoreNone || t.Rating.WrongTool) {
				u.Rated++
			}
		}
		s.Phases[phase] = u
	}
	for _, r := range d.Surveys {
		if r.ParticipantID != cur.Participant || r.Version != survey.Version {
			continue
		}
		if r.Status == store.SurveyComplete {
			s.Questionnaire = "complete (" + day(r.Completed) + ")"
		} else if s.Questionnaire == "not started" {
			s.Questionnaire = "unfinished"
		}
	}
	switch {
	case cur.Phase == "":
		s.Next = "no study is running; start one with: gear study start --phase baseline"
	case cur.Phase == survey.PhaseBaseline && s.Day > survey.PhaseDays:
		s.Next = "the baseline phase has run its course; run: gear study start --phase gear"
	case cur.Phase == survey.PhaseBaseline:
		s.Next = fmt.Sprintf("keep using gear and rating answers; on day %d run: gear study start --phase gear", survey.PhaseDays+1)
	case s.Day > survey.PhaseDays && s.Questionnaire == "not started" || s.Questionnaire == "unfinished":
		s.Next = "answer the questionnaire: gear survey (or /survey in the chat)"
	case s.Day > survey.PhaseDays:
		s.Next = "the study is done for this participant; send the history file (or gear history export --all --anonymize) to whoever runs it"
	default:
		s.Next = fmt.Sprintf("keep using gear, rating answers and flagging wrong tools; on day %d answer: gear survey", survey.PhaseDays+1)
	}
	return s, nil
}

func writeStudyStatus(w io.Writer, s studyStatus) {
	id := s.Participant
	if id == "" {
		id = "(none yet)"
	}
	fmt.Fprintf(w, "participant:   %s\n", id)
	if s.Phase == "" {
		fmt.Fprintln(w, "phase:         none")
	} else {
		fmt.Fprintf(w, "phase:         %s since %s (day %d of %d)\n", s.Phase, day(s.Started), s.Day, s.PhaseDays)
	}
	fmt.Fprintf(w, "default mode:  %s\n", s.DefaultMode)
	for _, phase := range []string{survey.PhaseBaseline, survey.PhaseGear, survey.PhaseNone} {
		if u, ok := s.Phases[phase]; ok {
			fmt.Fprintf(w, "%-14s %s, %s, %d rated\n", phase+":", plural(int64(u.Conversations), "conversation"),
				plural(int64(u.Turns), "turn"), u.Rated)
		}
	}
	fmt.Fprintf(w, "questionnaire: %s\n", s.Questionnaire)
	fmt.Fprintf(w, "next:          %s\n", s.Next)
}

func day(t time.Time) string {
	if t.IsZero() {
		return "an unknown day"
	}
	return t.Local().Format("2006-01-02")
}
