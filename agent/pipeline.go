package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// turnRun is one turn's state while it runs.
type turnRun struct {
	a     *Agent
	t     *Turn
	req   Request
	rec   Record
	start time.Time
	ref   store.TurnRef
	ctx   context.Context // the turn's context, with the usage recorder

	mu     sync.Mutex
	calls  []ModelCall
	closed bool

	grounded *grounding.Result
}

// cancelledByUser is the record's error for a cancelled turn.
const cancelledByUser = "cancelled"

// run is the whole turn. Whatever happens, it ends with one final event
// and (when there is a Recorder and the turn began) a FinishTurn.
func (a *Agent) run(ctx context.Context, t *Turn, req Request) {
	tr := &turnRun{a: a, t: t, req: req, start: a.now()}
	tr.ctx = llm.WithUsageRecorder(ctx, tr.recordUsage)
	tr.rec = Record{Input: req.Text, Status: store.StatusRunning, Engines: a.cfg.Engines}
	err := tr.pipeline()
	tr.finish(err)
}

// pipeline parses the input, records the turn's start and runs its mode.
func (tr *turnRun) pipeline() error {
	a, req := tr.a, tr.req
	mode := req.Mode
	if mode == "" {
		mode = store.ModeChat
	}
	if _, ok := store.ParseMode(string(mode)); !ok {
		return tools.Inputf("unknown mode %q (want chat, direct or baseline)", mode)
	}
	in := a.Parse(req.Text, mode)
	forced := strings.TrimSpace(req.Tool)
	switch in.Kind {
	case InputEmpty:
		return tools.Inputf("nothing to answer: the message is empty")
	case InputCommand:
		return tools.Inputf("/%s is not something the agent answers (the chat window's commands are listed by /help)", sanitizeLine(in.Command))
	case InputSwitch:
		last, lastMode, err := tr.lastQuery()
		if err != nil {
			return err
		}
		forced = in.Tool
		in = Input{Kind: InputQuery, Mode: lastMode, Query: last}
	}
	var named []string // the tools of a tool the user named
	if forced != "" {
		var err error
		if named, err = a.ResolveTool(forced); err != nil {
			return tools.Inputf("%s", err.Error())
		}
		if in.Mode == store.ModeBaseline {
			in.Mode = store.ModeChat
		}
	}
	tr.rec.Mode = in.Mode
	tr.rec.Query = in.Query
	if in.Kind == InputCall {
		tr.rec.Query = in.Call
	}
	if err := tr.begin(); err != nil {
		return err
	}
	tr.t.emit(Started{ConversationID: tr.rec.ConversationID, TurnID: tr.rec.TurnID, Mode: tr.rec.Mode, Query: sanitizeText(tr.rec.Query)})
	if a.cfg.Chat == nil && in.Mode != store.ModeDirect {
		a.noticeOnce.Do(func() {
			n := "No chat model is configured: gear grounds and runs tools and shows their responses as they are, but cannot converse. " + a.configureHint()
			tr.notice(n)
		})
	}
	switch {
	case in.Kind == InputCall:
		return tr.exactCall(in.Call)
	case in.Mode == store.ModeBaseline:
		return tr.answerWithoutTool(false)
	default:
		return tr.toolTurn(in.Query, named)
	}
}

// lastQuery is the conversation's last turn that had a query to re-run.
func (tr *turnRun) lastQuery() (string, store.Mode, error) {
	rec := tr.a.cfg.Recorder
	if rec == nil || tr.req.Conversation == 0 {
		return "", "", tools.Inputf("there is no earlier question in this conversation to answer with another tool")
	}
	turns, err := rec.Turns(tr.ctx, tr.req.Conversation)
	if err != nil {
		return "", "", fmt.Errorf("reading the conversation: %w", err)
	}
	for i := len(turns) - 1; i >= 0; i-- {
		q := strings.TrimSpace(turns[i].Query)
		if q == "" {
			continue
		}
		mode := turns[i].Mode
		if in := tr.a.Parse(q, mode); in.Kind != InputQuery {
			continue
		}
		if mode == store.ModeBaseline || mode == "" {
			mode = store.ModeChat
		}
		return q, mode, nil
	}
	return "", "", tools.Inputf("there is no earlier question in this conversation to answer with another tool")
}

// begin records the user's text before any model is called.
func (tr *turnRun) begin() error {
	rec := tr.a.cfg.Recorder
	if rec == nil {
		return nil
	}
	conv := tr.req.Conversation
	if conv == 0 {
		e := tr.a.cfg.Engines
		id, err := rec.CreateConversation(tr.ctx, store.NewConversation{Mode: tr.rec.Mode,
			Chat: e.Chat, Grounding: e.Grounding, Embedding: e.Embedding})
		if err != nil {
			return fmt.Errorf("recording the conversation: %w", err)
		}
		conv = id
	}
	ref, err := rec.BeginTurn(tr.ctx, conv, tr.rec.Query, tr.rec.Mode)
	if err != nil {
		return fmt.Errorf("recording the question: %w", err)
	}
	tr.ref = ref
	tr.rec.ConversationID, tr.rec.TurnID = ref.ConversationID, ref.TurnID
	return nil
}

// toolTurn is chat and direct mode: ground, choose, emit, run, answer.
// named are the tools of the tool the user named (resolved once, by
// pipeline), nil when grounding chooses.
func (tr *turnRun) toolTurn(query string, named []string) error {
	a := tr.a
	tr.t.emit(Progress{Stage: StageGrounding, Tools: len(a.specs)})
	// /GEAR and a named tool already say a tool is needed.
	userSaysTool := len(named) > 0 || tr.rec.Mode == store.ModeDirect
	res, err := tr.ground(query, grounding.Ask{ToolNeeded: userSaysTool, Include: named})
	if err != nil {
		return err
	}
	tr.grounded = res
	g := groundingOf(res)
	route := routeOf(res.Route)
	tr.rec.Grounding, tr.rec.Route = &g, &route
	tr.t.emit(Routed{Route: route})
	tr.t.emit(Grounded{Grounding: g})

	tool, conf := res.Choice.Tool, res.Choice.Confidence
	chosenBy := store.ChosenByGrounding
	switch {
	case len(named) > 0:
		tool, conf = bestOf(res, named)
		chosenBy = store.ChosenByUser
		tr.rec.Route.toolNeededBy(store.RouteByUser)
	case tr.rec.Mode == store.ModeDirect:
		tr.rec.Route.toolNeededBy(store.RouteByMode)
		if tool == grounding.None {
			// /GEAR asks for a tool: the best one, however unsure.
			best, _ := res.Best()
			tool, conf = best.Tool, best.Probability
		}
	}
	switch {
	case tool == grounding.None && !tr.offersTools(res):
		return tr.answerWithoutTool(true)
	case tool == grounding.None || chosenBy == store.ChosenByGrounding && conf < a.cfg.ConfirmBelow:
		kind := ""
		if tool == grounding.None {
			kind = ConfirmNone
		}
		picked, err := tr.confirm(res, kind)
		if err != nil {
			return err
		}
		if picked == NoTool {
			return tr.answerWithoutTool(true)
		}
		if picked != tool {
			tool, chosenBy = picked, store.ChosenByUser
			_, conf = bestOf(res, []string{picked})
		}
	}
	spec, _ := a.reg.Spec(tool)
	tr.rec.Tool, tr.rec.Family, tr.rec.Confidence, tr.rec.Grounded, tr.rec.ChosenBy = tool, string(spec.Family), conf, true, chosenBy
	tr.rec.Source = sourceOf(spec)

	em, err := tr.emitCall(spec, query)
	em = sanitizeEmission(em)
	tr.rec.Emission, tr.rec.CallReading = &em, em.Reading
	tr.t.emit(CallEmitted{Emission: em})
	if err != nil {
		return err
	}
	if em.Rejected {
		return tr.answerRejected(spec, em)
	}
	if ok, err := tr.checkCall(spec, em); err != nil {
		return err
	} else if !ok {
		return tr.answerCallNotRun(spec, em)
	}
	if ok, err := tr.permit(spec, em.Call); err != nil {
		return err
	} else if !ok {
		return tr.answerNotPermitted(spec, em.Call)
	}
	run := tr.runTool(spec, em.Call)
	if err := tr.ctx.Err(); err != nil {
		return err
	}
	if tr.rec.Mode == store.ModeDirect || tr.a.cfg.Chat == nil {
		return tr.showResponse(run)
	}
	return tr.answerWithTool(spec, run)
}

// ground runs GEAR with routing, bounded by Limits.Ground. Grounding
// starts the routing question with its own requests when it will be asked
// (or speculatively); when the user already said a tool is needed, no
// model is asked, and a tool the user named is called whatever its rank.
func (tr *turnRun) ground(query string, ask grounding.Ask) (*grounding.Result, error) {
	a := tr.a
	ctx, cancel := context.WithTimeout(tr.ctx, a.cfg.Limits.Ground)
	defer cancel()
	start := a.now()
	type outcome struct {
		res *grounding.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		r, err := a.grounder.GroundWith(ctx, query, ask)
		done <- outcome{r, err}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-tr.ctx.Done():
		return nil, tr.ctx.Err()
	}
	tr.rec.Timings.Ground = a.now().Sub(start)
	if o.err != nil {
		if err := tr.ctx.Err(); err != nil {
			return nil, err
		}
		if errors.Is(o.err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("grounding took longer than %s; try again, or check the grounding and embedding models", a.cfg.Limits.Ground)
		}
		// The grounder's errors already say "grounding: …".
		return nil, o.err
	}
	tr.rec.Timings.Route = time.Duration(o.res.Route.ModelMS * float64(time.Millisecond))
	return o.res, nil
}

// toolNeededBy records that by (RouteByUser: a named tool; RouteByMode:
// direct mode) decided a tool is needed and no model was asked; grounding's
// probability and threshold stay for the record.
func (r *Route) toolNeededBy(by store.RouteMethod) {
	r.NeedsTool, r.By, r.ModelAsked, r.ModelSaid = true, by, false, ""
}

// bestOf picks, among names, the tool grounding scored highest, with its
// probability.
func bestOf(res *grounding.Result, names []string) (string, float64) {
	best, p, f := "", 0.0, -1.0
	for _, n := range names {
		for _, ts := range res.Tools {
			if ts.Tool == n && ts.F > f {
				best, p, f = n, ts.Probability, ts.F
			}
		}
	}
	if best == "" && len(names) > 0 {
		best = names[0]
	}
	return best, p
}

// confirm asks the caller to pick a tool (or none) when grounding is not
// sure enough of its choice, or (kind ConfirmNone) offers the closest
// tools when it chose none unsure. Request.Yes answers the first with the
// top candidate and the second with no tool: grounding proposed none.
func (tr *turnRun) confirm(res *grounding.Result, kind string) (string, error) {
	c := Confirmation{Kind: kind, Threshold: tr.a.cfg.ConfirmBelow, Candidates: tr.candidates(res, kind)}
	if kind == ConfirmNone {
		c.Threshold, c.NoneConfidence = tr.a.cfg.OfferToolsBelow, res.Choice.Confidence
	}
	if len(c.Candidates) == 0 {
		return NoTool, nil
	}
	tr.rec.Confirmation = &c
	if tr.req.Yes {
		c.Chosen, c.Auto = c.Candidates[0].Tool, true
		if kind == ConfirmNone {
			c.Chosen = NoTool
		}
		return c.Chosen, nil
	}
	tr.rec.Status = store.StatusAwaitingConfirmation
	tr.save()
	tr.t.ask(c)
	tr.t.emit(ConfirmationNeeded{Confirmation: c})
	select {
	case picked := <-tr.t.answer:
		tr.rec.Status = store.StatusRunning
		if picked != NoTool {
			if _, ok := tr.a.reg.Spec(picked); !ok {
				names, err := tr.a.ResolveTool(picked)
				if err != nil {
					return "", tools.Inputf("%s", err.Error())
				}
				picked, _ = bestOf(res, names)
			}
		}
		c.Chosen = picked
		return picked, nil
	case <-tr.ctx.Done():
		tr.t.closeQuestion()
		return "", tr.ctx.Err()
	}
}

// configureHint says how to configure a chat model.
func (a *Agent) configureHint() string {
	h := "To talk with gear, configure a chat model endpoint: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server such as Ollama), " +
		"or --chat-model and --chat-url, or models.chat in the config file; gear config shows what each role uses."
	if r := strings.TrimSpace(a.cfg.ChatUnavailable); r != "" {
		h += " (The chat role is offline now: " + strings.TrimSuffix(r, ".") + ".)"
	}
	return h
}

// recordUsage receives every model call made with the turn's context.
func (tr *turnRun) recordUsage(u llm.Usage) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.closed {
		return
	}
	tr.calls = append(tr.calls, ModelCall{Role: store.ModelRole(u.Role), Call: u.Call, Server: u.Server, Model: u.Model,
		LatencyMS: ms(u.Latency), PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens,
		Estimated: u.Estimated, Failed: u.Failed})
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
