package store

import "strings"

// The closed sets of values a record holds; the schema checks the same
// values (migrations), so a typo is refused on write.

// Mode is how a conversation or a turn is answered.
type Mode string

const (
	ModeChat     Mode = "chat"     // route, ground, run the tool, LLM writes the answer
	ModeDirect   Mode = "direct"   // /GEAR: the tool's response is shown as is
	ModeBaseline Mode = "baseline" // no tools at all: the comparison chatbot
)

// Modes lists the modes in the order the UI offers them.
func Modes() []Mode { return []Mode{ModeChat, ModeDirect, ModeBaseline} }

// ParseMode reads "chat", "direct" or "baseline" (any case, spaces
// around ignored).
func ParseMode(s string) (Mode, bool) {
	for _, m := range Modes() {
		if strings.EqualFold(strings.TrimSpace(s), string(m)) {
			return m, true
		}
	}
	return "", false
}

// Status is where a turn stands.
type Status string

const (
	StatusRunning              Status = "running"
	StatusDone                 Status = "done"
	StatusFailed               Status = "failed"
	StatusCancelled            Status = "cancelled"
	StatusAwaitingConfirmation Status = "awaiting-confirmation"
	// StatusInterrupted is a turn whose process ended before it finished,
	// marked when the history is next opened.
	StatusInterrupted Status = "interrupted"
)

// Route is the routing decision: does the turn need a tool?
type Route string

const (
	RouteUndecided Route = ""
	RouteTool      Route = "tool"
	RouteNone      Route = "none"
)

// RouteMethod is how the routing decision was made: the values of
// grounding.Route.By and agent.Route.By.
type RouteMethod string

const (
	RouteByModel     RouteMethod = "model"     // the chat model was asked
	RouteByThreshold RouteMethod = "threshold" // grounding's probability against the threshold
	RouteByDecisive  RouteMethod = "decisive"  // grounding was sure enough that the model was not asked
	RouteByMode      RouteMethod = "mode"      // direct mode always uses a tool
	RouteByUser      RouteMethod = "user"      // the user named the tool (a tool switch) or typed the call
	// RouteByCaller is grounding's answer when its caller already knew a
	// tool is needed; the agent records who knew (RouteByUser or
	// RouteByMode) instead, so it is never stored.
	RouteByCaller RouteMethod = "caller"
)

// Chooser says who chose a turn's tool.
type Chooser string

const (
	ChosenByGrounding Chooser = "grounding" // GEAR's choice (in direct mode, its best even when unsure)
	ChosenByUser      Chooser = "user"      // a tool switch (/use, "use wiki instead") or a pick at the confirmation
	ChosenByCall      Chooser = "call"      // the user typed the call (/GEAR Name(args))
)

// Answerer says who wrote a turn's answer.
type Answerer string

const (
	AnsweredByModel Answerer = "model" // the chat model
	AnsweredByTool  Answerer = "tool"  // the tool's response, shown as is
	AnsweredByGear  Answerer = "gear"  // a message of gear's own (no chat model, or no valid call)
)

// Emission is how the tool call was produced.
type Emission string

const (
	EmissionGuided   Emission = "guided"   // server-side guided decoding under the exported grammar
	EmissionStepped  Emission = "stepped"  // client-side ToolDec stepping over top log-probabilities
	EmissionPrompted Emission = "prompted" // prompted, then validated by the machine
	EmissionRepaired Emission = "repaired" // prompted, rejected, repaired within the machine
	EmissionExact    Emission = "exact"    // the user typed the call (/GEAR Name(args))
	EmissionOffline  Emission = "offline"  // the offline engine's rule-based extraction
	// EmissionGrounding is the call grounding's small model wrote for the
	// chosen tool (q_i), accepted by the machine and run without asking
	// the chat model again.
	EmissionGrounding Emission = "grounding"
)

// ModelRole is one of the three model roles.
type ModelRole string

const (
	RoleChat      ModelRole = "chat"
	RoleGrounding ModelRole = "grounding"
	RoleEmbedding ModelRole = "embedding"
)

// MessageRole says who wrote a message.
type MessageRole string

const (
	MessageUser      MessageRole = "user"
	MessageAssistant MessageRole = "assistant"
)

// ResponseKind is where a grounding probe's response came from.
type ResponseKind string

const (
	ResponseReal    ResponseKind = "real"    // the tool ran
	ResponseMock    ResponseKind = "mock"    // the tool's mock response (GEAR Appendix A.3)
	ResponseTimeout ResponseKind = "timeout" // the probe ran out of time: empty â_i
	ResponseError   ResponseKind = "error"   // the probe failed: empty â_i
	ResponseEmpty   ResponseKind = "empty"   // the SLM's call did not parse: empty â_i
	// ResponseCut is a tool outside grounding's shortlist: it was not
	// called, and its f is γS.
	ResponseCut ResponseKind = "cut"
)

// CallCheck is what the ToolDec machine made of an emitted call.
type CallCheck string

const (
	CallValidated CallCheck = "validated" // accepted as emitted
	CallRepaired  CallCheck = "repaired"  // rejected, repaired within the machine, then accepted
	CallRejected  CallCheck = "rejected"  // rejected and never run
)

// Engine names an engine in RoleModel.Engine when no endpoint is used.
const EngineOffline = "offline"
