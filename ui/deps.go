package ui

import (
	"context"
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/ui/termimg"
)

// Agent is what the chat asks of the agent. FromAgent adapts an
// *agent.Agent; tests script their own.
type Agent interface {
	// Start begins a turn and returns at once.
	Start(ctx context.Context, req agent.Request) Turn
	// Prepare computes what grounding needs before the first turn.
	Prepare(ctx context.Context) error
	Parse(text string, mode store.Mode) agent.Input
	Specs() []tools.Spec
	Engines() agent.Engines
	// Complete lists how a call typed after "/GEAR " can go on.
	Complete(prefix string) []agent.Completion
}

// Turn is a running turn, pulled one event at a time from a tea.Cmd.
type Turn interface {
	// Next waits for the next event; false after the final one.
	Next() (agent.Event, bool)
	Confirm(tool string) error
	Cancel()
}

// FromAgent adapts the agent to the chat.
func FromAgent(a *agent.Agent) Agent { return agentAdapter{a} }

type agentAdapter struct{ *agent.Agent }

func (a agentAdapter) Start(ctx context.Context, req agent.Request) Turn {
	return a.Agent.Start(ctx, req)
}

// History is the part of the store the chat reads and rates with;
// *store.Store provides it. The agent records the turns themselves.
type History interface {
	Path() string
	Conversations(ctx context.Context, limit int) ([]store.Conversation, error)
	Conversation(ctx context.Context, id int64) (store.Conversation, error)
	Turns(ctx context.Context, conversationID int64) ([]store.Turn, error)
	Search(ctx context.Context, q store.Query, limit int) ([]store.Hit, error)
	Rate(ctx context.Context, r store.Rating) error
}

// SurveyForm is the questionnaire /survey shows in place of the chat. The
// survey package builds it (a huh form fits); the chat knows it only
// through this interface. While it is open the chat forwards every message
// to it, and closes it once Done reports true. Its commands must not quit
// the program.
type SurveyForm interface {
	tea.Model
	// Done reports that the form is finished — saved or abandoned — with
	// one line for the conversation ("Thank you: your answers are saved.").
	Done() (summary string, done bool)
}

// SurveyOpener builds the form for the given size. It may read the store
// (a response to resume), so the chat calls it from a tea.Cmd.
type SurveyOpener func(ctx context.Context, width, height int) (SurveyForm, error)

// Options are the chat's dependencies and settings.
type Options struct {
	Agent Agent
	// History is the conversation store; nil keeps nothing (no /history,
	// no ratings, no resume).
	History History
	// Survey opens the questionnaire; nil means /survey says it is not
	// available.
	Survey SurveyOpener
	// Library reports the MCP servers connecting and changing in the
	// background; nil when there are none.
	Library Library
	// AllowTool remembers "always allow this tool" for a tool that is not
	// read-only (in the config, and for the agent); nil means the gate
	// offers only once or not.
	AllowTool func(tool string) error
	// Mode is the mode of a line typed without a prefix (default chat).
	Mode store.Mode
	// StudyPhase is the study phase this installation is in ("baseline",
	// "gear"), shown on the status line; empty when no study runs.
	StudyPhase string
	// Resume reopens the most recent conversation on start; Resumable,
	// when set, says which may be reopened (gear ask's one-shots are not).
	Resume    bool
	Resumable func(store.Conversation) bool
	// Renderer fixes the colour profile and background (tests use
	// termenv.Ascii); nil means lipgloss's renderer for standard output.
	Renderer *lipgloss.Renderer
	// NoColor draws without colours but with bold and reverse (NO_COLOR;
	// Run sets it from the environment).
	NoColor bool
	// Now is the clock (fixed in tests); nil means time.Now.
	Now func() time.Time
	// Location is the time zone dates are shown in; nil means time.Local.
	Location *time.Location
	// Images says how the terminal shows images (termimg.Detect, before
	// the program starts); the zero value shows saved images' paths.
	Images termimg.Caps
	// Graphics is the terminal the kitty protocol's image data is written
	// to, beside Bubble Tea's renderer (images.go); Run sets it to the
	// terminal's output when Images is the kitty protocol. nil: images
	// show as a half-block preview.
	Graphics io.Writer
	// Check, when set, runs once in the background at start (a quick
	// check of the model servers): each note it returns is shown once as
	// a remark, each warning once as something wrong.
	Check func(ctx context.Context) (notes, warnings []string)
}
