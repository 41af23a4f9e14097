package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gear-chat/gear/constrain"
	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// emitCall produces the call of the chosen tool under that tool's machine
// (Algorithm 1, line 8). Grounding already has one: the small model's q_i
// (or the offline engine's extraction), which the machine validates. It is
// the call in direct mode and without a chat LLM, and in chat mode when
// Config.ReuseGroundingCall allows (by default when the small model is the
// chat model, which would write the same call again a round trip later).
// Otherwise, or when the machine rejects it, the chat LLM writes the call,
// by the best mechanism its server offers: server-side guided decoding under
// the machine's export, client-side ToolDec stepping over top logprobs, or a
// prompt whose output the machine validates, repairs, or rejects and asks
// for once more. The machine is the chosen tool's
// alone, so a call of another tool is rejected like any other invalid call.
// A rejected emission never runs. The error is a model failure no other
// path can get round (a rejected key, an unreachable server, a timeout).
func (tr *turnRun) emitCall(spec tools.Spec, query string) (Emission, error) {
	a := tr.a
	start := a.now()
	defer func() { tr.rec.Timings.Emit = a.now().Sub(start) }()
	tr.t.emit(Progress{Stage: StageEmitting, Tool: spec.Name})
	em := Emission{Tool: spec.Name}
	m := a.machines[spec.Name]

	if a.cfg.Chat == nil || tr.rec.Mode == store.ModeDirect || a.reusesGroundingCall() {
		if ok := tr.emitFromGrounding(&em, m, spec); ok || a.cfg.Chat == nil {
			return em, nil
		}
	}
	ctx, cancel := context.WithTimeout(tr.ctx, a.cfg.Limits.Emit)
	defer cancel()
	e := emitter{tr: tr, ctx: ctx, m: m, spec: spec, em: &em, query: query, msgs: emissionMessages(spec, query, false)}
	caps := a.cfg.Chat.Capabilities(ctx)
	paths := []func() bool{}
	if g := guideFor(caps, m); g != nil {
		paths = append(paths, func() bool { return e.guided(*g) })
	}
	if caps.Logprobs && caps.Prefill {
		paths = append(paths, func() bool { return e.stepped(caps) })
	}
	paths = append(paths, e.prompted)
	for _, try := range paths {
		if try() {
			return em, nil
		}
		if e.fatal != nil || ctx.Err() != nil {
			break
		}
	}
	em.Rejected = true
	switch {
	case tr.ctx.Err() != nil:
		return em, tr.ctx.Err()
	case ctx.Err() == context.DeadlineExceeded:
		em.Attempts = append(em.Attempts, Attempt{Path: em.Path, Error: fmt.Sprintf("no acceptable call within %s", a.cfg.Limits.Emit)})
	case e.fatal != nil:
		return em, fmt.Errorf("emitting the %s call: %w", spec.Name, e.fatal)
	}
	return em, nil
}

// fallible says whether another emission path may succeed where this
// error stopped one: the server refused a feature or sent something
// malformed. Anything else (a rejected key, an unreachable server, a
// timeout) would stop every path.
func fallible(err error) bool {
	return errors.Is(err, llm.ErrUnsupported) || errors.Is(err, llm.ErrBadRequest) || errors.Is(err, llm.ErrBadResponse) ||
		!errors.As(err, new(*llm.Error)) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// reusesGroundingCall says whether a chat-mode turn runs grounding's call
// of the chosen tool rather than asking the chat LLM for one.
func (a *Agent) reusesGroundingCall() bool {
	switch a.cfg.ReuseGroundingCall {
	case ReuseAlways:
		return true
	case ReuseNever:
		return false
	}
	return a.cfg.SmallModelIsChat
}

// emitFromGrounding takes grounding's call of the tool. It reports whether
// the call was accepted (as it was, or repaired). The path says who wrote
// it: the offline engine, or grounding's small model.
func (tr *turnRun) emitFromGrounding(em *Emission, m *constrain.Machine, spec tools.Spec) bool {
	path := store.EmissionGrounding
	if tr.grounded != nil && tr.grounded.Engine == grounding.EngineOffline {
		path = store.EmissionOffline
	}
	var ts grounding.ToolScore
	if tr.grounded != nil {
		for _, t := range tr.grounded.Tools {
			if t.Tool == spec.Name {
				ts = t
			}
		}
	}
	text := ts.Call
	if text == "" {
		text = strings.TrimSpace(ts.Generated)
	}
	if text == "" {
		why := fmt.Sprintf("grounding found no complete call of %s in the query", spec.Name)
		if ts.Error != "" {
			why += " (" + ts.Error + ")"
		}
		em.Path, em.Rejected = path, true
		em.Attempts = append(em.Attempts, Attempt{Path: path, Error: why})
		return false
	}
	call, fixes, err := accept(m, spec, text)
	if err != nil {
		em.Path, em.Rejected, em.Original = path, true, text
		em.Attempts = append(em.Attempts, Attempt{Path: path, Output: text, Error: err.Error()})
		return false
	}
	em.Attempts = append(em.Attempts, Attempt{Path: path, Output: text})
	em.setAccepted(path, text, call, fixes)
	// The prober's reading is of this call, so it goes with it; a call
	// the chat model writes instead has none.
	em.Reading = ts.Reading
	return true
}

// setAccepted records the accepted call.
func (em *Emission) setAccepted(path store.Emission, original string, call tools.Call, fixes []constrain.Fix) {
	em.Path, em.Call, em.Rejected = path, call.String(), false
	if len(fixes) > 0 {
		em.Path, em.Original = store.EmissionRepaired, original
		em.Repairs = nil
		for _, f := range fixes {
			em.Repairs = append(em.Repairs, f.What)
		}
	}
}

// accept runs a model's text through the machine: as it is; else the call
// cut out of surrounding prose or a code fence; else repaired within the
// machine. Anything else is the machine's error.
func accept(m *constrain.Machine, spec tools.Spec, text string) (tools.Call, []constrain.Fix, error) {
	text = strings.TrimSpace(text)
	call, err := m.Validate(text)
	if err == nil {
		return call, nil, nil
	}
	first := err
	if cut := grounding.ExtractCall(text, spec.Name); cut != "" && cut != text {
		if call, err := m.Validate(cut); err == nil {
			return call, nil, nil
		}
		text = cut
	} else if unfenced := stripFence(text); unfenced != text {
		if call, err := m.Validate(unfenced); err == nil {
			return call, nil, nil
		}
		text = unfenced
	}
	rep, err := m.Repair(text)
	if err != nil {
		var ce *constrain.Error
		if errors.As(first, &ce) && ce.Unknown != "" {
			// The machine knows only spec's tool: "unknown tool" would be
			// wrong for another tool of the library.
			return tools.Call{}, nil, &wrongToolError{named: ce.Unknown, want: spec.Name, err: ce}
		}
		return tools.Call{}, nil, first
	}
	return rep.Call, rep.Fixes, nil
}

// wrongToolError is a call that names another tool than the one to call.
type wrongToolError struct {
	named, want string
	err         *constrain.Error
}

func (e *wrongToolError) Error() string {
	return fmt.Sprintf("the call names %s, but the tool to call is %s", e.named, e.want)
}

func (e *wrongToolError) Unwrap() error { return e.err }

// stripFence removes a Markdown code fence around a call.
func stripFence(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "```") {
		return t
	}
	t = strings.TrimPrefix(t, "```")
	if nl := strings.IndexByte(t, '\n'); nl >= 0 {
		t = t[nl+1:]
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "```"))
}

// emitter is one emission by the chat LLM.
type emitter struct {
	tr    *turnRun
	ctx   context.Context
	m     *constrain.Machine
	spec  tools.Spec
	em    *Emission
	query string
	msgs  []llm.Message
	// fatal is a model failure that ends the emission.
	fatal error
}

// guideFor is the strongest server-side constraint the server takes: a
// regular expression (vLLM), a GBNF grammar (llama.cpp), else the JSON
// Schema (OpenAI strict, Ollama, LM Studio, generic servers).
func guideFor(caps llm.Capabilities, m *constrain.Machine) *llm.Guide {
	switch {
	case caps.Regex:
		return &llm.Guide{Regex: m.Regex(constrain.ExportOptions{})}
	case caps.Grammar:
		return &llm.Guide{Grammar: m.GBNF()}
	case caps.JSONSchema:
		return &llm.Guide{Name: "gear_call", JSONSchema: m.JSONSchema(constrain.ExportOptions{})}
	}
	return nil
}

// guided asks once under the server-side guide. The output is still
// validated by the machine: a server may ignore the guide.
func (e *emitter) guided(g llm.Guide) bool {
	msgs := e.msgs
	if len(g.JSONSchema) > 0 {
		msgs = emissionMessages(e.spec, e.query, true)
	}
	res, err := e.tr.a.cfg.Chat.Chat(e.ctx, llm.ChatRequest{Messages: msgs, Guide: &g,
		MaxTokens: e.tr.a.cfg.Limits.EmitTokens, Temperature: llm.Temperature(0)})
	out := res.Content
	if err != nil {
		e.fail(store.EmissionGuided, out, err)
		return false
	}
	var call tools.Call
	var fixes []constrain.Fix
	text := out
	if len(g.JSONSchema) > 0 {
		call, err = e.m.ValidateSchemaOutput(out)
		if err != nil {
			if form, ferr := e.m.SchemaOutputCall(out); ferr == nil {
				text = form
				call, fixes, err = accept(e.m, e.spec, form)
			}
		}
	} else {
		call, fixes, err = accept(e.m, e.spec, out)
	}
	if err != nil {
		e.fail(store.EmissionGuided, out, err)
		return false
	}
	e.em.Attempts = append(e.em.Attempts, Attempt{Path: store.EmissionGuided, Output: out})
	e.em.setAccepted(store.EmissionGuided, text, call, fixes)
	return true
}

// stepped runs client-side ToolDec: one model call per token the machine
// does not force, taking the most probable allowed candidate.
func (e *emitter) stepped(caps llm.Capabilities) bool {
	src := &stepSource{ctx: e.ctx, tokens: e.tr.a.cfg.Chat, m: e.m, msgs: e.msgs, topK: min(20, caps.MaxTopLogprobs)}
	dec, err := e.m.Decode(e.ctx, src, constrain.DecodeOptions{MaxSteps: e.tr.a.cfg.Limits.Steps, MaxBytes: 2048})
	if err != nil {
		var de *constrain.DecodeError
		out := ""
		if errors.As(err, &de) {
			out = de.Prefix
		}
		e.em.Attempts = append(e.em.Attempts, Attempt{Path: store.EmissionStepped, Output: out, Error: err.Error(), Steps: src.calls})
		e.em.Path = store.EmissionStepped
		if de != nil && de.Reason == constrain.SourceFailed && de.Err != nil && !fallible(de.Err) {
			e.fatal = de.Err
		}
		return false
	}
	e.em.Attempts = append(e.em.Attempts, Attempt{Path: store.EmissionStepped, Output: dec.Text, Steps: src.calls})
	e.em.setAccepted(store.EmissionStepped, dec.Text, dec.Call, nil)
	return true
}

// prompted asks without a constraint, validates and repairs; a rejected
// call is sent back with the machine's error, once.
func (e *emitter) prompted() bool {
	msgs := e.msgs
	for try := 0; try < 2; try++ {
		res, err := e.tr.a.cfg.Chat.Chat(e.ctx, llm.ChatRequest{Messages: msgs,
			MaxTokens: e.tr.a.cfg.Limits.EmitTokens, Temperature: llm.Temperature(0)})
		if err != nil {
			e.fail(store.EmissionPrompted, res.Content, err)
			return false
		}
		call, fixes, err := accept(e.m, e.spec, res.Content)
		if err == nil {
			e.em.Attempts = append(e.em.Attempts, Attempt{Path: store.EmissionPrompted, Output: res.Content})
			e.em.setAccepted(store.EmissionPrompted, res.Content, call, fixes)
			return true
		}
		e.fail(store.EmissionPrompted, res.Content, err)
		if e.fatal != nil {
			return false
		}
		msgs = append(append([]llm.Message(nil), msgs...),
			llm.Message{Role: "assistant", Content: clip(res.Content, 2000)},
			llm.Message{Role: "user", Content: "That call was rejected: " + err.Error() +
				". Write only one call of " + e.spec.Name + ", exactly in the form " + e.spec.Signature() + ", nothing else."})
	}
	return false
}

// fail records a failed attempt; a model failure no other path can get
// round ends the emission.
func (e *emitter) fail(path store.Emission, out string, err error) {
	if !fallible(err) && e.fatal == nil {
		e.fatal = err
	}
	e.em.Path, e.em.Original = path, out
	e.em.Attempts = append(e.em.Attempts, Attempt{Path: path, Output: clip(out, 4000), Error: err.Error()})
}

// stepSource is the model as constrain's candidate source: the emission
// prompt with the call so far as the assistant's prefix. Text the machine
// forces (the tool name once begun, "(", a closing quote) costs no call.
type stepSource struct {
	ctx    context.Context
	tokens TokenSource
	m      *constrain.Machine
	msgs   []llm.Message
	topK   int
	calls  int
}

func (s *stepSource) Next(ctx context.Context, prefix string) ([]constrain.Candidate, error) {
	if st, ok := s.m.Advance(s.m.Start(), prefix); ok {
		if forced := s.m.Forced(st); forced != "" {
			return []constrain.Candidate{{Token: forced}}, nil
		}
	}
	s.calls++
	next, err := s.tokens.NextTokens(ctx, llm.NextTokenRequest{Messages: s.msgs, Prefix: prefix, TopK: s.topK})
	if err != nil {
		return nil, err
	}
	out := make([]constrain.Candidate, len(next.Candidates))
	for i, c := range next.Candidates {
		out[i] = constrain.Candidate{Token: c.Token, Logprob: c.Logprob}
	}
	return out, nil
}

// emissionMessages are π of the chosen tool and the query (Algorithm 1,
// line 8), with the output form the path reads.
func emissionMessages(spec tools.Spec, query string, asJSON bool) []llm.Message {
	sys := "You write exactly one call of the tool " + spec.Name + " that answers the user's input. " +
		"Reply with the call only, in the form " + spec.Signature() + " as in the examples: no explanation, no other tool."
	if asJSON {
		sys = "You write exactly one call of the tool " + spec.Name + " that answers the user's input, as JSON: " +
			`{"call": {"tool": "` + spec.Name + `", "args": {...}}}` + ", with the arguments named as in " + spec.Signature() + ". Reply with the JSON only."
	}
	return []llm.Message{{Role: "system", Content: sys}, {Role: "user", Content: grounding.CallPrompt(spec, query)}}
}

// clip shortens s to at most n bytes, on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
