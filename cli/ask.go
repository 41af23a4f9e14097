package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/builtin"
)

func (a *app) askCommand() *cobra.Command {
	var asJSON, chat, direct, baseline, yes, show bool
	cmd := &cobra.Command{
		Use:   "ask QUERY",
		Short: "Answer one query (route, ground, call the tool under the machine, answer) without the chat window",
		Long: `gear ask runs one turn of the chat: routing ("does this need a tool?"),
GEAR grounding (which tool, how sure), the call emitted under the ToolDec
machine, the tool, and the answer — streamed, naming the tool and the
grounding confidence. The turn is recorded in the history like a chat turn.

  --chat       route, ground, run the tool and let the chat model answer
               (the default, except in a study's baseline phase)
  --direct     the paper's /GEAR: show the tool's response as is
  --baseline   no tools at all (the comparison chatbot; the default
               while gear study is in its baseline phase)
  --yes        run the top tool even when grounding is unsure
               (below agent.confirm_below) instead of asking
  --show       draw an image the tool saved, on a terminal that can
               (kitty, iTerm2, sixel; else a preview or the path)
  --json       print the full turn record: route, grounding table, call,
               emission path, tool response, answer, timings, model calls
               and tokens per role

The query may also start with /GEAR (direct), @TallChatBot (chat), or be
an exact call: gear ask '/GEAR ` + builtin.ExampleCall() + `' (gear tools
lists every tool's usage examples).

Without a chat model (see gear config), gear still grounds and runs tools
offline — calculator, clock, time zones — and says when a question needs a
model endpoint.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var mode agent.Mode
			var named []string
			for _, m := range []struct {
				set  bool
				mode agent.Mode
			}{{chat, agent.ModeChat}, {direct, agent.ModeDirect}, {baseline, agent.ModeBaseline}} {
				if m.set {
					mode = m.mode
					named = append(named, "--"+string(m.mode))
				}
			}
			if n := len(named); n > 1 {
				return usageErrorf("%s and %s cannot be used together: choose one mode", strings.Join(named[:n-1], ", "), named[n-1])
			}
			a.showImages = show
			return a.ask(cmd.Context(), strings.Join(args, " "), mode, yes, asJSON)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print the full turn record as JSON")
	f.BoolVar(&chat, "chat", false, "answer in chat mode, even in a study's baseline phase")
	f.BoolVar(&direct, "direct", false, "show the tool's response as is (the paper's /GEAR)")
	f.BoolVar(&baseline, "baseline", false, "answer with the chat model alone, no tools")
	f.BoolVar(&yes, "yes", false, "run the top tool without asking when grounding is unsure")
	f.BoolVar(&show, "show", false, "draw an image the tool saved, where the terminal can")
	return cmd
}

// ask runs one turn and prints it. An empty mode is the study phase's
// default: baseline in a study's baseline phase, else chat.
func (a *app) ask(ctx context.Context, text string, mode agent.Mode, yes, asJSON bool) error {
	st, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if mode == "" {
		m, err := survey.DefaultMode(ctx, st)
		if err != nil {
			return err
		}
		mode = agent.Mode(m)
	}
	ag, err := a.newAgent(ctx, st)
	if err != nil {
		return err
	}
	in := ag.Parse(text, mode)
	switch in.Kind {
	case agent.InputEmpty:
		return usageErrorf("nothing to ask: the query is empty")
	case agent.InputSwitch:
		return usageErrorf("%q switches the tool of an earlier turn; in gear ask, name the tool in the query or use /GEAR ToolName(args)", sanitize.Line(text))
	case agent.InputCommand:
		return usageErrorf("/%s is a chat window command; gear ask takes a query, /GEAR <query> or /GEAR ToolName(args)", sanitize.Line(in.Command))
	}
	turn := ag.Start(ctx, agent.Request{Text: text, Mode: mode, Yes: yes})
	p := askPrinter{out: a.deps.Stdout, errw: a.deps.Stderr, json: asJSON}
	for {
		ev, ok := turn.Next()
		if !ok {
			break
		}
		switch e := ev.(type) {
		case agent.ConfirmationNeeded:
			choice := a.confirmTool(e.Confirmation)
			if e.Confirmation.Kind == agent.ConfirmRun {
				choice = a.confirmRun(ag, e.Confirmation)
			}
			if err := turn.Confirm(choice); err != nil {
				return err
			}
		case agent.Failed:
			if asJSON {
				if err := writeJSON(a.deps.Stdout, e.Record); err != nil {
					return err
				}
				return silentError{e.Err}
			}
			p.endLine()
			return e.Err
		case agent.Cancelled:
			if asJSON {
				if err := writeJSON(a.deps.Stdout, e.Record); err != nil {
					return err
				}
			}
			p.endLine()
			return errors.New("cancelled")
		case agent.Done:
			if asJSON {
				return writeJSON(a.deps.Stdout, e.Record)
			}
			p.done(e.Record)
			a.showSaved(ctx, e.Record, a.showImages)
		default:
			p.event(ev)
		}
	}
	return nil
}

// confirmTool answers the confidence gate: interactively on a terminal,
// else without a tool (--yes would have run the top candidate).
func (a *app) confirmTool(c agent.Confirmation) string {
	w := a.deps.Stderr
	top := c.Candidates[0]
	if !a.deps.IsTerminal || a.deps.Stdin == nil || !stdinIsTerminal(a.deps.Stdin) {
		fmt.Fprintf(w, "note: grounding is only %.1f%% sure of %s (below agent.confirm_below, %.1f%%), so no tool was run; run again with --yes to use it\n",
			top.Confidence*100, top.Tool, c.Threshold*100)
		return agent.NoTool
	}
	fmt.Fprintf(w, "Grounding is only %s sure. Which tool?\n", pct(top.Confidence))
	for i, cand := range c.Candidates {
		fmt.Fprintf(w, "  %d. %s (%s)\n", i+1, cand.Tool, pct(cand.Confidence))
	}
	fmt.Fprint(w, "Enter runs 1, a number picks another, n answers without a tool: ")
	line, _ := bufio.NewReader(a.deps.Stdin).ReadString('\n')
	line = strings.TrimSpace(line)
	switch {
	case line == "":
		return top.Tool
	case strings.EqualFold(line, "n"), strings.EqualFold(line, "no"):
		return agent.NoTool
	}
	if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(c.Candidates) {
		return c.Candidates[n-1].Tool
	}
	return agent.NoTool
}

// confirmRun answers the question asked before a tool that is not
// read-only runs: on a terminal the user says yes once, always (remembered
// in agent.allowed_tools) or no; elsewhere it does not run (--yes would
// have answered yes).
func (a *app) confirmRun(ag *agent.Agent, c agent.Confirmation) string {
	tool, effect := c.Candidates[0].Tool, tools.Effect(c.Effect)
	if !a.deps.IsTerminal || a.deps.Stdin == nil || !stdinIsTerminal(a.deps.Stdin) {
		fmt.Fprintf(a.deps.Stderr, "note: %s is not read-only (%s, from %s), so it was not run; run again with --yes, or add it to agent.allowed_tools\n",
			tool, effectWords(effect), sanitize.Line(c.Source))
		return agent.NoTool
	}
	switch a.askRun(tool, effect, c.Source) {
	case runOnce:
		return tool
	case runAlways:
		if err := a.rememberAllowed(tool); err != nil {
			fmt.Fprintf(a.deps.Stderr, "note: %s runs this time, but could not be remembered: %s\n", tool, oneLine(err.Error()))
		}
		ag.Allow(tool)
		return tool
	}
	return agent.NoTool
}

// askPrinter prints a turn as it runs: notices on stderr, the answer on
// stdout as it streams, then the tool badge.
type askPrinter struct {
	out, errw io.Writer
	json      bool
	answered  bool
	lastNL    bool
}

func (p *askPrinter) event(ev agent.Event) {
	if p.json {
		return
	}
	switch e := ev.(type) {
	case agent.Notice:
		fmt.Fprintln(p.errw, "note: "+e.Text)
	case agent.AnswerDelta:
		if e.Text == "" {
			return
		}
		fmt.Fprint(p.out, e.Text)
		p.answered, p.lastNL = true, strings.HasSuffix(e.Text, "\n")
	}
}

// endLine finishes a partly printed answer.
func (p *askPrinter) endLine() {
	if p.answered && !p.lastNL {
		fmt.Fprintln(p.out)
		p.lastNL = true
	}
}

// done ends the answer with the badge: tool · confidence · engine.
func (p *askPrinter) done(r agent.Record) {
	p.endLine()
	if r.Tool == "" {
		return
	}
	badge := "— " + r.Tool
	if r.Source != nil && !r.Source.IsBuiltin() {
		badge += " (" + sanitize.Line(r.Source.String()) + ")"
	}
	switch {
	case r.ChosenBy == "call":
		badge += " · exact call"
	case r.Grounded:
		badge += " · confidence " + pct(r.Confidence)
		if r.ChosenBy == "user" {
			badge += " · chosen by you"
		}
		if r.Grounding != nil {
			badge += " · " + r.Grounding.Engine + " grounding"
		}
	}
	if r.Emission != nil && (r.Emission.Path == store.EmissionRepaired || r.Emission.Path == store.EmissionGuided ||
		r.Emission.Path == store.EmissionStepped) {
		badge += " · call " + string(r.Emission.Path)
	}
	fmt.Fprintln(p.out, badge)
}

// pct writes a confidence rounded down: a choice short of certain never
// reads 100%.
func pct(p float64) string { return fmt.Sprintf("%.0f%%", math.Floor(p*100)) }
