package llm

import (
	"context"
	"time"
	"unicode/utf8"
)

// Usage is one call's accounting, returned with every result and reported
// to the context's UsageRecorder (failed calls included).
type Usage struct {
	Role   Role       `json:"role"`
	Call   string     `json:"call"` // chat, chat_stream, completion, next_token, embeddings
	Server ServerKind `json:"server"`
	Model  string     `json:"model"`
	// Latency is the whole call, retries and (for a stream) reading
	// included; FirstDelta is a stream's time to its first delta.
	Latency    time.Duration `json:"latency"`
	FirstDelta time.Duration `json:"first_delta,omitempty"`

	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	// Estimated means the server reported no usage and the counts are
	// characters / 4.
	Estimated bool `json:"estimated,omitempty"`
	Attempts  int  `json:"attempts"`
	Failed    bool `json:"failed,omitempty"`
}

// UsageRecorder receives the Usage of every call made with a context that
// carries it, so code that only sees Complete or Embed (grounding) still has
// its calls counted for the turn.
//
// This is the one value gear puts in a context, and it is telemetry only:
// it observes calls and never changes what a call does or whether it runs
// (like a trace span). Passing it explicitly would mean rebuilding the
// grounder's model roles for every turn, or grounding importing llm.
type UsageRecorder func(Usage)

type recorderKey struct{}

// WithUsageRecorder returns a context whose calls report to r. r may be
// called from several goroutines at once.
func WithUsageRecorder(ctx context.Context, r UsageRecorder) context.Context {
	return context.WithValue(ctx, recorderKey{}, r)
}

func record(ctx context.Context, u Usage) {
	if r, ok := ctx.Value(recorderKey{}).(UsageRecorder); ok && r != nil {
		r(u)
	}
}

// estimateTokens is the usual rough rule for English with BPE tokenizers:
// about four characters a token.
func estimateTokens(chars int) int {
	if chars <= 0 {
		return 0
	}
	return (chars + 3) / 4
}

// setTokens fills u from the server's counts, or estimates both when the
// server sent none.
func setTokens(u *Usage, prompt, completion int, promptChars, completionChars int) {
	if prompt > 0 || completion > 0 {
		u.PromptTokens, u.CompletionTokens = prompt, completion
		return
	}
	u.PromptTokens, u.CompletionTokens, u.Estimated = estimateTokens(promptChars), estimateTokens(completionChars), true
}

func runes(s string) int { return utf8.RuneCountInString(s) }
