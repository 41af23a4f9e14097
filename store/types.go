package store

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// RoleModel is the engine and model serving one role, e.g. {"ollama",
// "qwen2.5:0.5b"} or {"offline", "offline"}. Never a key or a URL with
// credentials.
type RoleModel struct {
	Engine string `json:"engine"`
	Model  string `json:"model"`
}

// NewConversation is what CreateConversation records.
type NewConversation struct {
	// Title is shown in `gear history list`; empty means the first query,
	// truncated, once the first turn begins.
	Title     string    `json:"title"`
	Mode      Mode      `json:"mode"`
	Chat      RoleModel `json:"chat"`
	Grounding RoleModel `json:"grounding"`
	Embedding RoleModel `json:"embedding"`
	// ParticipantID and StudyPhase tie the conversation to a study (the
	// survey). Empty means the values in settings (SettingParticipantID,
	// SettingStudyPhase) when the conversation is created.
	ParticipantID string `json:"participant_id"`
	StudyPhase    string `json:"study_phase"`
}

// Conversation is a recorded conversation.
type Conversation struct {
	ID int64 `json:"id"`
	NewConversation
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// TurnCount counts the conversation's turns.
	TurnCount int `json:"turn_count"`
}

// TurnRef identifies a turn that BeginTurn committed.
type TurnRef struct {
	ConversationID int64
	TurnID         int64
	UserMessageID  int64
	Started        time.Time
}

// Latency is the time each stage of a turn took.
type Latency struct {
	Route  time.Duration
	Ground time.Duration
	Emit   time.Duration
	Tool   time.Duration
	Answer time.Duration
	Total  time.Duration
}

type latencyJSON struct {
	Route  float64 `json:"route_ms"`
	Ground float64 `json:"ground_ms"`
	Emit   float64 `json:"emit_ms"`
	Tool   float64 `json:"tool_ms"`
	Answer float64 `json:"answer_ms"`
	Total  float64 `json:"total_ms"`
}

// MarshalJSON writes the stages in milliseconds.
func (l Latency) MarshalJSON() ([]byte, error) {
	return json.Marshal(latencyJSON{ms(l.Route), ms(l.Ground), ms(l.Emit), ms(l.Tool), ms(l.Answer), ms(l.Total)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (l *Latency) UnmarshalJSON(data []byte) error {
	var j latencyJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*l = Latency{fromMS(j.Route), fromMS(j.Ground), fromMS(j.Emit), fromMS(j.Tool), fromMS(j.Answer), fromMS(j.Total)}
	return nil
}

// RoleUsage counts one model role's calls and tokens in a turn.
type RoleUsage struct {
	Role             ModelRole `json:"role"`
	Calls            int       `json:"calls"`
	PromptTokens     int       `json:"prompt_tokens"`
	CompletionTokens int       `json:"completion_tokens"`
	// Estimated is set when the server reported no usage and the tokens
	// were counted by gear.
	Estimated bool `json:"estimated"`
}

// GroundingScore is one tool's row in a turn's GEAR table.
type GroundingScore struct {
	// Rank is 1 for the chosen tool; 0 means the position in the slice.
	Rank   int    `json:"rank"`
	Tool   string `json:"tool"`
	Family string `json:"family"`
	// Semantic is S(Q, d_i), Pattern is P(â, â_i), Final is f_i.
	Semantic float64 `json:"s"`
	Pattern  float64 `json:"p"`
	Final    float64 `json:"f"`
	// Probability is the tool's calibrated probability, in [0, 1]; 0 in
	// rows recorded before schema 5, which did not keep it.
	Probability float64 `json:"probability"`
	// Call is the SLM's call q_i; Response is an excerpt of â_i (at most
	// MaxExcerpt bytes are kept).
	Call         string       `json:"call"`
	Response     string       `json:"response"`
	ResponseKind ResponseKind `json:"response_kind"`
}

// MaxExcerpt bounds the grounding response excerpt kept per tool.
const MaxExcerpt = 2000

// ToolCall is one call a turn emitted.
type ToolCall struct {
	Tool string `json:"tool"`
	// Source is where the tool came from when it was called.
	Source ToolSource `json:"source"`
	// Call is the call as run, in the canonical syntax.
	Call  string    `json:"call"`
	Check CallCheck `json:"check"`
	// Original is the emitted text before repair (or the rejected text).
	Original string        `json:"original,omitempty"`
	Response string        `json:"response"`
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"-"`
}

// ToolSource is where a called tool came from: Kind "built-in", "file"
// (Name is the declared tool's file) or "mcp" (Name is the server). The
// zero value reads as built-in: calls recorded before sources were kept
// were all of gear's own tools.
type ToolSource struct {
	Kind string `json:"kind"`
	Name string `json:"name,omitempty"`
}

// The source kinds the store accepts.
const (
	SourceBuiltin = "built-in"
	SourceFile    = "file"
	SourceMCP     = "mcp"
)

// IsBuiltin reports whether the tool is one of gear's own.
func (s ToolSource) IsBuiltin() bool { return s.Kind == "" || s.Kind == SourceBuiltin }

// String is the source as people read it: "built-in", the file's path,
// or "mcp:NAME".
func (s ToolSource) String() string {
	switch {
	case s.IsBuiltin():
		return SourceBuiltin
	case s.Kind == SourceFile:
		return s.Name
	}
	return s.Kind + ":" + s.Name
}

// toolCallJSON is a ToolCall's JSON: its own fields (the alias drops the
// methods) and the duration in milliseconds last.
type toolCallJSON struct {
	toolCallFields
	DurationMS float64 `json:"duration_ms"`
}

type toolCallFields ToolCall

// MarshalJSON writes Duration in milliseconds.
func (c ToolCall) MarshalJSON() ([]byte, error) {
	return json.Marshal(toolCallJSON{toolCallFields(c), ms(c.Duration)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *ToolCall) UnmarshalJSON(data []byte) error {
	var j toolCallJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*c = ToolCall(j.toolCallFields)
	c.Duration = fromMS(j.DurationMS)
	return nil
}

// TurnRecord is everything a turn did after BeginTurn. FinishTurn writes
// it; writing it again replaces it.
type TurnRecord struct {
	TurnID int64  `json:"id"`
	Status Status `json:"status"`
	// Input is what the user typed when it is not the query answered: a
	// tool switch ("use wiki instead", "/use maths"), or the query
	// with its prefix ("/GEAR what time is it"). Empty otherwise.
	Input   string      `json:"input,omitempty"`
	Route   Route       `json:"route"`
	RouteBy RouteMethod `json:"route_by"`
	// RouteProbability is grounding's probability that the query needs a
	// tool and RouteThreshold the threshold it was held against; both are
	// kept when grounding ran and a route was decided, and read back as 0
	// otherwise (and for turns recorded before schema 5).
	RouteProbability float64 `json:"route_probability"`
	RouteThreshold   float64 `json:"route_threshold"`
	// Grounded says GEAR grounding ran (it did for a turn routed to no
	// tool, which keeps the scores; baseline turns and typed calls were
	// not grounded).
	Grounded bool `json:"grounded"`
	// Tool and ToolFamily are the chosen tool, and ChosenBy who chose
	// it; all empty when none was chosen.
	Tool       string  `json:"tool"`
	ToolFamily string  `json:"tool_family"`
	ChosenBy   Chooser `json:"chosen_by,omitempty"`
	// Confidence is grounding's confidence in Tool, in [0, 1]; it is
	// recorded only when Grounded and a Tool was chosen.
	Confidence float64 `json:"confidence"`
	// CallReading is the call confidence of the call that ran (or was
	// asked about): how well the engine read its arguments, and its
	// doubts. Nil when no engine read the call (the chat model wrote it,
	// the user typed it) and for turns recorded before schema 9.
	CallReading *CallReading `json:"call_reading,omitempty"`
	Emission    Emission     `json:"emission"`
	RepairNote  string       `json:"repair_note,omitempty"`
	// Error is what went wrong, for failed and cancelled turns.
	Error     string           `json:"error,omitempty"`
	Latency   Latency          `json:"latency"`
	Usage     []RoleUsage      `json:"usage"`
	Grounding []GroundingScore `json:"grounding"`
	Calls     []ToolCall       `json:"calls"`
	// Answer is the final answer message shown to the user; empty when
	// there is none yet. AnsweredBy says who wrote it.
	Answer     string   `json:"answer"`
	AnsweredBy Answerer `json:"answered_by,omitempty"`
}

// CallReading is a call confidence as the history keeps it: Confidence in
// [0, 1], and the doubts behind it, one line each.
type CallReading struct {
	Confidence float64  `json:"confidence"`
	Doubts     []string `json:"doubts,omitempty"`
}

// HasConfidence says whether Confidence is grounding's confidence in a
// chosen tool (false for typed calls, baseline turns and turns without a
// tool).
func (r TurnRecord) HasConfidence() bool { return r.Grounded && r.Tool != "" }

// Turn is a recorded turn with what it was asked and how it was rated.
type Turn struct {
	TurnRecord
	ConversationID  int64     `json:"conversation_id"`
	Query           string    `json:"query"`
	Mode            Mode      `json:"mode"`
	UserMessageID   int64     `json:"user_message_id"`
	AnswerMessageID int64     `json:"answer_message_id,omitempty"`
	Started         time.Time `json:"started"`
	// Finished is zero while the turn runs.
	Finished time.Time `json:"finished"`
	Rating   *Rating   `json:"rating,omitempty"`
}

// Message is a user's or the assistant's message.
type Message struct {
	ID             int64       `json:"id"`
	ConversationID int64       `json:"conversation_id"`
	TurnID         int64       `json:"turn_id"`
	Role           MessageRole `json:"role"`
	Text           string      `json:"text"`
	Created        time.Time   `json:"created"`
}

// Score is a thumbs rating.
type Score int

const (
	ScoreNone Score = 0
	ScoreUp   Score = 1
	ScoreDown Score = -1
)

// Rating is the user's verdict on a turn; a turn has at most one, the
// latest.
type Rating struct {
	TurnID int64 `json:"turn_id"`
	Score  Score `json:"score"`
	// WrongTool flags that grounding chose the wrong tool; WantedTool is
	// the tool the user wanted, when they said, or WantedNone: no tool was
	// needed.
	WrongTool  bool      `json:"wrong_tool"`
	WantedTool string    `json:"wanted_tool,omitempty"`
	Comment    string    `json:"comment,omitempty"`
	Rated      time.Time `json:"rated"`
}

// WantedNone is the wanted tool of a "wrong tool" rating that says the
// turn needed no tool at all.
const WantedNone = "none"

// SurveyStatus is whether a questionnaire was finished.
type SurveyStatus string

const (
	SurveyInProgress SurveyStatus = "in-progress"
	SurveyComplete   SurveyStatus = "complete"
)

// SurveyResponse is one participant's answers to one questionnaire.
type SurveyResponse struct {
	// ID is 0 for a response not saved yet.
	ID            int64  `json:"id"`
	ParticipantID string `json:"participant_id"`
	Version       string `json:"questionnaire_version"`
	Phase         string `json:"phase"`
	// Answers is a JSON object, question id -> answer.
	Answers   json.RawMessage `json:"answers"`
	Status    SurveyStatus    `json:"status"`
	Started   time.Time       `json:"started"`
	Updated   time.Time       `json:"updated"`
	Completed time.Time       `json:"completed"`
}

// Setting keys the study protocol uses.
const (
	SettingParticipantID = "participant_id"
	SettingStudyPhase    = "study_phase"
)

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func fromMS(v float64) time.Duration { return time.Duration(math.Round(v * float64(time.Millisecond))) }

func unixMS(t time.Time) int64 { return t.UnixMilli() }

func fromUnixMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

func checkMode(m Mode) error {
	switch m {
	case ModeChat, ModeDirect, ModeBaseline:
		return nil
	}
	return fmt.Errorf("mode %q: want chat, direct or baseline", m)
}
