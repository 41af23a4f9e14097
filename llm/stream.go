package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"sort"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Delta is one streamed piece of a chat completion.
type Delta struct {
	Content string
	// ToolCalls are pieces of tool calls: the first piece of a call has
	// its ID and Name, later ones more Arguments text, matched by Index.
	ToolCalls    []ToolCallDelta
	FinishReason string
	Tokens       []TokenLogprob
}

// ToolCallDelta is a piece of the Index-th tool call.
type ToolCallDelta struct {
	Index     int
	ID        string
	Name      string
	Arguments string
}

// Stream is a streamed chat completion, pulled one delta at a time with
// Recv (or ranged over with Deltas). Close it when done; closing early stops
// reading and releases the connection.
type Stream struct {
	c   *Client
	ctx context.Context
	k   *call
	os  *openai.ChatCompletionStream
	req ChatRequest

	content  strings.Builder
	calls    map[int]*callParts
	argBytes int
	tokens   []TokenLogprob
	finish   string
	server   *openai.Usage
	first    time.Duration
	usage    Usage
	err      error // sticky: io.EOF after the end, or the failure
	recorded bool
}

// ChatStream starts a streamed chat completion. Errors before the first
// byte (bad key, unknown model, unreachable) are returned here.
func (c *Client) ChatStream(ctx context.Context, req ChatRequest) (*Stream, error) {
	kind := c.serverFor(ctx, req.needsKind())
	o, extra, err := c.buildChat(kind, req)
	if err != nil {
		return nil, err
	}
	o.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	k := c.begin("chat_stream", req.budget, extra)
	os, err := k.oa.CreateChatCompletionStream(ctx, o)
	if err != nil {
		return nil, c.fail(ctx, k, err, c.usage(k))
	}
	return &Stream{c: c, ctx: ctx, k: k, os: os, req: req, calls: map[int]*callParts{}}, nil
}

// Recv returns the next delta, io.EOF after the last one, or an *Error: a
// cancelled context (ErrCanceled, promptly), a server silent for longer
// than the role's timeout (ErrTimeout), a malformed chunk or a stream cut
// before its finish reason (ErrBadResponse).
func (s *Stream) Recv() (Delta, error) {
	for s.err == nil {
		resp, err := s.os.Recv()
		switch {
		case errors.Is(err, io.EOF) && s.finish == "":
			s.end(s.c.newError(s.ctx, truncatedStreamError{}, s.k.st))
		case errors.Is(err, io.EOF):
			s.end(io.EOF)
		case err != nil:
			s.end(s.c.newError(s.ctx, err, s.k.st))
		default:
			d, ok, err := s.take(resp)
			if err != nil {
				s.end(s.c.newError(s.ctx, err, s.k.st))
				continue
			}
			if ok {
				return d, nil
			}
		}
	}
	return Delta{}, s.err
}

// Bounds on what one stream may accumulate besides its text (which the
// transport's per-response limit bounds): tool calls and their arguments.
const (
	maxStreamCalls    = 64
	maxStreamArgBytes = 1 << 20
)

// callParts is a streamed tool call being put together; its arguments grow
// in a builder, not by concatenating strings (which copies them every time).
type callParts struct {
	id, name string
	args     strings.Builder
}

// take folds a chunk into the running result and gives its delta, if the
// chunk carried anything (usage-only and empty chunks do not). Logprobs are
// kept only when the request asked for them.
func (s *Stream) take(resp openai.ChatCompletionStreamResponse) (Delta, bool, error) {
	if resp.Usage != nil {
		s.server = resp.Usage
	}
	if len(resp.Choices) == 0 {
		return Delta{}, false, nil
	}
	ch := resp.Choices[0]
	d := Delta{Content: ch.Delta.Content, FinishReason: string(ch.FinishReason)}
	for _, tc := range ch.Delta.ToolCalls {
		i := 0
		if tc.Index != nil {
			i = *tc.Index
		}
		d.ToolCalls = append(d.ToolCalls, ToolCallDelta{Index: i, ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		acc := s.calls[i]
		if acc == nil {
			if len(s.calls) >= maxStreamCalls {
				return Delta{}, false, &streamLimitError{fmt.Sprintf("the stream holds more than %d tool calls", maxStreamCalls)}
			}
			acc = &callParts{}
			s.calls[i] = acc
		}
		if tc.ID != "" {
			acc.id = tc.ID
		}
		if tc.Function.Name != "" {
			acc.name = tc.Function.Name
		}
		s.argBytes += len(tc.Function.Arguments)
		if s.argBytes > maxStreamArgBytes {
			return Delta{}, false, &streamLimitError{fmt.Sprintf("the streamed tool-call arguments are longer than %s", sizeText(maxStreamArgBytes))}
		}
		acc.args.WriteString(tc.Function.Arguments)
	}
	if ch.Logprobs != nil && s.req.TopLogprobs > 0 {
		for _, lp := range ch.Logprobs.Content {
			t := TokenLogprob{Token: lp.Token, Logprob: lp.Logprob}
			for _, top := range lp.TopLogprobs {
				t.Top = append(t.Top, Candidate{Token: top.Token, Logprob: top.Logprob})
			}
			d.Tokens = append(d.Tokens, t)
		}
	}
	s.content.WriteString(d.Content)
	s.tokens = append(s.tokens, d.Tokens...)
	if d.FinishReason != "" {
		s.finish = d.FinishReason
	}
	if d.Content == "" && len(d.ToolCalls) == 0 && d.FinishReason == "" && len(d.Tokens) == 0 {
		return Delta{}, false, nil
	}
	if s.first == 0 {
		s.first = time.Since(s.k.start)
	}
	return d, true, nil
}

// toolCalls are the calls so far in index order, arguments joined.
func (s *Stream) toolCalls() []ToolCall {
	idx := make([]int, 0, len(s.calls))
	for i := range s.calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	calls := make([]ToolCall, 0, len(idx))
	for _, i := range idx {
		p := s.calls[i]
		calls = append(calls, ToolCall{ID: p.id, Name: p.name, Arguments: p.args.String()})
	}
	return calls
}

// end stops the stream with err (io.EOF for a clean end) and records its
// usage once.
func (s *Stream) end(err error) {
	if s.err == nil {
		s.err = err
	}
	if s.recorded {
		return
	}
	s.recorded = true
	s.os.Close()
	u := s.c.usage(s.k)
	u.FirstDelta = s.first
	var prompt, completion int
	if s.server != nil {
		prompt, completion = s.server.PromptTokens, s.server.CompletionTokens
	}
	setTokens(&u, prompt, completion, promptChars(s.req), outputChars(s.content.String(), s.toolCalls()))
	u.Failed = err != io.EOF
	s.usage = u
	record(s.ctx, u)
}

// Close stops reading and releases the connection; a stream closed before
// its end is recorded as failed.
func (s *Stream) Close() error {
	s.end(&Error{Kind: ErrCanceled, Role: s.c.ep.Role, Detail: "stream closed before its end", Err: context.Canceled})
	return nil
}

// Result is everything received so far, tool calls with their arguments
// joined; after io.EOF it is the whole completion, with Usage.
func (s *Stream) Result() ChatResult {
	return ChatResult{Content: s.content.String(), ToolCalls: s.toolCalls(), FinishReason: s.finish,
		Tokens: s.tokens, Usage: s.usage}
}

// Deltas ranges over the stream's deltas; a failure is yielded once, as the
// last pair. The stream is closed when the loop ends.
func (s *Stream) Deltas() iter.Seq2[Delta, error] {
	return func(yield func(Delta, error) bool) {
		defer s.Close()
		for {
			d, err := s.Recv()
			if err == io.EOF || !yield(d, err) || err != nil {
				return
			}
		}
	}
}
