package agent

import (
	"context"

	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
)

// Chatter is the chat LLM's one-shot completion and what its server can
// do: the agent picks the emission path (guided, stepped, prompted) from
// the capabilities.
type Chatter interface {
	Capabilities(ctx context.Context) llm.Capabilities
	Chat(ctx context.Context, req llm.ChatRequest) (llm.ChatResult, error)
}

// Streamer streams the chat LLM's answer.
type Streamer interface {
	Stream(ctx context.Context, req llm.ChatRequest) (DeltaStream, error)
}

// DeltaStream is a streamed completion: Recv gives the next delta and
// io.EOF after the last; Close stops it early.
type DeltaStream interface {
	Recv() (llm.Delta, error)
	Close() error
}

// TokenSource gives the candidates for the next token after a prefix, with
// their log-probabilities: what client-side ToolDec steps with.
type TokenSource interface {
	NextTokens(ctx context.Context, req llm.NextTokenRequest) (llm.NextTokens, error)
}

// Router answers "does this query need a tool?" with exactly yes or no
// (a constrained call); grounding asks it (grounding.YesNo).
type Router interface {
	YesNo(ctx context.Context, prompt string) (bool, error)
}

// ChatModel is everything the agent asks of the chat LLM. *llm.Client
// provides it through ChatClient.
type ChatModel interface {
	Chatter
	Streamer
	TokenSource
	Router
}

// Recorder keeps the history: what the user typed before any model is
// called, the finished turn, and the earlier messages used as context.
// *store.Store satisfies it.
type Recorder interface {
	CreateConversation(ctx context.Context, c store.NewConversation) (int64, error)
	BeginTurn(ctx context.Context, conversationID int64, query string, mode store.Mode) (store.TurnRef, error)
	FinishTurn(ctx context.Context, rec store.TurnRecord) error
	Messages(ctx context.Context, conversationID int64) ([]store.Message, error)
	Turns(ctx context.Context, conversationID int64) ([]store.Turn, error)
}

// ChatClient adapts an llm client of the chat role to ChatModel.
func ChatClient(c *llm.Client) ChatModel { return llmChat{c} }

type llmChat struct{ *llm.Client }

func (c llmChat) Stream(ctx context.Context, req llm.ChatRequest) (DeltaStream, error) {
	s, err := c.ChatStream(ctx, req)
	if err != nil {
		return nil, err
	}
	return s, nil
}
