package survey

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/gear-chat/gear/store"
)

// FormOptions configure the questionnaire form.
type FormOptions struct {
	// Width bounds the form; 0 takes the terminal's.
	Width int
	// Standalone quits the program when the form is done (gear survey);
	// inside the chat the form only reports Done.
	Standalone bool
	// Restart starts a new response even when an unfinished one could be
	// resumed; otherwise the form offers to resume it.
	Restart bool
}

type formStage int

const (
	stageOffer     formStage = iota // asking whether to resume
	stageQuestions                  // answering
	stageClosing                    // the last save is running
	stageDone
)

// Form is the questionnaire as a Bubble Tea model: a huh form with one
// question per page, thin over the plain functions of answers.go. Answers
// are saved, valid ones only, every time the participant moves to another
// question, and when the form is closed (esc) or finished; a form closed
// early is offered again next time. It satisfies the chat's SurveyForm
// (tea.Model plus Done).
type Form struct {
	ctx     context.Context
	st      Responses
	session *Session
	opts    FormOptions

	stage  formStage
	offer  *huh.Form
	resume bool
	form   *huh.Form
	values *formValues

	focus     string
	lastSaved string // the JSON of the answers as last saved
	saving    bool
	pending   bool // a save was wanted while one ran
	closing   bool // finished (complete) or closed (in progress)
	complete  bool
	err       error
	summary   string
}

// formValues are what the huh fields are bound to.
type formValues struct {
	text  map[string]*string
	tools *[]string
	// kept is a resumed number answer, shown as the field's placeholder:
	// the field starts empty, so typing replaces the answer (a prefilled
	// 8 with the cursor after it would make 87 of a 7), and Enter on the
	// empty field keeps it.
	kept map[string]string
	// answered marks yes/no questions answered before: huh's select
	// always holds one of its options, so an untouched one is no answer.
	answered map[string]bool
}

// text is a field's answer as it stands: what is typed, else the
// resumed answer it keeps.
func (v *formValues) answer(id string) (string, bool) {
	p, ok := v.text[id]
	if !ok {
		return "", false
	}
	if *p == "" {
		if k, ok := v.kept[id]; ok {
			return k, true
		}
	}
	return *p, true
}

// NewForm opens a session for the participant and builds the form. It
// reads the store (a response to resume), so the chat calls it from a
// tea.Cmd.
func NewForm(ctx context.Context, st Responses, q Questionnaire, opts FormOptions) (*Form, error) {
	s, err := Open(ctx, st, q)
	if err != nil {
		return nil, fmt.Errorf("questionnaire: %w", err)
	}
	f := &Form{ctx: ctx, st: st, session: s, opts: opts, lastSaved: "{}"}
	if s.Unfinished != nil && !opts.Restart {
		f.stage = stageOffer
		f.resume = true
		u := s.Unfinished
		desc := fmt.Sprintf("You started it on %s and answered %d of %d questions.",
			u.Response.Started.Local().Format("2 Jan 2006 15:04"), q.Answered(u.Answers), len(q.Questions))
		f.offer = f.styled(huh.NewForm(huh.NewGroup(huh.NewConfirm().Key("resume").
			Title("Resume your unfinished questionnaire?").Description(desc).
			Affirmative("Resume").Negative("Start over").Value(&f.resume))))
		return f, nil
	}
	f.startQuestions(Answers{})
	return f, nil
}

// Session is the form's session: the response as last saved.
func (f *Form) Session() *Session { return f.session }

// Err is the last save's error, if it failed.
func (f *Form) Err() error { return f.err }

// Complete reports whether the response was saved complete.
func (f *Form) Complete() bool { return f.complete }

// Done reports that the form is finished, saved or closed, with one line
// for the conversation.
func (f *Form) Done() (string, bool) { return f.summary, f.stage == stageDone }

func (f *Form) styled(h *huh.Form) *huh.Form {
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "save and close"))
	h = h.WithKeyMap(km).WithShowHelp(true)
	if f.opts.Width > 0 {
		h = h.WithWidth(f.opts.Width)
	}
	return h
}

// Init starts the current huh form.
func (f *Form) Init() tea.Cmd {
	if f.stage == stageOffer {
		return f.offer.Init()
	}
	return f.form.Init()
}

// savedMsg reports a save; final is the save made on closing.
type savedMsg struct {
	form     *Form
	response store.SurveyResponse
	answers  string
	final    bool
	err      error
}

// saveCmd saves the answers on a copy of the session, so nothing is
// shared with Update while it runs. One save runs at a time: the next
// starts when its savedMsg arrives, so a response is inserted once and
// then updated.
func (f *Form) saveCmd(a Answers, complete, final bool) tea.Cmd {
	f.saving, f.pending = true, false
	s := *f.session
	data, _ := json.Marshal(a)
	ctx, st := f.ctx, f.st
	return func() tea.Msg {
		err := s.Save(ctx, st, a, complete)
		return savedMsg{form: f, response: s.Response, answers: string(data), final: final, err: err}
	}
}

// closeCmd makes the last save, now or once the running one is done.
func (f *Form) closeCmd() tea.Cmd {
	f.stage = stageClosing
	if f.saving {
		return nil
	}
	return f.saveCmd(f.Answers(), f.complete, true)
}

// Update passes a message to the huh form and saves when the
// participant moves on, closes or finishes.
func (f *Form) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(savedMsg); ok && m.form == f {
		return f, f.onSaved(m)
	}
	switch f.stage {
	case stageOffer:
		m, cmd := f.offer.Update(msg)
		f.offer = m.(*huh.Form)
		switch f.offer.State {
		case huh.StateCompleted:
			answers := Answers{}
			if f.resume {
				answers = f.session.Resume()
			}
			f.startQuestions(answers)
			return f, f.form.Init()
		case huh.StateAborted:
			return f, f.finish("The questionnaire was closed; nothing changed.")
		}
		return f, cmd
	case stageQuestions:
		m, cmd := f.form.Update(msg)
		f.form = m.(*huh.Form)
		switch f.form.State {
		case huh.StateCompleted:
			f.closing, f.complete = true, true
			return f, f.closeCmd()
		case huh.StateAborted:
			f.closing = true
			return f, f.closeCmd()
		}
		if key := f.form.GetFocusedField().GetKey(); key != f.focus {
			f.focus = key
			return f, tea.Batch(cmd, f.saveIfChanged())
		}
		return f, cmd
	}
	return f, nil
}

// saveIfChanged saves the answers unless they are as last saved; while a
// save runs, it marks one pending.
func (f *Form) saveIfChanged() tea.Cmd {
	a := f.Answers()
	data, _ := json.Marshal(a)
	if string(data) == f.lastSaved || len(a) == 0 && f.session.Response.ID == 0 {
		return nil
	}
	if f.saving {
		f.pending = true
		return nil
	}
	return f.saveCmd(a, false, false)
}

func (f *Form) onSaved(m savedMsg) tea.Cmd {
	f.saving = false
	if m.err != nil {
		f.err = m.err
		switch {
		case m.final:
			return f.finish("Your answers could not be saved: " + m.err.Error())
		case f.closing:
			return f.saveCmd(f.Answers(), f.complete, true)
		}
		return nil
	}
	f.err = nil
	f.session.Response, f.lastSaved = m.response, m.answers
	if f.closing && !m.final {
		return f.saveCmd(f.Answers(), f.complete, true)
	}
	if m.final {
		if f.complete {
			return f.finish("Thank you: your answers to the questionnaire are saved.")
		}
		q := f.session.Questionnaire
		return f.finish(fmt.Sprintf("Your answers so far (%d of %d) are saved; the questionnaire offers to resume them next time.",
			q.Answered(f.Answers()), len(q.Questions)))
	}
	if f.pending {
		return f.saveIfChanged()
	}
	return nil
}

func (f *Form) finish(summary string) tea.Cmd {
	f.stage, f.summary = stageDone, summary
	if f.opts.Standalone {
		return tea.Quit
	}
	return nil
}

// View draws the current page and, after a failed save, why.
func (f *Form) View() string {
	var b strings.Builder
	switch f.stage {
	case stageOffer:
		b.WriteString(f.offer.View())
	case stageQuestions:
		b.WriteString(f.form.View())
		b.WriteString("\nesc saves your answers so far and closes; you can resume later.\n")
	case stageClosing:
		b.WriteString("Saving your answers…\n")
	case stageDone:
		return ""
	}
	if f.err != nil {
		b.WriteString("\nYour answers could not be saved: " + f.err.Error() + "\n")
	}
	return b.String()
}
