package agent

import (
	"strings"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// NoTool is the answer to ConfirmationNeeded that runs no tool: the turn is
// answered without one (Esc in the TUI).
const NoTool = grounding.None

// Request is one turn to run.
type Request struct {
	// Conversation is the recorded conversation the turn belongs to; 0
	// makes a new one (when there is a Recorder). Record.ConversationID
	// says which was used.
	Conversation int64
	// Text is what the user typed: a query, "/GEAR <query>",
	// "/GEAR ToolName(args)", "@TallChatBot <query>", "/use TOOL" or
	// "use wiki instead" (see ParseInput). Other slash commands are the
	// UI's and fail the turn.
	Text string
	// Mode is the mode for text with no mode prefix (the UI's /mode);
	// empty means chat.
	Mode store.Mode
	// Tool, when set, is the tool to use for Text's query instead of
	// grounding's choice (a name, a family or an alias such as "wiki"), as
	// "/use" does; grounding still runs for the record.
	Tool string
	// Yes answers the gate's questions with yes, without asking: it runs
	// the top candidate when grounding's confidence is below
	// Config.ConfirmBelow, and a call whose call confidence is below
	// Config.ConfirmCallBelow (gear ask --yes).
	Yes bool
}

// ReuseCall says when grounding's call of the chosen tool is run in chat
// mode instead of a call the chat model writes.
type ReuseCall string

const (
	// ReuseAuto reuses it when the small model is the chat model: asking
	// the same model the same question again costs a round trip and
	// gives the same call.
	ReuseAuto ReuseCall = "auto"
	// ReuseAlways reuses it whatever wrote it (a smaller model, or the
	// offline engine's extraction).
	ReuseAlways ReuseCall = "always"
	// ReuseNever always has the chat model write the call.
	ReuseNever ReuseCall = "never"
)

// ParseReuseCall reads auto, always or never; empty is auto.
func ParseReuseCall(s string) (ReuseCall, bool) {
	switch r := ReuseCall(strings.ToLower(strings.TrimSpace(s))); r {
	case "":
		return ReuseAuto, true
	case ReuseAuto, ReuseAlways, ReuseNever:
		return r, true
	}
	return "", false
}

// Engines is what serves each model role, for the record and the UI's
// status line ({"offline", "offline"} or e.g. {"openai", "gpt-4o-mini"}).
type Engines struct {
	Chat      store.RoleModel `json:"chat"`
	Grounding store.RoleModel `json:"grounding"`
	Embedding store.RoleModel `json:"embedding"`
}

// Limits bound a turn's stages; zero fields take the defaults. Every model
// call also has its role's own per-attempt timeout (package llm).
type Limits struct {
	// Ground bounds grounding with routing (default 60s).
	Ground time.Duration
	// Emit bounds the emission of the call, all attempts (default 60s).
	Emit time.Duration
	// Tool bounds the tool's run (default 30s).
	Tool time.Duration
	// Answer bounds the streamed answer (default 2m).
	Answer time.Duration
	// EmitTokens bounds one emission attempt's output (default 256).
	EmitTokens int
	// AnswerBytes bounds the answer's text: a model that will not stop is
	// cut there (default 32 KiB).
	AnswerBytes int
	// Steps bounds client-side ToolDec stepping, one model call a token
	// (default 128).
	Steps int
}

// Config is an agent's tool library, engines and settings.
type Config struct {
	Tools *tools.Registry
	// Grounding is GEAR's engine (offline or model). Routing's yes/no goes
	// to Chat when there is one, else to the engine's Router; with
	// GroundingOptions.Route = grounding.RouteModel grounding starts it
	// with its own requests (with SpeculativeRoute, in combined mode too).
	Grounding        grounding.Engine
	GroundingOptions grounding.Options
	// Chat is the chat LLM; nil when none is configured, and then
	// ChatUnavailable says why and how to configure one.
	Chat            ChatModel
	ChatUnavailable string
	// Recorder keeps the history; nil records nothing.
	Recorder Recorder
	// ConfirmBelow is the confidence under which the user is asked before
	// a tool runs (config agent.confirm_below).
	ConfirmBelow float64
	// ConfirmCallBelow is the call confidence (how sure grounding's prober
	// is that it read the query's arguments right) under which the call is
	// shown and asked about before it runs (config
	// agent.confirm_call_below); 0 never asks. A call with no reading (a
	// model prober, a call the chat model wrote) is never asked about.
	ConfirmCallBelow float64
	// OfferToolsBelow is the certainty of a "no tool" choice under which a
	// query that looks like a request for information is offered the
	// closest tools instead of an answer without one (config
	// agent.offer_tools_below); 0 never offers.
	OfferToolsBelow float64
	// Allowed reports whether a tool that is not read-only may run
	// without asking (config agent.allowed_tools); nil allows none.
	Allowed func(tool string) bool
	// ContextTokens bounds the earlier messages sent with a query
	// (config agent.context_tokens); 0 sends none.
	ContextTokens int
	// ReuseGroundingCall says when the chosen tool's call from grounding
	// (the small model's q_i, accepted by the machine) runs in chat mode
	// without asking the chat model to write it again (config
	// agent.reuse_grounding_call).
	ReuseGroundingCall ReuseCall
	// SmallModelIsChat says the grounding role's small model is the chat
	// model (same endpoint and model), so that ReuseAuto reuses its calls.
	SmallModelIsChat bool
	Engines          Engines
	Limits           Limits
	// Now is the clock for timings; nil means time.Now.
	Now func() time.Time
}

// Record is everything a turn did: what `gear ask --json` prints, what
// Done, Failed and Cancelled carry, and what the Recorder stores.
type Record struct {
	ConversationID int64 `json:"conversation_id"`
	TurnID         int64 `json:"turn_id"`
	// Input is what the user typed; Query is what was grounded and
	// answered (the text after a mode prefix, or the earlier query that a
	// tool switch re-runs).
	Input  string       `json:"input"`
	Query  string       `json:"query"`
	Mode   store.Mode   `json:"mode"`
	Status store.Status `json:"status"`
	Error  string       `json:"error,omitempty"`

	Route        *Route        `json:"route,omitempty"`
	Grounding    *Grounding    `json:"grounding,omitempty"`
	Confirmation *Confirmation `json:"confirmation,omitempty"`
	// Permission is the yes/no question asked before the call ran, and
	// its answer: Kind ConfirmRun for a tool that is not read-only,
	// ConfirmCall for a call whose call confidence is under
	// Config.ConfirmCallBelow (one question when both hold).
	Permission *Confirmation `json:"permission,omitempty"`
	// Tool is the tool used (empty when none ran); Confidence is
	// grounding's probability for it, meaningful when Grounded.
	Tool   string `json:"tool,omitempty"`
	Family string `json:"family,omitempty"`
	// Source is where Tool came from: built-in, a declared tool's file,
	// an MCP server.
	Source     *tools.Source `json:"source,omitempty"`
	Confidence float64       `json:"confidence"`
	Grounded   bool          `json:"grounded"`
	// ChosenBy says who picked Tool: grounding, the user (a tool switch
	// or a pick at the confirmation) or the call (the user typed it).
	ChosenBy store.Chooser `json:"chosen_by,omitempty"`
	Emission *Emission     `json:"emission,omitempty"`
	Call     *ToolRun      `json:"call,omitempty"`
	// CallReading is the call confidence of the call that ran (or was
	// asked about): Emission.Reading, here for scripts; absent when the
	// prober gave none.
	CallReading *grounding.CallReading `json:"call_reading,omitempty"`

	// Answer is the answer shown, sanitised for the terminal. AnsweredBy is
	// the model (the chat LLM wrote it), the tool (its response as is) or
	// gear (a message of gear's own: no model, no valid call).
	Answer     string         `json:"answer"`
	AnsweredBy store.Answerer `json:"answered_by,omitempty"`

	Timings    Timings           `json:"timings"`
	Usage      []store.RoleUsage `json:"usage"`
	ModelCalls []ModelCall       `json:"model_calls"`
	Engines    Engines           `json:"engines"`
	Notices    []string          `json:"notices,omitempty"`
}

// Route is the "needs a tool?" decision.
type Route struct {
	NeedsTool bool `json:"needs_tool"`
	// By is RouteByModel (the chat LLM's yes/no), RouteByThreshold
	// (grounding's probability), RouteByDecisive (grounding sure enough
	// that the model was not asked), RouteByMode (direct mode always uses
	// a tool) or RouteByUser (a tool switch or a typed call).
	By          store.RouteMethod `json:"by"`
	Probability float64           `json:"probability"`
	Threshold   float64           `json:"threshold"`
	ModelAsked  bool              `json:"model_asked"`
	ModelSaid   string            `json:"model_said,omitempty"`
}

// Grounding is GEAR's table for the turn.
type Grounding struct {
	Engine      string `json:"engine"`
	Preliminary string `json:"preliminary"`
	// Tools are every tool's scores, best first.
	Tools []Score `json:"tools"`
	// Shortlist says which tools the pattern stage ran on (nil: all).
	Shortlist *grounding.Shortlist `json:"shortlist,omitempty"`
	// Choice is grounding's pick (NoTool when routing said none) and
	// Confidence its calibrated probability.
	Choice          string   `json:"choice"`
	Confidence      float64  `json:"confidence"`
	NoneProbability float64  `json:"none_probability"`
	ElapsedMS       float64  `json:"elapsed_ms"`
	Warnings        []string `json:"warnings,omitempty"`
}

// Score is one tool's line of GEAR: semantic S, pattern P, final F, its
// share of the calibrated probability, and the probe behind P.
type Score struct {
	Tool        string  `json:"tool"`
	Family      string  `json:"family"`
	S           float64 `json:"s"`
	P           float64 `json:"p"`
	F           float64 `json:"f"`
	Probability float64 `json:"probability"`
	// Call is the small model's call q_i, Response its response â_i,
	// Status how it went (grounding.StatusRun, StatusMock, ...).
	Call     string                `json:"call"`
	Response string                `json:"response"`
	Status   grounding.ProbeStatus `json:"status"`
	Error    string                `json:"error,omitempty"`
	// Reading is the prober's call confidence for Call, nil when it gave
	// none.
	Reading *grounding.CallReading `json:"call_reading,omitempty"`
	// Shortlisted says the pattern stage ran on the tool.
	Shortlisted bool `json:"shortlisted"`
}

// Confirmation is the question asked when grounding is not sure enough
// of the tool (Kind ""), of the call's arguments (ConfirmCall), or that
// no tool is needed (ConfirmNone); or (ConfirmRun) before a tool that is
// not read-only runs.
type Confirmation struct {
	// Kind is "" for the confidence gate, ConfirmCall for a call read with
	// doubts, ConfirmNone for the closest tools offered when grounding
	// chose none unsure, ConfirmRun for the question whether a tool that
	// may change something runs.
	Kind string `json:"kind,omitempty"`
	// Effect and Source describe a ConfirmRun question's tool: its
	// side-effect class and where it comes from.
	Effect tools.Effect `json:"effect,omitempty"`
	Source string       `json:"source,omitempty"`
	// Threshold is the threshold the question was asked under:
	// Config.ConfirmBelow, ConfirmCallBelow (ConfirmCall) or
	// OfferToolsBelow (ConfirmNone).
	Threshold float64 `json:"threshold"`
	// NoneConfidence is grounding's certainty that no tool is needed, for
	// a ConfirmNone question.
	NoneConfidence float64 `json:"none_confidence,omitempty"`
	// Candidates are the top tools, best first.
	Candidates []Candidate `json:"candidates"`
	// Chosen is the answer: a tool, or NoTool; Auto says Request.Yes
	// answered it.
	Chosen string `json:"chosen,omitempty"`
	Auto   bool   `json:"auto,omitempty"`
	// Typed says the user typed the call whole ("/GEAR Tool(args)"),
	// which is their consent to run it: nothing was asked.
	Typed bool `json:"typed,omitempty"`
}

// Candidate is a tool offered at a confirmation, with the call it would
// run when grounding has one (empty when the chat model will write it).
// At a ConfirmNone question Confidence is the tool's probability given
// that some tool is needed.
type Candidate struct {
	Tool       string                 `json:"tool"`
	Family     string                 `json:"family"`
	Confidence float64                `json:"confidence"`
	Score      float64                `json:"score"`
	Call       string                 `json:"call,omitempty"`
	Reading    *grounding.CallReading `json:"call_reading,omitempty"`
}

// Emission is how the call was produced under the ToolDec machine.
type Emission struct {
	// Path is the mechanism that produced the call that ran: guided,
	// stepped, prompted, repaired, exact or offline.
	Path store.Emission `json:"path"`
	Tool string         `json:"tool"`
	// Call is the accepted call in the canonical syntax; empty when
	// Rejected.
	Call string `json:"call,omitempty"`
	// Original is the model's text before repair, or the rejected text.
	Original string `json:"original,omitempty"`
	// Repairs are the fixes the machine made, in order.
	Repairs []string `json:"repairs,omitempty"`
	// Rejected means no acceptable call came out: nothing ran.
	Rejected bool `json:"rejected,omitempty"`
	// Attempts are every try, in order, the failed ones included.
	Attempts []Attempt `json:"attempts"`
	// Reading is the call confidence of the accepted call: set when it is
	// grounding's call and its prober said how well it read the
	// arguments; nil otherwise (a model prober, a call the chat model
	// wrote), and then nothing is said about it.
	Reading *grounding.CallReading `json:"call_reading,omitempty"`
}

// Attempt is one try at emitting the call.
type Attempt struct {
	Path   store.Emission `json:"path"`
	Output string         `json:"output"`
	Error  string         `json:"error,omitempty"`
	// Steps counts the model calls of a stepped attempt.
	Steps int `json:"steps,omitempty"`
}

// ToolRun is the one tool call a turn ran.
type ToolRun struct {
	Tool string `json:"tool"`
	// Source is where the tool came from (history keeps it with the call).
	Source   tools.Source `json:"source"`
	Call     string       `json:"call"`
	Response string       `json:"response"`
	Error    string       `json:"error,omitempty"`
	// InputError means the call was wrong for the tool (an unknown place,
	// a division by zero) rather than the tool failing.
	InputError bool          `json:"input_error,omitempty"`
	Duration   time.Duration `json:"-"`
	DurationMS float64       `json:"duration_ms"`
	// FromGrounding means grounding had already run this exact call, so
	// its response was used rather than calling the tool twice.
	FromGrounding bool `json:"from_grounding,omitempty"`
}

// Timings are the stages' wall times. Routing runs alongside grounding, so
// Route overlaps Ground.
type Timings struct {
	Route  time.Duration `json:"-"`
	Ground time.Duration `json:"-"`
	Emit   time.Duration `json:"-"`
	Tool   time.Duration `json:"-"`
	Answer time.Duration `json:"-"`
	Total  time.Duration `json:"-"`
}

// ModelCall is one model call the turn made.
type ModelCall struct {
	Role             store.ModelRole `json:"role"`
	Call             string          `json:"call"`
	Server           llm.ServerKind  `json:"server"`
	Model            string          `json:"model"`
	LatencyMS        float64         `json:"latency_ms"`
	PromptTokens     int             `json:"prompt_tokens"`
	CompletionTokens int             `json:"completion_tokens"`
	Estimated        bool            `json:"estimated,omitempty"`
	Failed           bool            `json:"failed,omitempty"`
}
