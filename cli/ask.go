package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
	"github.com/gear-chat/gear/tools/builtin"
)

func (a *app) askCommand() *cobra.Command {
	var asJSON, chat, direct, baseline, yes, cont, show bool
	cmd := &cobra.Command{
		Use:   "ask [QUERY]",
		Short: "Answer one query (route, ground, call the tool under the machine, answer) without the chat window",
		Long: `gear ask runs one turn of the chat: routing ("does this need a tool?"),
GEAR grounding (which tool, how sure), the call emitted under the ToolDec
machine, the tool, and the answer — streamed, ending with the call that
ran and two confidences: the tool's (is it the right tool?) and, when the
engine gives one, the call's (did it read the arguments right?). The
turn is recorded in the history like a chat turn. docs/confidence.md says
when gear asks before running, and how to change it.

  --chat       route, ground, run the tool and let the chat model answer
               (the default, except in a study's baseline phase)
  --direct     the paper's /GEAR: show the tool's response as is
  --baseline   no tools at all (the comparison chatbot; the default
               while gear study is in its baseline phase)
  --yes        run the top tool even when grounding is unsure
               (below agent.confirm_below), and a call even when the
               engine is unsure it read the arguments right (below
               agent.confirm_call_below), instead of asking
  --show       draw an image the tool saved, on a terminal that can
               (kitty, iTerm2, sixel; else a preview or the path)
  --json       print the full turn record: route, grounding table, call,
               emission path, tool response, answer, timings, model calls
               and tokens per role

The query may also start with /GEAR (direct), @TallChatBot (chat), or be
an exact call: gear ask '/GEAR ` + builtin.ExampleCall() + `' (gear tools
lists every tool's usage examples).

Text piped in is read as well: with no QUERY it is the query
(echo "what is 2+2" | gear ask); with one, it follows the query as its
context (cat notes.txt | gear ask "summarise this"). -c/--continue adds the
turn to the last conversation instead of starting a new one.

Without a chat model (see gear config), gear still grounds and runs tools
offline — calculator, clock, time zones — and says when a question needs a
model endpoint.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// At most one is set (markExclusive below).
			var mode store.Mode
			switch {
			case chat:
				mode = store.ModeChat
			case direct:
				mode = store.ModeDirect
			case baseline:
				mode = store.ModeBaseline
			}
			text, err := a.askText(args)
			if err != nil {
				return err
			}
			return a.ask(cmd.Context(), askOptions{text: text, mode: mode, yes: yes, json: asJSON, cont: cont, show: show})
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print the full turn record as JSON")
	f.BoolVar(&chat, "chat", false, "answer in chat mode, even in a study's baseline phase")
	f.BoolVar(&direct, "direct", false, "show the tool's response as is (the paper's /GEAR)")
	f.BoolVar(&baseline, "baseline", false, "answer with the chat model alone, no tools")
	f.BoolVar(&yes, "yes", false, "run the top tool, and its call, without asking when gear is unsure")
	f.BoolVarP(&cont, "continue", "c", false, "continue the last conversation")
	f.BoolVar(&show, "show", false, "draw an image the tool saved, where the terminal can")
	markExclusive(cmd, "choose one mode", "chat", "direct", "baseline")
	return cmd
}

// maxPipedInput bounds what gear ask reads from a pipe: a model's context
// holds far less, and a mistaken pipe (a disk image) must not fill memory.
const maxPipedInput = 256 << 10

// pipedGrace is how long gear ask, given a query as arguments, waits for
// piped text to start: a caller that leaves standard input open without
// writing to it (a supervisor, a CI wrapper, the MCP conformance suite)
// must not make gear wait for ever. Text piped in (cat notes | gear ask …)
// is there at once.
const pipedGrace = 250 * time.Millisecond

// askText is the query: the arguments, then what was piped in, if any.
func (a *app) askText(args []string) (string, error) {
	query := strings.TrimSpace(strings.Join(args, " "))
	var piped string
	if !a.deps.StdinIsTerminal && a.deps.Stdin != nil {
		data, err := readPiped(a.deps.Stdin, query != "")
		if err != nil {
			return "", fmt.Errorf("reading standard input: %w", err)
		}
		if len(data) > maxPipedInput {
			return "", usageErrorf("the text piped in is over %d KiB: pass a shorter part (head -c, grep) or ask about the file by name", maxPipedInput>>10)
		}
		piped = strings.TrimSpace(string(data))
	}
	switch {
	case query == "" && piped == "":
		return "", usageErrorf("nothing to ask: give a query (gear ask \"what is 2+2\") or pipe one in (echo \"what is 2+2\" | gear ask)")
	case piped == "":
		return query, nil
	case query == "":
		return piped, nil
	}
	return query + "\n\n" + piped, nil
}

// readPiped reads at most maxPipedInput+1 bytes of in. Without a query the
// piped text is the query, so it waits for it; with one, it reads only
// what starts arriving within pipedGrace, and an input that stays silent
// is no input.
func readPiped(in io.Reader, haveQuery bool) ([]byte, error) {
	limited := io.LimitReader(in, maxPipedInput+1)
	if !haveQuery {
		return io.ReadAll(limited)
	}
	type result struct {
		data []byte
		err  error
	}
	first := make(chan result, 1)
	buf := make([]byte, 32<<10)
	go func() {
		n, err := limited.Read(buf)
		first <- result{buf[:n], err}
	}()
	timer := time.NewTimer(pipedGrace)
	defer timer.Stop()
	select {
	case r := <-first:
		if r.err == io.EOF {
			return r.data, nil
		}
		if r.err != nil {
			return nil, r.err
		}
		rest, err := io.ReadAll(limited)
		return append(r.data, rest...), err
	case <-timer.C:
		// The reader goroutine stays blocked on a silent input until the
		// process ends; gear ask is one turn, so that is soon.
		return nil, nil
	}
}

// askOptions are one gear ask's choices.
type askOptions struct {
	text string
	// mode is empty for the study phase's default.
	mode      store.Mode
	yes, json bool
	// cont continues the last conversation.
	cont bool
	// show draws an image the tool saved, where the terminal can.
	show bool
}

// ask runs one turn and prints it. An empty mode is the study phase's
// default: baseline in a study's baseline phase, else chat.
func (a *app) ask(ctx context.Context, o askOptions) error {
	text, mode, yes := o.text, o.mode, o.yes
	// The MCP servers start connecting now, while the history opens and
	// the agent is wired; askRegistry decides whom to wait for.
	if _, err := a.mcpManager(ctx); err != nil {
		return err
	}
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
		mode = store.Mode(m)
	}
	// A server that is down is said once, here; what works without it
	// still answers.
	warnings, chatDown, err := a.checkServers(ctx)
	if err != nil {
		return err
	}
	if msg := a.announceEnvironment(ctx, st); msg != "" {
		fmt.Fprintln(a.deps.Stderr, "note: "+oneLine(msg))
	}
	for _, w := range warnings {
		fmt.Fprintln(a.deps.Stderr, "warning: "+oneLine(w))
	}
	// Servers still connecting are waited for only when they may hold
	// the answer (ask_mcp.go).
	reg, err := a.askRegistry(ctx, st, text)
	if err != nil {
		return err
	}
	ag, err := a.agentFor(ctx, st, reg, a.cfg.Agent.Allowed, chatDown)
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
	req := agent.Request{Text: text, Mode: mode, Yes: yes}
	if o.cont {
		convs, err := st.Conversations(ctx, 1)
		if err != nil {
			return err
		}
		if len(convs) == 0 {
			return usageErrorf("--continue: there is no conversation yet to continue; ask without -c to start one")
		}
		req.Conversation = convs[0].ID
	}
	// "No tool" answers only with a chat model, and not in direct mode.
	canAnswer := chatDown == nil && !llm.Resolve(a.cfg, llm.RoleChat).Offline && in.Mode != store.ModeDirect
	return a.askTurn(ctx, ag, st, req, o, canAnswer)
}

// askTurn runs the turn and prints it, answering the gate's questions:
// on a terminal by asking, elsewhere by not running what gear is unsure
// of (--yes runs it). canAnswer says whether "no tool" can still give an
// answer (a chat model, not direct mode).
func (a *app) askTurn(ctx context.Context, ag *agent.Agent, st *store.Store, req agent.Request, o askOptions, canAnswer bool) error {
	asJSON := o.json
	turn := ag.Start(ctx, req)
	p := askPrinter{out: a.deps.Stdout, errw: a.deps.Stderr, json: asJSON}
	for {
		ev, ok := turn.Next()
		if !ok {
			break
		}
		switch e := ev.(type) {
		case agent.Started:
			if !o.cont {
				recordOneShot(ctx, st, e.ConversationID)
			}
		case agent.ConfirmationNeeded:
			var choice string
			var err error
			switch e.Confirmation.Kind {
			case agent.ConfirmRun:
				choice, err = a.confirmRun(ctx, ag, e.Confirmation)
			case agent.ConfirmCall:
				choice, err = a.confirmCall(ctx, e.Confirmation)
			case agent.ConfirmNone:
				choice, err = a.offerTools(ctx, e.Confirmation, canAnswer)
			default:
				choice, err = a.confirmTool(ctx, e.Confirmation, canAnswer)
			}
			if err != nil {
				turn.Cancel()
				p.endLine()
				return err
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
				if err := writeJSON(a.deps.Stdout, e.Record); err != nil {
					return err
				}
			} else {
				p.done(e.Record)
			}
			if !asJSON {
				a.showSaved(ctx, e.Record, o.show)
			}
			if !answered(e.Record) {
				return silentError{errNotAnswered}
			}
			return nil
		default:
			p.event(ev)
		}
	}
	return nil
}

// errNotAnswered ends a turn gear could only explain: the answer printed
// says why.
var errNotAnswered = errors.New("the turn did not answer")

// answered is the one rule for gear ask's exit code: a turn answered when
// a model or a tool wrote its answer (a tool's error is its answer). A
// turn that failed, was cancelled, or where gear could only say why not
// (no valid call could be written, no chat model) exits 1.
func answered(rec agent.Record) bool {
	return rec.Status == store.StatusDone && rec.AnsweredBy != store.AnsweredByGear
}
