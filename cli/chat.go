package cli

import (
	"context"
	"sync"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
	"github.com/gear-chat/gear/ui"
)

// chat opens the chat window: bare gear on a terminal. The history is
// opened and the agent wired as for gear ask; the last conversation is
// shown again.
func (a *app) chat(ctx context.Context) error {
	st, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	opts, err := a.chatOptions(ctx, st)
	if err != nil {
		return err
	}
	return ui.Run(ctx, opts, ui.Terminal{In: a.deps.Stdin, Out: a.deps.Stdout, OpenTTY: !a.deps.StdinIsTerminal, DarkBackground: a.deps.DarkBackground})
}

// chatOptions are the chat's dependencies from the configuration. A study
// in its baseline phase makes baseline the chat's mode (/mode changes it
// for the session), and the status line names the phase.
func (a *app) chatOptions(ctx context.Context, st *store.Store) (ui.Options, error) {
	study, err := survey.Current(ctx, st)
	if err != nil {
		return ui.Options{}, err
	}
	// The chat never waits for an MCP server: their tools join the
	// library as they connect (chatAgent).
	ag, lib, allow, reduce, err := a.chatAgent(ctx, st)
	if err != nil {
		return ui.Options{}, err
	}
	opts := ui.Options{Agent: ag, Library: lib, AllowTool: allow, History: st, Survey: a.surveyOpener(st), Mode: store.Mode(survey.ModeFor(study.Phase)),
		StudyPhase: study.Phase, Resume: true, Resumable: chatResumable(ctx, st), Now: a.deps.Now, Images: a.imageCaps(ctx)}
	servers, err := a.serverChecks()
	if err != nil {
		return ui.Options{}, err
	}
	if len(servers.roles) == 0 {
		return opts, nil
	}
	// The servers are checked in the background once the window is up; a
	// chat model that cannot answer leaves the turns to an agent without
	// it, so the tools still answer.
	opts.Check = func(ctx context.Context) (notes, warnings []string) {
		if msg := a.announceEnvironment(ctx, st); msg != "" {
			notes = append(notes, msg)
		}
		warnings, _, _ = a.checkServers(ctx)
		return notes, warnings
	}
	opts.Agent = &checkedAgent{Agent: opts.Agent, servers: servers, fallback: reduce}
	return opts, nil
}

// checkedAgent starts each turn on the agent built for the servers while
// they answer; once the check finds one down, on an agent built for what
// is left (the offline engine for grounding, no chat model), made once.
// Turns then name the engine that served them.
type checkedAgent struct {
	ui.Agent
	servers  *serverCheck
	fallback func() (ui.Agent, error)

	mu      sync.Mutex
	reduced ui.Agent
}

// Engines names what serves each role: offline for a role whose server
// failed the check.
func (c *checkedAgent) Engines() agent.Engines {
	e := c.Agent.Engines()
	if !c.servers.checked() {
		return e
	}
	off := store.RoleModel{Engine: store.EngineOffline, Model: store.EngineOffline}
	down := c.servers.check(context.Background())
	for role, rm := range map[llm.Role]*store.RoleModel{llm.RoleChat: &e.Chat, llm.RoleGrounding: &e.Grounding, llm.RoleEmbedding: &e.Embedding} {
		if down[role] != nil {
			*rm = off
		}
	}
	if down[llm.RoleGrounding] != nil || down[llm.RoleEmbedding] != nil {
		// The offline engine grounds with its own encoder.
		e.Grounding, e.Embedding = off, off
	}
	return e
}

func (c *checkedAgent) Start(ctx context.Context, req agent.Request) ui.Turn {
	if len(c.servers.check(ctx)) == 0 {
		return c.Agent.Start(ctx, req)
	}
	c.mu.Lock()
	if c.reduced == nil {
		if ag, err := c.fallback(); err == nil {
			c.reduced = ag
		}
	}
	reduced := c.reduced
	c.mu.Unlock()
	if reduced == nil {
		return c.Agent.Start(ctx, req)
	}
	return reduced.Start(ctx, req)
}
