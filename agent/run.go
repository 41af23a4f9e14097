package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// runTool runs the emitted call, bounded by Limits.Tool. A call grounding
// already ran (not a mock) is not run twice: its response is used.
func (tr *turnRun) runTool(spec tools.Spec, text string) (run ToolRun) {
	a := tr.a
	run = ToolRun{Tool: spec.Name, Source: *sourceOf(spec), Call: text}
	tr.t.emit(Progress{Stage: StageCalling, Tool: spec.Name})
	tr.t.emit(ToolStarted{Tool: spec.Name, Call: sanitizeLine(text)})
	start := a.now()
	defer func() {
		run = sanitizeRun(run)
		run.Duration = a.now().Sub(start)
		run.DurationMS = ms(run.Duration)
		tr.rec.Timings.Tool = run.Duration
		tr.rec.Call = &run
		tr.t.emit(ToolResult{Run: run})
	}()
	if tr.grounded != nil {
		for _, ts := range tr.grounded.Tools {
			if ts.Tool == spec.Name && ts.Status == grounding.StatusRun && ts.Call == text {
				run.Response, run.FromGrounding = ts.Response, true
				return run
			}
		}
	}
	call, err := a.machines[spec.Name].Validate(text)
	if err != nil {
		// emitCall only hands over accepted calls; this is the last guard.
		run.Error = "the call was rejected by the machine: " + err.Error()
		return run
	}
	ctx, cancel := context.WithTimeout(tr.ctx, a.cfg.Limits.Tool)
	defer cancel()
	type outcome struct {
		res tools.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		r, err := a.reg.Run(ctx, call)
		done <- outcome{r, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			run.Error, run.InputError = o.err.Error(), tools.IsInput(o.err)
			if ctx.Err() == context.DeadlineExceeded && tr.ctx.Err() == nil {
				run.Error = fmt.Sprintf("%s did not answer within %s", spec.Name, a.cfg.Limits.Tool)
			}
			return run
		}
		run.Response = o.res.Text
	case <-ctx.Done():
		run.Error = fmt.Sprintf("%s did not answer within %s", spec.Name, a.cfg.Limits.Tool)
		if tr.ctx.Err() != nil {
			run.Error = cancelledByUser
		}
	}
	return run
}

// exactCall is "/GEAR ToolName(args)": the machine validates exactly what
// was typed; nothing it rejects runs, and nothing is repaired silently.
func (tr *turnRun) exactCall(text string) error {
	a := tr.a
	route := Route{NeedsTool: true, By: "user"}
	tr.rec.Route = &route
	em := Emission{Path: store.EmissionExact, Original: text}
	call, err := a.library.Validate(text)
	if err != nil {
		em.Rejected = true
		em.Attempts = []Attempt{{Path: store.EmissionExact, Output: text, Error: err.Error()}}
		em = sanitizeEmission(em)
		tr.rec.Emission = &em
		tr.t.emit(CallEmitted{Emission: em})
		msg := err.Error()
		if fixed, rerr := a.library.Repair(text); rerr == nil && !strings.Contains(msg, "did you mean") {
			msg += "; did you mean " + fixed.Text + "?"
		}
		return &callError{msg: "the call was not run: " + msg}
	}
	spec, _ := a.reg.Spec(call.Tool)
	em.Tool, em.Call = call.Tool, call.String()
	em.Attempts = []Attempt{{Path: store.EmissionExact, Output: text}}
	em = sanitizeEmission(em)
	tr.rec.Emission = &em
	tr.rec.Tool, tr.rec.Family, tr.rec.ChosenBy = call.Tool, string(spec.Family), store.ChosenByCall
	tr.rec.Source = sourceOf(spec)
	tr.t.emit(CallEmitted{Emission: em})
	tr.permitTyped(spec)
	run := tr.runTool(spec, em.Call)
	if err := tr.ctx.Err(); err != nil {
		return err
	}
	return tr.showResponse(run)
}

// callError is a typed call the machine rejected: the user's to fix.
type callError struct{ msg string }

func (e *callError) Error() string { return e.msg }

// Unwrap makes it an input error for exit codes.
func (e *callError) Unwrap() error { return &tools.InputError{Msg: e.msg} }

// showResponse answers with the tool's response as is (direct mode, or no
// chat model): the response, or what went wrong.
func (tr *turnRun) showResponse(run ToolRun) error {
	text := run.Response
	if run.Error != "" {
		text = fmt.Sprintf("%s could not answer: %s", run.Tool, run.Error)
	}
	tr.rec.AnsweredBy = store.AnsweredByTool
	tr.say(text)
	return nil
}

// say is an answer of gear's own, or a tool's response: one delta.
func (tr *turnRun) say(text string) {
	text = sanitizeText(text)
	tr.rec.Answer = text
	if tr.rec.AnsweredBy == "" {
		tr.rec.AnsweredBy = store.AnsweredByGear
	}
	tr.t.emit(Progress{Stage: StageAnswering})
	tr.t.emit(AnswerDelta{Text: text})
}

// notice tells the user something once, and keeps it in the record.
func (tr *turnRun) notice(text string) {
	text = sanitizeLine(text)
	tr.rec.Notices = append(tr.rec.Notices, text)
	tr.t.emit(Notice{Text: text})
}
