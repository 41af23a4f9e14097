package cli

import (
	"context"

	"github.com/gear-chat/gear/agent"
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
	return ui.Run(ctx, opts, ui.Terminal{In: a.deps.Stdin, Out: a.deps.Stdout, OpenTTY: !stdinIsTerminal(a.deps.Stdin)})
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
	ag, lib, allow, err := a.chatAgent(ctx, st)
	if err != nil {
		return ui.Options{}, err
	}
	return ui.Options{Agent: ag, Library: lib, AllowTool: allow, History: st, Survey: a.surveyOpener(st), Mode: agent.Mode(survey.ModeFor(study.Phase)),
		StudyPhase: study.Phase, Resume: true, Now: a.deps.Now, Images: a.imageCaps(ctx)}, nil
}
