package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
	"github.com/gear-chat/gear/ui"
)

func (a *app) surveyCommand() *cobra.Command {
	var answersFile string
	var questions, asJSON, restart bool
	cmd := &cobra.Command{
		Use:   "survey",
		Short: "Answer the user satisfaction questionnaire (the GEAR paper's Table 12)",
		Long: `gear survey asks the questionnaire of the GEAR paper's user study
(Appendix G, Table 12): ratings from 0 to 10, yes/no questions, the tools you
used, open-ended questions and an overall score from 0 to 100. There is one
accuracy question per tool of gear's library, asked about the tools you
chose as used.

Answers are checked as you go (a rating outside 0-10 is refused) and saved
each time you move to another question; esc saves and closes, and the next
gear survey (or /survey in the chat) offers to resume. A finished
questionnaire is stored with the time and the questionnaire version.

Without a terminal, answer from a file: --answers FILE.json (or - for
standard input) holds one JSON object, question id -> answer: a number for
a rating or score, true/false (or "yes"/"no"), a list of tool names,
or text. gear survey --questions --json lists the ids. A file that leaves
required questions unanswered is saved unfinished, to resume later.`,
		Example: `  gear survey
  gear survey --questions
  echo '{"overall_experience": 8, "noticed_tools": true}' | gear survey --answers -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			q, err := a.questionnaire()
			if err != nil {
				return err
			}
			if questions {
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), q)
				}
				writeQuestions(cmd.OutOrStdout(), q)
				return nil
			}
			if asJSON {
				return usageErrorf("survey: --json goes with --questions")
			}
			if answersFile != "" {
				return a.surveyFromFile(cmd.Context(), cmd.OutOrStdout(), q, answersFile, restart)
			}
			if !a.deps.IsTerminal {
				return usageErrorf("survey: the questionnaire needs a terminal; answer from a file with --answers FILE.json (gear survey --questions --json lists the question ids)")
			}
			return a.surveyInteractive(cmd.Context(), cmd.OutOrStdout(), q, restart)
		},
	}
	f := cmd.Flags()
	f.StringVar(&answersFile, "answers", "", "take the answers from this JSON file (- for standard input) instead of the form")
	f.BoolVar(&questions, "questions", false, "print the questionnaire instead of answering it")
	f.BoolVar(&asJSON, "json", false, "with --questions: print it as JSON")
	f.BoolVar(&restart, "restart", false, "start a new response instead of resuming an unfinished one")
	return cmd
}

// questionnaire is Table 12 for the tool library.
func (a *app) questionnaire() (survey.Questionnaire, error) {
	reg, err := a.registry()
	if err != nil {
		return survey.Questionnaire{}, err
	}
	var names []string
	for _, s := range reg.Specs() {
		names = append(names, s.Name)
	}
	return survey.New(names), nil
}

// surveyOpener is the chat's /survey: the same form, closed into the
// conversation when done. The chat calls it from a tea.Cmd.
func (a *app) surveyOpener(st *store.Store) ui.SurveyOpener {
	return func(ctx context.Context, width, _ int) (ui.SurveyForm, error) {
		q, err := a.questionnaire()
		if err != nil {
			return nil, err
		}
		return survey.NewForm(ctx, st, q, survey.FormOptions{Width: min(width, 100)})
	}
}

func (a *app) surveyInteractive(ctx context.Context, w io.Writer, q survey.Questionnaire, restart bool) error {
	st, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	form, err := survey.NewForm(ctx, st, q, survey.FormOptions{Standalone: true, Restart: restart})
	if err != nil {
		return err
	}
	p := tea.NewProgram(form, tea.WithInput(a.deps.Stdin), tea.WithOutput(w), tea.WithContext(ctx))
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fmt.Errorf("survey: %w", err)
	}
	if err := form.Err(); err != nil {
		return fmt.Errorf("survey: your answers could not be saved: %w", err)
	}
	if summary, done := form.Done(); done {
		fmt.Fprintln(w, summary)
	}
	return nil
}

// surveyFromFile validates a file of answers and saves them: complete
// when every required question is answered, otherwise unfinished (merged
// over the unfinished response it resumes, unless restart).
func (a *app) surveyFromFile(ctx context.Context, w io.Writer, q survey.Questionnaire, path string, restart bool) error {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(io.LimitReader(a.deps.Stdin, 1<<20))
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return usageErrorf("survey: %s does not exist", path)
		}
		return fmt.Errorf("survey: %w", err)
	}
	given, err := q.Decode(data)
	if err != nil {
		return usageErrorf("survey: %s: %v", displayPath(path), err)
	}
	st, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := survey.Open(ctx, st, q)
	if err != nil {
		return err
	}
	answers := survey.Answers{}
	if !restart {
		answers = s.Resume()
	}
	for id, v := range given {
		answers[id] = v
	}
	missing := q.Missing(answers)
	if err := s.Save(ctx, st, answers, len(missing) == 0); err != nil {
		return err
	}
	who := fmt.Sprintf("participant %s, questionnaire %s", s.Response.ParticipantID, q.Version)
	if len(missing) == 0 {
		fmt.Fprintf(w, "Saved a complete response (%s): %d of %d questions answered.\n", who, q.Answered(answers), len(q.Questions))
		return nil
	}
	ids := make([]string, len(missing))
	for i, x := range missing {
		ids[i] = x.ID
	}
	fmt.Fprintf(w, "Saved an unfinished response (%s): %d of %d questions answered; still required: %s.\n",
		who, q.Answered(answers), len(q.Questions), strings.Join(ids, ", "))
	fmt.Fprintln(w, "Finish it with gear survey, or another --answers file with the rest.")
	return nil
}

func displayPath(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

// writeQuestions prints the questionnaire for people, in 80 columns.
func writeQuestions(w io.Writer, q survey.Questionnaire) {
	p := &printer{w: w}
	p.wrap("", fmt.Sprintf("Questionnaire %s: %d questions (the GEAR paper's Table 12, one accuracy question per tool)",
		q.Version, len(q.Questions)))
	for _, x := range q.Questions {
		need := "optional"
		if x.Required {
			need = "required"
		}
		p.line("")
		p.wrapHanging(fmt.Sprintf("%2d. ", x.Number), "    ", x.Text)
		p.wrap("    ", fmt.Sprintf("[%s; %s; id %s]", kindName(x.Kind), need, x.ID))
		if x.Kind == survey.KindChoice {
			p.wrap("    ", "choices: "+strings.Join(x.Options, ", "))
		}
	}
}

func kindName(k survey.Kind) string {
	switch k {
	case survey.KindRating:
		return "rating 0-10"
	case survey.KindScore:
		return "score 0-100"
	case survey.KindYesNo:
		return "yes/no"
	case survey.KindChoice:
		return "choice of tools"
	}
	return "open-ended"
}
