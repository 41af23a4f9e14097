package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gear-chat/gear/constrain"
	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// Agent runs turns against one tool library with one set of engines. It is
// safe for concurrent use; turns of different conversations may run at once.
type Agent struct {
	cfg      Config
	reg      *tools.Registry
	specs    []tools.Spec
	library  *constrain.Machine
	machines map[string]*constrain.Machine // one per tool: emission for the chosen tool only
	grounder *grounding.Grounder
	now      func() time.Time

	noticeOnce sync.Once

	allowMu sync.Mutex
	allowed map[string]bool // tools Allow let run without asking
}

// Defaults of Limits.
const (
	DefaultGroundLimit  = 60 * time.Second
	DefaultEmitLimit    = 60 * time.Second
	DefaultToolLimit    = 30 * time.Second
	DefaultAnswerLimit  = 2 * time.Minute
	DefaultEmitTokens   = 256
	DefaultAnswerBytes  = 32 << 10
	DefaultDecodeSteps  = 128
	defaultConfirmBelow = 0.5
)

// New makes an agent. It builds the ToolDec machines for the library and the
// grounder; a library the machine cannot express is an error.
func New(cfg Config) (*Agent, error) {
	if cfg.Tools == nil || cfg.Tools.Len() == 0 {
		return nil, errors.New("agent: no tools")
	}
	if cfg.ConfirmBelow < 0 || cfg.ConfirmBelow > 1 {
		return nil, fmt.Errorf("agent: confirm_below %v not in [0, 1]", cfg.ConfirmBelow)
	}
	for _, t := range []struct {
		name string
		v    float64
	}{{"confirm_call_below", cfg.ConfirmCallBelow}, {"offer_tools_below", cfg.OfferToolsBelow}} {
		if t.v < 0 || t.v > 1 || t.v != t.v {
			return nil, fmt.Errorf("agent: %s %v not in [0, 1]", t.name, t.v)
		}
	}
	if cfg.ContextTokens < 0 {
		return nil, fmt.Errorf("agent: context_tokens %d is negative", cfg.ContextTokens)
	}
	reuse, ok := ParseReuseCall(string(cfg.ReuseGroundingCall))
	if !ok {
		return nil, fmt.Errorf("agent: reuse_grounding_call %q (want auto, always or never)", cfg.ReuseGroundingCall)
	}
	cfg.ReuseGroundingCall = reuse
	cfg.Limits = cfg.Limits.withDefaults()
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	lib, err := constrain.FromRegistry(cfg.Tools)
	if err != nil {
		return nil, fmt.Errorf("agent: tool machine: %w", err)
	}
	a := &Agent{cfg: cfg, reg: cfg.Tools, specs: cfg.Tools.Specs(), library: lib,
		machines: map[string]*constrain.Machine{}, now: cfg.Now}
	for _, s := range a.specs {
		m, err := constrain.New(s)
		if err != nil {
			return nil, fmt.Errorf("agent: machine for %s: %w", s.Name, err)
		}
		a.machines[s.Name] = m
	}
	// Routing's yes/no goes to the chat LLM when there is one; grounding
	// starts it with its own requests (see grounding.Options.Route).
	eng := cfg.Grounding
	if cfg.Chat != nil {
		eng.Router = cfg.Chat
	}
	g, err := grounding.New(cfg.Tools, eng, cfg.GroundingOptions)
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	a.grounder = g
	return a, nil
}

func (l Limits) withDefaults() Limits {
	set := func(d *time.Duration, def time.Duration) {
		if *d <= 0 {
			*d = def
		}
	}
	set(&l.Ground, DefaultGroundLimit)
	set(&l.Emit, DefaultEmitLimit)
	set(&l.Tool, DefaultToolLimit)
	set(&l.Answer, DefaultAnswerLimit)
	if l.EmitTokens <= 0 {
		l.EmitTokens = DefaultEmitTokens
	}
	if l.AnswerBytes <= 0 {
		l.AnswerBytes = DefaultAnswerBytes
	}
	if l.Steps <= 0 {
		l.Steps = DefaultDecodeSteps
	}
	return l
}

// Start begins a turn and returns at once; the turn runs until its final
// event, or until ctx ends or Turn.Cancel is called.
func (a *Agent) Start(ctx context.Context, req Request) *Turn {
	ctx, cancel := context.WithCancel(ctx)
	t := newTurn(cancel)
	go a.run(ctx, t, req)
	return t
}

// Prepare computes the tool embeddings grounding needs, so the first turn
// does not wait for them.
func (a *Agent) Prepare(ctx context.Context) error { return a.grounder.Prepare(ctx) }

// Parse reads a line the user typed against this agent's library (see
// ParseInput).
func (a *Agent) Parse(text string, mode store.Mode) Input {
	return ParseInput(text, mode, a.reg.Names())
}

// Specs are the library's tools in registration order (for /tools).
func (a *Agent) Specs() []tools.Spec { return a.reg.Specs() }

// Engines says what serves each model role.
func (a *Agent) Engines() Engines { return a.cfg.Engines }

// HasChatModel reports whether a chat LLM is configured; without one chat
// turns show tool responses as is and cannot converse.
func (a *Agent) HasChatModel() bool { return a.cfg.Chat != nil }

// ConfirmBelow is the confidence under which a tool run is confirmed.
func (a *Agent) ConfirmBelow() float64 { return a.cfg.ConfirmBelow }

// Completion is one way the call being typed can go on.
type Completion struct {
	Tool string // the tool the completed text calls
	Text string // what to append to what was typed
}

// Complete lists how a call being typed after "/GEAR " can go on, from the
// ToolDec machine: tool names while the name is typed, then the text the
// machine forces.
func (a *Agent) Complete(prefix string) []Completion {
	cs := a.library.Complete(prefix)
	out := make([]Completion, len(cs))
	for i, c := range cs {
		out[i] = Completion{Tool: c.Tool, Text: c.Text}
	}
	return out
}

// ResolveTool turns what the user called a tool — its name (any case), its
// family, or one of its hints' aliases ("wiki", "calculator", "clock") — into the
// library's tools of that name or family, in registration order. An unknown
// name is an error listing the tools.
func (a *Agent) ResolveTool(name string) ([]string, error) {
	key := strings.ToLower(strings.TrimSpace(strings.Trim(strings.TrimSpace(name), `"'.!?`)))
	key = strings.TrimSuffix(key, " tool")
	for _, s := range a.specs {
		if strings.EqualFold(s.Name, key) {
			return []string{s.Name}, nil
		}
	}
	fam := tools.Family(key)
	for _, s := range a.specs {
		if slices.Contains(s.Hints.Aliases, key) {
			fam = s.Family // a word the tool's hints say people call it by
			break
		}
	}
	var out []string
	for _, s := range a.specs {
		if s.Family == fam {
			out = append(out, s.Name)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	names := a.reg.Names()
	sort.Strings(names)
	return nil, fmt.Errorf("no tool called %q; the tools are %s", sanitizeLine(name), strings.Join(names, ", "))
}
