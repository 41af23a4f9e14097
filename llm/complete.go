package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// Complete is the grounding SLM: greedy (temperature 0) generation of at
// most the role's max_tokens, ending at the role's stop strings, with
// surrounding whitespace trimmed. It uses the chat endpoint (the prompt is
// the one user message) unless the role's api is completions.
func (c *Client) Complete(ctx context.Context, prompt string) (string, error) {
	text, _, err := c.CompleteUsage(ctx, prompt)
	return text, err
}

// CompleteUsage is Complete with the call's Usage.
func (c *Client) CompleteUsage(ctx context.Context, prompt string) (string, Usage, error) {
	return c.complete(ctx, prompt, nil)
}

// complete is Complete charging the responses to budget when it is set.
func (c *Client) complete(ctx context.Context, prompt string, budget *ResponseBudget) (string, Usage, error) {
	if c.ep.API == "completions" {
		r, err := c.Completion(ctx, CompletionRequest{Prompt: prompt, Temperature: Temperature(0), budget: budget})
		return strings.TrimSpace(r.Text), r.Usage, err
	}
	r, err := c.Chat(ctx, ChatRequest{Messages: []Message{{Role: "user", Content: prompt}}, Temperature: Temperature(0), budget: budget})
	return strings.TrimSpace(r.Content), r.Usage, err
}

// CompletionRequest is a legacy /v1/completions call. Zero fields take the
// role's settings.
type CompletionRequest struct {
	Prompt      string
	MaxTokens   int
	Temperature *float64
	Stop        []string
	// Logprobs > 0 asks for that many candidates per generated token.
	Logprobs  int
	LogitBias map[string]int
	// Guide works on llama.cpp and vLLM only (their own fields).
	Guide *Guide
	Extra map[string]any

	call string
	// budget, when set, is shared with other calls (WithSharedBudget).
	budget *ResponseBudget
}

// CompletionResult is a finished legacy completion.
type CompletionResult struct {
	Text         string
	FinishReason string
	Tokens       []TokenLogprob
	Usage        Usage
}

// Completion makes a legacy completion. OpenAI serves it for instruct
// models only; go-openai refuses chat models before sending, which comes
// back as ErrUnsupported.
func (c *Client) Completion(ctx context.Context, req CompletionRequest) (CompletionResult, error) {
	kind := c.serverFor(ctx, req.Guide != nil || len(req.LogitBias) > 0)
	caps := CapabilitiesOf(kind)
	extra := map[string]any{}
	o := openai.CompletionRequest{Model: c.ep.Model, Prompt: req.Prompt, MaxTokens: firstNonZero(req.MaxTokens, c.ep.MaxTokens),
		Stop: req.Stop, LogProbs: req.Logprobs}
	if o.Stop == nil {
		o.Stop = c.ep.Stop
	}
	if t := firstTemp(req.Temperature, c.ep.Temperature); t != nil {
		extra["temperature"] = *t
	}
	if len(req.LogitBias) > 0 {
		if !caps.LogitBias {
			return CompletionResult{}, c.unsupported("logit_bias")
		}
		o.LogitBias = req.LogitBias
	}
	if req.Guide != nil {
		if kind != ServerLlamaCpp && kind != ServerVLLM {
			return CompletionResult{}, c.unsupported("guided decoding on the completions endpoint")
		}
		if err := c.checkGuide(caps, *req.Guide, false); err != nil {
			return CompletionResult{}, err
		}
		if err := c.guideFields(kind, *req.Guide, extra); err != nil {
			return CompletionResult{}, err
		}
	}
	for k, v := range req.Extra {
		extra[k] = v
	}
	name := req.call
	if name == "" {
		name = "completion"
	}
	k := c.begin(name, req.budget, extra)
	resp, err := k.oa.CreateCompletion(ctx, o)
	u := c.usage(k)
	if errors.Is(err, openai.ErrCompletionUnsupportedModel) {
		return CompletionResult{Usage: u}, c.unsupported("legacy completions with chat model " + c.ep.Model + " (set models." + string(c.ep.Role) + ".api: chat)")
	}
	if err != nil {
		return CompletionResult{Usage: u}, c.fail(ctx, k, err, u)
	}
	if len(resp.Choices) == 0 {
		return CompletionResult{Usage: u}, c.fail(ctx, k, errors.New("the response has no choices"), u)
	}
	res := CompletionResult{Text: resp.Choices[0].Text, FinishReason: resp.Choices[0].FinishReason}
	if req.Logprobs > 0 {
		if res.Tokens, err = completionLogprobs(k.st.raw); err != nil {
			return CompletionResult{Usage: u}, c.fail(ctx, k, err, u)
		}
	}
	var prompt, completion int
	if resp.Usage != nil {
		prompt, completion = resp.Usage.PromptTokens, resp.Usage.CompletionTokens
	}
	setTokens(&u, prompt, completion, runes(req.Prompt), runes(res.Text))
	res.Usage = u
	record(ctx, u)
	return res, nil
}

// completionLogprobs reads a completion's logprobs in either shape servers
// send: OpenAI's legacy one (tokens, token_logprobs, top_logprobs as maps;
// vLLM too) or the chat one (content[] with top_logprobs[]; llama.cpp).
func completionLogprobs(body []byte) ([]TokenLogprob, error) {
	var resp struct {
		Choices []struct {
			Logprobs *struct {
				Tokens        []string             `json:"tokens"`
				TokenLogprobs []float64            `json:"token_logprobs"`
				TopLogprobs   []map[string]float64 `json:"top_logprobs"`
				Content       []struct {
					Token       string      `json:"token"`
					Logprob     float64     `json:"logprob"`
					TopLogprobs []Candidate `json:"top_logprobs"`
				} `json:"content"`
			} `json:"logprobs"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("completion logprobs: %w", err)
	}
	if len(resp.Choices) == 0 || resp.Choices[0].Logprobs == nil {
		return nil, nil
	}
	lp := resp.Choices[0].Logprobs
	var out []TokenLogprob
	for _, ct := range lp.Content {
		out = append(out, TokenLogprob{Token: ct.Token, Logprob: ct.Logprob, Top: ct.TopLogprobs})
	}
	for i, tok := range lp.Tokens {
		t := TokenLogprob{Token: tok}
		if i < len(lp.TokenLogprobs) {
			t.Logprob = lp.TokenLogprobs[i]
		}
		if i < len(lp.TopLogprobs) {
			for cand, l := range lp.TopLogprobs[i] {
				t.Top = append(t.Top, Candidate{Token: cand, Logprob: l})
			}
			sortCandidates(t.Top)
		}
		out = append(out, t)
	}
	return out, nil
}

func sortCandidates(cs []Candidate) {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Logprob != cs[j].Logprob {
			return cs[i].Logprob > cs[j].Logprob
		}
		return cs[i].Token < cs[j].Token
	})
}

// NextTokenRequest asks for the candidates for the one token after Prefix.
// With Prompt set it uses the completions endpoint on Prompt+Prefix (any
// server with completions and logprobs); otherwise the chat endpoint with
// Messages and Prefix as an assistant prefill (servers with
// Capabilities.Prefill; on OpenAI only with an empty Prefix).
type NextTokenRequest struct {
	Prompt   string
	Messages []Message
	Prefix   string
	// TopK candidates are asked for (default 5, capped by the server).
	TopK int
}

// NextTokens is the candidates for the next token, most probable first.
type NextTokens struct {
	Candidates []Candidate
	Usage      Usage
}

// NextTokens generates exactly one token, greedily, and returns the
// server's candidates for it — the source ToolDec's decoding loop steps
// with. A server that returns no logprobs gives ErrUnsupported.
func (c *Client) NextTokens(ctx context.Context, req NextTokenRequest) (NextTokens, error) {
	k := req.TopK
	if k <= 0 {
		k = 5
	}
	var tokens []TokenLogprob
	var u Usage
	if req.Prompt != "" {
		r, err := c.Completion(ctx, CompletionRequest{Prompt: req.Prompt + req.Prefix, MaxTokens: 1,
			Temperature: Temperature(0), Logprobs: k, Stop: []string{}, call: "next_token"})
		if err != nil {
			return NextTokens{Usage: r.Usage}, err
		}
		tokens, u = r.Tokens, r.Usage
	} else {
		r, err := c.Chat(ctx, ChatRequest{Messages: req.Messages, Prefill: req.Prefix, MaxTokens: 1,
			Temperature: Temperature(0), TopLogprobs: k, Stop: []string{}, call: "next_token"})
		if err != nil {
			return NextTokens{Usage: r.Usage}, err
		}
		tokens, u = r.Tokens, r.Usage
	}
	if len(tokens) == 0 {
		return NextTokens{Usage: u}, c.unsupported("the server sent no logprobs for the next token")
	}
	cands := tokens[0].Top
	if len(cands) == 0 {
		cands = []Candidate{{Token: tokens[0].Token, Logprob: tokens[0].Logprob}}
	}
	cands = append([]Candidate(nil), cands...)
	sortCandidates(cands)
	return NextTokens{Candidates: cands, Usage: u}, nil
}

// yesNoSchema is the answer routing accepts where only a JSON schema can
// constrain the output.
const yesNoSchema = `{"type":"object","properties":{"answer":{"type":"string","enum":["yes","no"]}},"required":["answer"],"additionalProperties":false}`

// YesNo answers a prompt with exactly yes or no, greedily, under the
// strongest constraint the server has: a choice list (vLLM), a grammar
// (llama.cpp) or an enum JSON schema (the others). An answer that is still
// neither is ErrBadResponse, never a guess.
func (c *Client) YesNo(ctx context.Context, prompt string) (bool, error) {
	caps := c.Capabilities(ctx)
	req := ChatRequest{Messages: []Message{{Role: "user", Content: prompt}}, Temperature: Temperature(0), MaxTokens: 16,
		Stop: []string{}, call: "yes_no"}
	if caps.Choice {
		req.Guide = &Guide{Choice: []string{"yes", "no"}}
	} else {
		req.Guide = &Guide{Name: "yes_no", JSONSchema: json.RawMessage(yesNoSchema)}
	}
	r, err := c.Chat(ctx, req)
	if err != nil {
		return false, err
	}
	answer := strings.TrimSpace(r.Content)
	if !caps.Choice {
		var v struct {
			Answer string `json:"answer"`
		}
		if json.Unmarshal([]byte(answer), &v) == nil {
			answer = v.Answer
		}
	}
	switch answer {
	case "yes":
		return true, nil
	case "no":
		return false, nil
	}
	return false, &Error{Kind: ErrBadResponse, Role: c.ep.Role, Server: c.server(), BaseURL: c.ep.BaseURL, Model: c.ep.Model,
		Detail: fmt.Sprintf("asked for yes or no, the model answered %q", c.clean(r.Content)),
		Hint:   "the server ignored the constraint; check models." + string(c.ep.Role) + ".server"}
}
