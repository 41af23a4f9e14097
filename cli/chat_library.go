package cli

import (
	"context"
	"sync"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/mcp"
	"github.com/gear-chat/gear/ui"
)

// liveAgent is the chat's agent while MCP servers connect and change in
// the background: it starts with the built-in tools (and whatever server
// is already ready), and each change of a server — connected, failed, its
// tools/list_changed — builds the agent again for the new library (the
// ToolDec machines and the grounder with it), so the chat never waits for
// a server and never needs a restart. A turn keeps the agent it started
// with.
type liveAgent struct {
	build func(ext []tools.Tool) (*agent.Agent, error)
	mgr   *mcp.Manager
	ctx   context.Context

	mu      sync.Mutex
	cur     *agent.Agent
	version uint64          // the servers' change the current agent reflects
	err     string          // why the last library could not be built
	allowed map[string]bool // "always allow" answers of this session
	changed chan struct{}
	rebuild sync.Mutex // one rebuild at a time
	// stale makes the next refresh build the agent again though no
	// server changed (a model server failed its check).
	stale bool
}

// invalidate makes the next refresh build the agent again.
func (l *liveAgent) invalidate() {
	l.mu.Lock()
	l.stale = true
	l.mu.Unlock()
}

func (l *liveAgent) current() *agent.Agent {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cur
}

func (l *liveAgent) Start(ctx context.Context, req agent.Request) ui.Turn {
	return l.current().Start(ctx, req)
}
func (l *liveAgent) Prepare(ctx context.Context) error { return l.current().Prepare(ctx) }
func (l *liveAgent) Parse(text string, mode store.Mode) agent.Input {
	return l.current().Parse(text, mode)
}
func (l *liveAgent) Specs() []tools.Spec                  { return l.current().Specs() }
func (l *liveAgent) Engines() agent.Engines               { return l.current().Engines() }
func (l *liveAgent) Complete(p string) []agent.Completion { return l.current().Complete(p) }

// allow lets tool run without asking in this agent and every later one.
func (l *liveAgent) allow(tool string) {
	l.mu.Lock()
	l.allowed[tool] = true
	cur := l.cur
	l.mu.Unlock()
	cur.Allow(tool)
}

func (l *liveAgent) isAllowed(tool string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.allowed[tool]
}

// refresh builds the agent for the servers' tools now; a library that
// cannot be built keeps the previous agent, and /tools says why.
func (l *liveAgent) refresh() {
	l.rebuild.Lock()
	defer l.rebuild.Unlock()
	if l.ctx.Err() != nil {
		return // the chat is closing
	}
	ext, version := l.mgr.Snapshot()
	l.mu.Lock()
	current := l.cur != nil && version <= l.version && !l.stale
	l.mu.Unlock()
	if current {
		return
	}
	ag, err := l.build(ext)
	l.mu.Lock()
	if err != nil {
		l.err = oneLine(err.Error())
	} else {
		l.cur, l.version, l.err, l.stale = ag, version, "", false
	}
	l.mu.Unlock()
	if err == nil {
		// The embeddings of new tools, before the next turn needs them.
		go func() { _ = ag.Prepare(l.ctx) }()
	}
	select {
	case l.changed <- struct{}{}:
	default:
	}
}

// Changed and Servers make liveAgent the chat's ui.Library.
func (l *liveAgent) Changed() <-chan struct{} { return l.changed }

func (l *liveAgent) Servers() []ui.ServerState {
	sts := l.mgr.Statuses()
	out := make([]ui.ServerState, 0, len(sts)+1)
	for _, s := range sts {
		st := ui.ServerState{Name: s.Server, State: string(s.State), Tools: s.Tools, Detail: s.Error}
		out = append(out, st)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != "" {
		out = append(out, ui.ServerState{Name: "library", State: "failed", Detail: l.err})
	}
	return out
}

// chatAgent is the chat's agent: with MCP servers, a liveAgent that does
// not wait for them; without, the agent itself. reduce is the agent to
// use once the model servers' check finds one down (see checkedAgent):
// one built without what cannot serve.
func (a *app) chatAgent(ctx context.Context, st *store.Store) (ag ui.Agent, lib ui.Library, allow func(string) error, reduce func() (ui.Agent, error), err error) {
	mgr, err := a.mcpManager(ctx)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	// "Always allow" is written to the config file the run read.
	remember := func(tool string) error {
		path, _ := config.FilePath(a.configPath, a.deps.Getenv)
		return config.AllowTool(path, tool)
	}
	if mgr == nil {
		ag, err := a.newAgent(ctx, st)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		// "Always allow" answered in this session holds for the agent
		// the server check may replace it with, too.
		var mu sync.Mutex
		session := map[string]bool{}
		allowed := func(tool string) bool {
			mu.Lock()
			defer mu.Unlock()
			return a.cfg.Agent.Allowed(tool) || session[tool]
		}
		reduce := func() (ui.Agent, error) {
			_, chatDown, err := a.checkServers(ctx)
			if err != nil {
				return nil, err
			}
			reg, err := a.registry()
			if err != nil {
				return nil, err
			}
			reduced, err := a.agentFor(ctx, st, reg, allowed, chatDown)
			if err != nil {
				return nil, err
			}
			return ui.FromAgent(reduced), nil
		}
		allow := func(tool string) error {
			ag.Allow(tool)
			mu.Lock()
			session[tool] = true
			mu.Unlock()
			return remember(tool)
		}
		return ui.FromAgent(ag), nil, allow, reduce, nil
	}
	l := &liveAgent{mgr: mgr, ctx: ctx, allowed: map[string]bool{}, changed: make(chan struct{}, 1)}
	allowed := func(tool string) bool { return a.cfg.Agent.Allowed(tool) || l.isAllowed(tool) }
	l.build = func(ext []tools.Tool) (*agent.Agent, error) {
		reg, err := a.library(ext)
		if err != nil {
			return nil, err
		}
		return a.agentFor(ctx, st, reg, allowed, a.chatDownNow())
	}
	ext, version := mgr.Snapshot()
	first, err := l.build(ext)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	l.cur, l.version = first, version
	a.mcpMu.Lock()
	a.onMCPChange = l.refresh
	a.mcpMu.Unlock()
	// A server that changed between the first build and now: refresh
	// returns at once when nothing did.
	go l.refresh()
	// Once a model server fails its check, the live agent is built again
	// without it, and every later build (a server's change) leaves it out.
	reduce = func() (ui.Agent, error) {
		if _, _, err := a.checkServers(ctx); err != nil {
			return nil, err
		}
		l.invalidate()
		l.refresh()
		return l, nil
	}
	return l, l, func(tool string) error { l.allow(tool); return remember(tool) }, reduce, nil
}
