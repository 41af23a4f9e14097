package agent

import "github.com/gear-chat/gear/store"

// Event is something a turn did, in order. Every event's text is already
// sanitised for the terminal. A turn's last event is exactly one of Done,
// Failed or Cancelled.
type Event interface{ isEvent() }

// Started is the first event: the turn is recorded (the user's text is
// committed before any model call) and running.
type Started struct {
	ConversationID int64
	TurnID         int64
	Mode           store.Mode
	// Query is what will be grounded and answered.
	Query string
}

// Notice is something the user should know once, not an error: "no chat
// model is configured ...".
type Notice struct{ Text string }

// Stage names what a turn is doing, for a spinner.
type Stage string

// The stages, in order.
const (
	StageGrounding Stage = "grounding" // routing and GEAR over Progress.Tools tools
	StageEmitting  Stage = "emitting"  // the chat LLM writes Progress.Tool's call
	StageCalling   Stage = "calling"   // Progress.Tool runs
	StageAnswering Stage = "answering" // the answer is being written
)

// Progress says a stage began: "grounding 4 tools", "calling Forecast",
// "writing answer".
type Progress struct {
	Stage Stage
	Tool  string
	Tools int
}

// Routed is the "needs a tool?" decision.
type Routed struct{ Route Route }

// Grounded is GEAR's table: every tool's S, P, F and probability, and the
// choice with its confidence.
type Grounded struct{ Grounding Grounding }

// ConfirmationNeeded asks the caller to pick (see Confirmation.Kind):
// grounding's confidence is below Config.ConfirmBelow, the call's below
// Config.ConfirmCallBelow, an unsure "no tool" is offered the closest
// tools, or a tool that is not read-only is about to run. The turn waits
// until Turn.Confirm (a candidate's tool, or NoTool: no tool, or do not
// run) or Turn.Cancel.
type ConfirmationNeeded struct{ Confirmation Confirmation }

// CallEmitted is the call produced under the machine, with its path and
// any repair; when Emission.Rejected nothing will run.
type CallEmitted struct{ Emission Emission }

// ToolStarted says the tool began running.
type ToolStarted struct {
	Tool string
	Call string
}

// ToolResult is the tool's response or its failure.
type ToolResult struct{ Run ToolRun }

// AnswerDelta is the next piece of the answer as it streams. Concatenated,
// the deltas are Record.Answer.
type AnswerDelta struct{ Text string }

// Done ends a turn that answered.
type Done struct{ Record Record }

// Failed ends a turn that could not answer; Err is one line for the user.
type Failed struct {
	Err    error
	Record Record
}

// Cancelled ends a turn stopped by Turn.Cancel or its context.
type Cancelled struct{ Record Record }

func (Started) isEvent()            {}
func (Notice) isEvent()             {}
func (Progress) isEvent()           {}
func (Routed) isEvent()             {}
func (Grounded) isEvent()           {}
func (ConfirmationNeeded) isEvent() {}
func (CallEmitted) isEvent()        {}
func (ToolStarted) isEvent()        {}
func (ToolResult) isEvent()         {}
func (AnswerDelta) isEvent()        {}
func (Done) isEvent()               {}
func (Failed) isEvent()             {}
func (Cancelled) isEvent()          {}
