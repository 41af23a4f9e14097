package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/gear-chat/gear/config"
)

var weatherTool = ToolDef{Name: "getCurrentWeather", Description: "Get the current weather in a given location",
	Parameters: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["location"]}`)}

func TestChatToolCallsOpenAI(t *testing.T) {
	srv := newReplay(t, step{path: "POST /v1/chat/completions", body: fixture(t, "chat_completion_tool_calls.json")})
	c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
	res, err := c.Chat(context.Background(), ChatRequest{
		Messages: []Message{{Role: "user", Content: "What is the weather like in Boston?"}},
		Tools:    []ToolDef{weatherTool},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := ToolCall{ID: "call_olc8qHf1RDItRqwuEBNjsu3B", Name: "getCurrentWeather", Arguments: `{"location":"Boston"}`}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0] != want {
		t.Errorf("tool calls = %+v, want %+v", res.ToolCalls, want)
	}
	if res.FinishReason != "tool_calls" || res.Content != "" {
		t.Errorf("finish %q content %q", res.FinishReason, res.Content)
	}
	u := res.Usage
	if u.PromptTokens != 81 || u.CompletionTokens != 14 || u.Estimated || u.Role != RoleChat || u.Model != "test-model" || u.Attempts != 1 {
		t.Errorf("usage = %+v", u)
	}
	if got := srv.header(0).Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	b := srv.body(0)
	fn := at(b, "tools").([]any)[0]
	if at(fn, "function", "strict") != true || at(b, "parallel_tool_calls") != false {
		t.Errorf("OpenAI tools must be strict with parallel_tool_calls false: %v", b)
	}
	params := at(fn, "function", "parameters")
	if at(params, "additionalProperties") != false || len(at(params, "required").([]any)) != 2 {
		t.Errorf("strict parameters = %v", params)
	}
	if unit := at(params, "properties", "unit", "type"); len(unit.([]any)) != 2 {
		t.Errorf("the optional unit must become nullable, got type %v", unit)
	}
	if at(b, "max_completion_tokens") != 256.0 || has(b, "max_tokens") || has(b, "temperature") {
		t.Errorf("OpenAI limits = %v", b)
	}
}

func TestStreamSplitToolArguments(t *testing.T) {
	srv := newReplay(t, step{path: "POST /v1/chat/completions", sse: true, body: fixture(t, "chat_completion_stream_tool_call_split_args.sse")})
	c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
	s, err := c.ChatStream(context.Background(), ChatRequest{
		Messages: []Message{{Role: "user", Content: "weather in Mexico City?"}}, Temperature: Temperature(0),
	})
	if err != nil {
		t.Fatal(err)
	}
	var pieces []string
	for d, err := range s.Deltas() {
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range d.ToolCalls {
			pieces = append(pieces, tc.Arguments)
		}
	}
	if got := strings.Join(pieces, "|"); got != `|{"|city|":"|Mexico| City|"}` {
		t.Errorf("argument pieces = %s", got)
	}
	res := s.Result()
	want := ToolCall{ID: "call_LwxJUB9KppVyogRRLQsamRJv", Name: "get_weather", Arguments: `{"city":"Mexico City"}`}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0] != want || res.FinishReason != "tool_calls" {
		t.Errorf("result = %+v", res)
	}
	if res.Usage.PromptTokens != 423 || res.Usage.CompletionTokens != 15 || res.Usage.Estimated || res.Usage.Failed {
		t.Errorf("usage = %+v", res.Usage)
	}
	b := srv.body(0)
	if b["stream"] != true || at(b, "stream_options", "include_usage") != true || b["temperature"] != 0.0 {
		t.Errorf("stream request = %v", b)
	}
}

func TestChatLogprobs(t *testing.T) {
	srv := newReplay(t, step{path: "POST /v1/chat/completions", body: fixture(t, "chat_completion_logprobs_docs_example.json")})
	c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
	res, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "Hello!"}}, TopLogprobs: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.Content != "Hello! How can I assist you today?" || len(res.Tokens) == 0 {
		t.Fatalf("result = %+v", res)
	}
	first := res.Tokens[0]
	if first.Token != "Hello" || len(first.Top) != 2 || first.Top[1] != (Candidate{"Hi", -1.3190403}) {
		t.Errorf("first token = %+v", first)
	}
	b := srv.body(0)
	if b["logprobs"] != true || b["top_logprobs"] != 20.0 {
		t.Errorf("logprobs request = logprobs %v top_logprobs %v (OpenAI caps at 20)", b["logprobs"], b["top_logprobs"])
	}
	if res.Usage.Estimated || res.Usage.PromptTokens != 9 {
		t.Errorf("the docs example has usage; got %+v", res.Usage)
	}
}

func TestEmbeddingsBatched(t *testing.T) {
	one := fixture(t, "embeddings_text-embedding-3-small_256d.json")
	srv := newReplay(t,
		// The batches are sent at once, so either may come first: both
		// carry two vectors.
		step{path: "POST /v1/embeddings", body: embeddingsBody(t, one, 2)},
		step{path: "POST /v1/embeddings", body: embeddingsBody(t, one, 2)},
	)
	ep := endpoint(RoleEmbedding, srv.url(), ServerOpenAI)
	ep.BatchSize, ep.Dimensions = 2, 256
	c := newClient(t, ep)
	var mu sync.Mutex
	var recorded []Usage
	ctx := WithUsageRecorder(context.Background(), func(u Usage) { mu.Lock(); recorded = append(recorded, u); mu.Unlock() })
	got, err := c.Embeddings(ctx, []string{"Hello world", "Bonjour", "Hallo", "Ciao"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Vectors) != 4 || len(got.Vectors[3]) != 256 || got.Vectors[0][0] != -0.0039325873 {
		t.Fatalf("vectors: %d, dims %d", len(got.Vectors), len(got.Vectors[2]))
	}
	if got.Usage.PromptTokens != 4 || got.Usage.Estimated || got.Usage.Attempts != 2 {
		t.Errorf("usage = %+v", got.Usage)
	}
	if len(recorded) != 1 || recorded[0].Call != "embeddings" {
		t.Errorf("recorded = %+v", recorded)
	}
	b := srv.body(0)
	if in := b["input"].([]any); len(in) != 2 || b["dimensions"] != 256.0 || b["model"] != "test-model" || has(b, "user") {
		t.Errorf("embeddings request = %v", b)
	}
}

// embeddingsBody repeats the recorded body's vector n times, renumbered.
func embeddingsBody(t *testing.T, recorded []byte, n int) []byte {
	var resp map[string]any
	if err := json.Unmarshal(recorded, &resp); err != nil {
		t.Fatal(err)
	}
	item := resp["data"].([]any)[0].(map[string]any)
	var data []any
	for i := range n {
		c := map[string]any{}
		for k, v := range item {
			c[k] = v
		}
		c["index"] = i
		data = append(data, c)
	}
	resp["data"] = data
	b, _ := json.Marshal(resp)
	return b
}

func TestEmbeddingsRefusesWrongCount(t *testing.T) {
	srv := newReplay(t, step{path: "POST /v1/embeddings", body: fixture(t, "embeddings_text-embedding-3-small_256d.json")})
	c := newClient(t, endpoint(RoleEmbedding, srv.url(), ServerOpenAI))
	_, err := c.Embed(context.Background(), []string{"a", "b"})
	if !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), "asked for 2 embeddings, got 1") {
		t.Errorf("err = %v", err)
	}
}

func TestInvalidKeyOneClearLine(t *testing.T) {
	srv := newReplay(t, step{path: "POST /v1/chat/completions", status: 401, body: fixture(t, "error_401_invalid_api_key.json")})
	c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
	_, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "hi"}}})
	if !errors.Is(err, ErrAuth) {
		t.Fatalf("err = %v, want ErrAuth", err)
	}
	msg := err.Error()
	t.Log(msg)
	for _, want := range []string{"chat model", srv.url(), "API key rejected", "HTTP 401", "invalid_api_key", "GEAR_CHAT_API_KEY"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %s", want, msg)
		}
	}
	for _, secret := range []string{testKey, "F18b", "XdwS", "****"} {
		if strings.Contains(msg, secret) {
			t.Errorf("message shows key material %q: %s", secret, msg)
		}
	}
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("message is not one line: %q", msg)
	}
}

// With only OPENAI_BASE_URL (and a key) set, every role reaches the local
// server with the default models.
func TestOpenAIBaseURLRoundTrip(t *testing.T) {
	srv := newReplay(t,
		step{path: "POST /v1/chat/completions", body: fixture(t, "chat_completion_tool_calls.json")},
		step{path: "POST /v1/chat/completions", sse: true, body: fixture(t, "chat_completion_stream_tool_call_split_args.sse")},
		step{path: "POST /v1/embeddings", body: fixture(t, "embeddings_text-embedding-3-small_256d.json")},
	)
	env := map[string]string{"OPENAI_BASE_URL": srv.url(), "OPENAI_API_KEY": testKey, "HOME": t.TempDir()}
	cfg, err := config.Load("", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	chat := newClient(t, Resolve(cfg, RoleChat))
	embed := newClient(t, Resolve(cfg, RoleEmbedding))
	ctx := context.Background()
	msgs := []Message{{Role: "user", Content: "weather in Boston?"}}
	if _, err := chat.Chat(ctx, ChatRequest{Messages: msgs, Tools: []ToolDef{weatherTool}}); err != nil {
		t.Fatal(err)
	}
	s, err := chat.ChatStream(ctx, ChatRequest{Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range s.Deltas() {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := embed.Embed(ctx, []string{"Hello world"}); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{DefaultChatModel, DefaultChatModel, DefaultEmbeddingModel} {
		if got := srv.body(i)["model"]; got != want {
			t.Errorf("request %d model = %v, want %s", i, got, want)
		}
		if got := srv.header(i).Get("Authorization"); got != "Bearer "+testKey {
			t.Errorf("request %d Authorization = %q", i, got)
		}
	}
	// a generic server: no strict tools, max_tokens rather than max_completion_tokens.
	if b := srv.body(0); has(b, "parallel_tool_calls") || b["max_tokens"] != 1024.0 {
		t.Errorf("generic chat request = %v", b)
	}
}

func TestOllamaStreamVariation(t *testing.T) {
	srv := newReplay(t, step{path: "POST /v1/chat/completions", sse: true, body: fixture(t, "ollama_v1_stream_excerpt_first_and_last_chunk.sse")})
	ep := endpoint(RoleChat, srv.url(), ServerOllama)
	ep.APIKey, ep.KeyFrom = "", "none"
	c := newClient(t, ep)
	s, err := c.ChatStream(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "think"}}})
	if err != nil {
		t.Fatal(err)
	}
	var deltas []Delta
	for d, err := range s.Deltas() {
		if err != nil {
			t.Fatal(err)
		}
		deltas = append(deltas, d)
	}
	// the reasoning-only first chunk carries nothing gear shows; the last
	// one carries the finish reason.
	if len(deltas) != 1 || deltas[0].FinishReason != "length" {
		t.Errorf("deltas = %+v", deltas)
	}
	u := s.Result().Usage
	if !u.Estimated || u.PromptTokens != 2 || u.Server != ServerOllama {
		t.Errorf("usage = %+v (Ollama sends none: estimated)", u)
	}
	if srv.header(0).Get("Authorization") != "" {
		t.Error("no key configured, yet an Authorization header was sent")
	}
}

func TestLlamaCppStreamVariation(t *testing.T) {
	srv := newReplay(t, step{path: "POST /v1/chat/completions", sse: true, body: fixture(t, "llamacpp_v1_chat_stream.constructed.sse")})
	c := newClient(t, endpoint(RoleChat, srv.url(), ServerLlamaCpp))
	s, err := c.ChatStream(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "48*4/2?"}}})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for {
		d, err := s.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		text.WriteString(d.Content)
	}
	res := s.Result()
	if text.String() != "It is 96." || res.Content != "It is 96." || res.FinishReason != "stop" {
		t.Errorf("text %q result %+v", text.String(), res)
	}
	if res.Usage.PromptTokens != 44 || res.Usage.CompletionTokens != 3 || res.Usage.Estimated {
		t.Errorf("usage = %+v", res.Usage)
	}
	if _, err := s.Recv(); err != io.EOF {
		t.Errorf("Recv after the end = %v, want io.EOF", err)
	}
}

func TestCompleteIsGreedyWithRoleLimits(t *testing.T) {
	for _, kind := range ServerKinds() {
		t.Run(string(kind), func(t *testing.T) {
			srv := newReplay(t, step{path: "POST /v1/chat/completions", body: fixture(t, "chat_completion_logprobs_docs_example.json")})
			ep := endpoint(RoleGrounding, srv.url(), kind)
			ep.MaxTokens, ep.Stop = 64, []string{"\n"}
			c := newClient(t, ep)
			var got []Usage
			ctx := WithUsageRecorder(context.Background(), func(u Usage) { got = append(got, u) })
			text, err := c.Complete(ctx, "Q: say hello\nA:")
			if err != nil || text != "Hello! How can I assist you today?" {
				t.Fatalf("Complete = %q, %v", text, err)
			}
			b := srv.body(0)
			if v, ok := b["temperature"]; !ok || v != 0.0 {
				t.Errorf("temperature must be sent as 0, body %v", b)
			}
			limit := "max_tokens"
			if kind == ServerOpenAI {
				limit = "max_completion_tokens"
			}
			if b[limit] != 64.0 || len(b["stop"].([]any)) != 1 {
				t.Errorf("limits = %v", b)
			}
			if len(got) != 1 || got[0].Role != RoleGrounding || got[0].Call != "chat" {
				t.Errorf("recorded usage = %+v", got)
			}
		})
	}
}
