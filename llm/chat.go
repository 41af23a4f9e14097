package llm

import (
	"context"
	"encoding/json"
	"errors"

	openai "github.com/sashabaranov/go-openai"
)

// Message is one chat message. Role is system, user, assistant or tool.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are an assistant message's calls; ToolCallID ties a tool
	// message to the call it answers.
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is a function call the model made; Arguments is its JSON text.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolDef offers the model a function; Parameters is its JSON schema.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Guide constrains the output on the server; set exactly one of JSONSchema,
// Grammar (GBNF), Regex or Choice. Which ones a server takes, and the field
// each becomes, is in CapabilitiesOf.
type Guide struct {
	// Name names the schema (OpenAI requires one); default "gear_output".
	Name       string
	JSONSchema json.RawMessage
	Grammar    string
	Regex      string
	Choice     []string
}

// ChatRequest is one chat completion. Zero fields take the role's settings.
type ChatRequest struct {
	Messages []Message
	Tools    []ToolDef
	// ToolChoice is "", "auto", "none", "required", or a tool's name to
	// force that tool.
	ToolChoice  string
	MaxTokens   int
	Temperature *float64
	Stop        []string
	Guide       *Guide
	// TopLogprobs > 0 asks for logprobs with that many candidates per
	// generated token (capped at the server's maximum).
	TopLogprobs int
	// LogitBias maps the server's token ids to a bias.
	LogitBias map[string]int
	// Prefill is the start of the assistant's answer, continued by
	// servers that support it (Capabilities.Prefill); the result holds
	// only what follows it.
	Prefill string
	// Extra fields are merged into the JSON body last, over gear's own.
	Extra map[string]any

	call string
	// budget, when set, is shared with other calls (WithSharedBudget).
	budget *ResponseBudget
}

// Temperature returns a pointer to t, for ChatRequest.Temperature; 0 is
// greedy decoding and is sent as "temperature": 0.
func Temperature(t float64) *float64 { return &t }

// ChatResult is a finished chat completion.
type ChatResult struct {
	Content      string
	ToolCalls    []ToolCall
	FinishReason string
	// Tokens are the generated tokens with their candidates, when
	// TopLogprobs was asked for and the server sent them.
	Tokens []TokenLogprob
	Usage  Usage
}

// TokenLogprob is one generated token, its log-probability and the top
// candidates the server considered at that position.
type TokenLogprob struct {
	Token   string      `json:"token"`
	Logprob float64     `json:"logprob"`
	Top     []Candidate `json:"top"`
}

// Candidate is one possible next token.
type Candidate struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
}

// Chat makes one chat completion.
func (c *Client) Chat(ctx context.Context, req ChatRequest) (ChatResult, error) {
	kind := c.serverFor(ctx, req.needsKind())
	o, extra, err := c.buildChat(kind, req)
	if err != nil {
		return ChatResult{}, err
	}
	name := req.call
	if name == "" {
		name = "chat"
	}
	k := c.begin(name, req.budget, extra)
	resp, err := k.oa.CreateChatCompletion(ctx, o)
	u := c.usage(k)
	if err != nil {
		return ChatResult{Usage: u}, c.fail(ctx, k, err, u)
	}
	if len(resp.Choices) == 0 {
		return ChatResult{Usage: u}, c.fail(ctx, k, errors.New("the response has no choices"), u)
	}
	ch := resp.Choices[0]
	res := ChatResult{Content: ch.Message.Content, FinishReason: string(ch.FinishReason)}
	for _, tc := range ch.Message.ToolCalls {
		res.ToolCalls = append(res.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	if ch.LogProbs != nil && req.TopLogprobs > 0 { // kept only when asked for
		for _, lp := range ch.LogProbs.Content {
			t := TokenLogprob{Token: lp.Token, Logprob: lp.LogProb}
			for _, top := range lp.TopLogProbs {
				t.Top = append(t.Top, Candidate{Token: top.Token, Logprob: top.LogProb})
			}
			res.Tokens = append(res.Tokens, t)
		}
	}
	setTokens(&u, resp.Usage.PromptTokens, resp.Usage.CompletionTokens, promptChars(req), outputChars(res.Content, res.ToolCalls))
	res.Usage = u
	record(ctx, u)
	return res, nil
}

// needsKind says whether the request depends on the server kind (guided
// decoding, logprobs, logit bias, prefill) so an unknown kind is probed.
func (r ChatRequest) needsKind() bool {
	return r.Guide != nil || r.TopLogprobs > 0 || len(r.LogitBias) > 0 || r.Prefill != ""
}

// buildChat turns a request into go-openai's, plus the fields go-openai
// cannot express (temperature 0, server-specific guided decoding), which the
// transport merges into the body.
func (c *Client) buildChat(kind ServerKind, req ChatRequest) (openai.ChatCompletionRequest, map[string]any, error) {
	caps := CapabilitiesOf(kind)
	extra := map[string]any{}
	o := openai.ChatCompletionRequest{Model: c.ep.Model}
	for _, m := range req.Messages {
		om := openai.ChatCompletionMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			om.ToolCalls = append(om.ToolCalls, openai.ToolCall{ID: tc.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
		}
		o.Messages = append(o.Messages, om)
	}
	if req.Prefill != "" {
		if !caps.Prefill {
			return o, nil, c.unsupported("continuing an assistant prefix (prefill)")
		}
		o.Messages = append(o.Messages, openai.ChatCompletionMessage{Role: "assistant", Content: req.Prefill})
		if kind == ServerVLLM {
			extra["continue_final_message"] = true
			extra["add_generation_prompt"] = false
		}
	}
	maxTokens := firstNonZero(req.MaxTokens, c.ep.MaxTokens)
	if kind == ServerOpenAI {
		o.MaxCompletionTokens = maxTokens
	} else {
		// Deprecated by OpenAI for its o-series, but the field the other
		// servers (llama.cpp, vLLM, Ollama, LM Studio) read.
		//lint:ignore SA1019 max_tokens is what non-OpenAI servers understand
		o.MaxTokens = maxTokens
	}
	if t := firstTemp(req.Temperature, c.ep.Temperature); t != nil {
		extra["temperature"] = *t
	}
	o.Stop = req.Stop
	if o.Stop == nil {
		o.Stop = c.ep.Stop
	}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		fd := openai.FunctionDefinition{Name: t.Name, Description: t.Description}
		if caps.StrictTools {
			strict, err := StrictSchema(params)
			if err != nil {
				return o, nil, &Error{Kind: ErrBadRequest, Role: c.ep.Role, Detail: "tool " + t.Name + ": " + err.Error()}
			}
			params, fd.Strict = strict, true
			o.ParallelToolCalls = false
		}
		fd.Parameters = params
		o.Tools = append(o.Tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &fd})
	}
	switch req.ToolChoice {
	case "":
	case "auto", "none", "required":
		o.ToolChoice = req.ToolChoice
	default:
		o.ToolChoice = openai.ToolChoice{Type: openai.ToolTypeFunction, Function: openai.ToolFunction{Name: req.ToolChoice}}
	}
	if req.Guide != nil {
		if err := c.applyGuide(kind, caps, *req.Guide, len(req.Tools) > 0, &o, extra); err != nil {
			return o, nil, err
		}
	}
	if req.TopLogprobs > 0 {
		if !caps.Logprobs {
			return o, nil, c.unsupported("logprobs")
		}
		o.LogProbs, o.TopLogProbs = true, min(req.TopLogprobs, caps.MaxTopLogprobs)
	}
	if len(req.LogitBias) > 0 {
		if !caps.LogitBias {
			return o, nil, c.unsupported("logit_bias")
		}
		o.LogitBias = req.LogitBias
	}
	for k, v := range req.Extra {
		extra[k] = v
	}
	return o, extra, nil
}

func firstNonZero(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

func firstTemp(a, b *float64) *float64 {
	if a != nil {
		return a
	}
	return b
}

func promptChars(req ChatRequest) int {
	n := runes(req.Prefill)
	for _, m := range req.Messages {
		n += runes(m.Content) + outputChars("", m.ToolCalls)
	}
	for _, t := range req.Tools {
		n += runes(t.Name) + runes(t.Description) + len(t.Parameters)
	}
	return n
}

func outputChars(content string, calls []ToolCall) int {
	n := runes(content)
	for _, tc := range calls {
		n += runes(tc.Name) + runes(tc.Arguments)
	}
	return n
}
