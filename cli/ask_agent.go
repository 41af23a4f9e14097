package cli

import (
	"context"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// newAgent wires the agent from the configuration: the tool library, the
// chat LLM (none when its role is offline: llm.Resolve says so, or
// --offline), GEAR's engine as `gear ground` builds it (model or offline),
// and the history (st may be nil: nothing recorded).
func (a *app) newAgent(ctx context.Context, st *store.Store) (*agent.Agent, error) {
	return a.buildAgent(ctx, st, nil)
}

// buildAgent is newAgent; a non-nil chatDown leaves the chat model out
// (its server cannot serve), so the tools answer on their own.
func (a *app) buildAgent(ctx context.Context, st *store.Store, chatDown error) (*agent.Agent, error) {
	reg, err := a.registry()
	if err != nil {
		return nil, err
	}
	return a.agentFor(ctx, st, reg, a.cfg.Agent.Allowed, chatDown)
}

// agentFor wires the agent for the tool library reg; allowed says which
// tools that are not read-only run without asking; a non-nil chatDown
// leaves the chat model out.
func (a *app) agentFor(ctx context.Context, st *store.Store, reg *tools.Registry, allowed func(string) bool, chatDown error) (*agent.Agent, error) {
	cfg := a.cfg
	eng := agent.Engines{}
	for _, role := range llm.Roles() {
		ep := llm.Resolve(cfg, role)
		rm := store.RoleModel{Engine: store.EngineOffline, Model: store.EngineOffline}
		// A role whose server failed the check is served offline.
		if !ep.Offline && !a.roleDown(role) {
			rm = store.RoleModel{Engine: string(ep.Server), Model: ep.Model}
		}
		switch role {
		case llm.RoleChat:
			eng.Chat = rm
		case llm.RoleGrounding:
			eng.Grounding = rm
		case llm.RoleEmbedding:
			eng.Embedding = rm
		}
	}

	ge, _, err := a.groundingEngine(ctx, reg.Specs())
	if err != nil {
		return nil, err
	}
	gopts := a.groundingOptions()
	if st != nil {
		gopts.Cache = a.groundingCache(st)
	}
	chatEP, slmEP := llm.Resolve(cfg, llm.RoleChat), llm.Resolve(cfg, llm.RoleGrounding)
	ac := agent.Config{Tools: reg, Grounding: ge, GroundingOptions: gopts, Engines: eng,
		ConfirmBelow: cfg.Agent.ConfirmBelow, ConfirmCallBelow: cfg.Agent.ConfirmCallBelow, OfferToolsBelow: cfg.Agent.OfferToolsBelow,
		ContextTokens: cfg.Agent.ContextTokens, Allowed: allowed,
		ReuseGroundingCall: agent.ReuseCall(cfg.Agent.ReuseGroundingCall),
		SmallModelIsChat: !chatEP.Offline && !slmEP.Offline && ge.Name == grounding.EngineModel &&
			chatEP.BaseURL == slmEP.BaseURL && chatEP.Model == slmEP.Model}
	if st != nil {
		ac.Recorder = st
	}
	chat, err := a.llmClient(llm.RoleChat)
	if err != nil {
		return nil, err
	}
	switch {
	case chat != nil && chatDown != nil:
		ac.ChatUnavailable = "its server did not answer gear's check at start"
		eng.Chat = store.RoleModel{Engine: store.EngineOffline, Model: store.EngineOffline}
		ac.Engines = eng
	case chat != nil:
		ac.Chat = agent.ChatClient(chat)
	default:
		ac.ChatUnavailable = llm.Resolve(cfg, llm.RoleChat).OfflineReason
	}
	return agent.New(ac)
}

// llmClient is the role's client, nil when the role is offline. It is
// made once per invocation, so the agent and grounding share one client
// per role — and one probe of its server.
func (a *app) llmClient(role llm.Role) (*llm.Client, error) {
	if c, ok := a.clients[role]; ok {
		return c, nil
	}
	ep := llm.Resolve(a.cfg, role)
	if ep.Offline {
		return nil, nil
	}
	hc := a.deps.HTTP
	if a.transports != nil && (hc == nil || hc.Transport == nil) {
		// One keep-alive transport per endpoint, shared by the roles it
		// serves: Go's default keeps 2 idle connections a host, too few
		// for grounding's concurrent requests.
		hc = a.transports.For(ep.BaseURL)
	}
	c, err := llm.New(ep, llm.WithHTTPClient(hc))
	if err != nil {
		return nil, err
	}
	a.clients[role] = c
	return c, nil
}

// checkServers pings the model servers (once per invocation) and returns
// a line for each that cannot serve, and why the chat model cannot (nil
// when it can, or when there is none).
func (a *app) checkServers(ctx context.Context) (warnings []string, chatDown error, err error) {
	servers, err := a.serverChecks()
	if err != nil {
		return nil, nil, err
	}
	down := servers.check(ctx)
	return fallbackWarnings(down), down[llm.RoleChat], nil
}

// chatDownNow is why the chat model's server failed the check, or nil
// while the check has not run (it never waits for it).
func (a *app) chatDownNow() error {
	c := a.serversMade()
	if c == nil || !c.checked() {
		return nil
	}
	return c.check(context.Background())[llm.RoleChat]
}

// serversMade is the server check if serverChecks has made it, else nil.
func (a *app) serversMade() *serverCheck {
	a.serversMu.Lock()
	defer a.serversMu.Unlock()
	return a.servers
}

// roleDown reports whether the check, if it ran, found the role's server
// unable to serve.
func (a *app) roleDown(role llm.Role) bool {
	c := a.serversMade()
	if c == nil || !c.checked() {
		return false
	}
	return c.check(context.Background())[role] != nil
}
