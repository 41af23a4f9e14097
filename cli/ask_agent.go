package cli

import (
	"context"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// newAgent wires the agent from the configuration: the tool library, the
// chat LLM (none when its role is offline: llm.Resolve says so, or
// --offline), GEAR's engine as `gear ground` builds it (model or offline),
// and the history (st may be nil: nothing recorded).
func (a *app) newAgent(ctx context.Context, st *store.Store) (*agent.Agent, error) {
	reg, err := a.registry()
	if err != nil {
		return nil, err
	}
	return a.agentFor(ctx, st, reg, a.cfg.Agent.Allowed)
}

// agentFor wires the agent for the tool library reg; allowed says which
// tools that are not read-only run without asking.
func (a *app) agentFor(ctx context.Context, st *store.Store, reg *tools.Registry, allowed func(string) bool) (*agent.Agent, error) {
	cfg := a.cfg
	eng := agent.Engines{}
	for _, role := range llm.Roles() {
		ep := llm.Resolve(cfg, role)
		rm := store.RoleModel{Engine: store.EngineOffline, Model: store.EngineOffline}
		if !ep.Offline {
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
		gopts.Cache = st
	}
	ac := agent.Config{Tools: reg, Grounding: ge, GroundingOptions: gopts, Engines: eng,
		ConfirmBelow: cfg.Agent.ConfirmBelow, ContextTokens: cfg.Agent.ContextTokens, Allowed: allowed}
	if st != nil {
		ac.Recorder = st
	}
	chat, err := a.llmClient(llm.RoleChat)
	if err != nil {
		return nil, err
	}
	if chat != nil {
		ac.Chat = agent.ChatClient(chat)
	} else {
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
	c, err := llm.New(ep, llm.WithHTTPClient(a.deps.HTTP))
	if err != nil {
		return nil, err
	}
	a.clients[role] = c
	return c, nil
}
