package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"
)

func TestNextTokens(t *testing.T) {
	cases := []struct {
		name string
		kind ServerKind
		path string
		body string
		req  NextTokenRequest
		want []Candidate
		// check looks at the request body.
		check func(t *testing.T, b map[string]any)
	}{
		{"llama.cpp completions, chat-shaped logprobs", ServerLlamaCpp, "POST /v1/completions", "llamacpp_v1_completions_logprobs.constructed.json",
			NextTokenRequest{Prompt: "Q: what is 2+2?\nA: ", Prefix: "", TopK: 3},
			[]Candidate{{"Calc", -0.0123}, {"Wiki", -4.61}, {"Time", -5.37}},
			func(t *testing.T, b map[string]any) {
				if b["max_tokens"] != 1.0 || b["logprobs"] != 3.0 || b["temperature"] != 0.0 || b["prompt"] != "Q: what is 2+2?\nA: " {
					t.Errorf("body = %v", b)
				}
			}},
		{"vLLM completions, legacy logprobs", ServerVLLM, "POST /v1/completions", "completions_legacy_logprobs.constructed.json",
			NextTokenRequest{Prompt: "The tool for 2+2 is", Prefix: "", TopK: 3},
			[]Candidate{{" Calculator", -0.105}, {" Wiki", -2.41}, {" Timezone", -4.02}}, nil},
		{"chat with prefill", ServerLlamaCpp, "POST /v1/chat/completions", "chat_completion_logprobs_docs_example.json",
			NextTokenRequest{Messages: []Message{{Role: "user", Content: "Hello!"}}, Prefix: "He", TopK: 2},
			[]Candidate{{"Hello", -0.31725305}, {"Hi", -1.3190403}},
			func(t *testing.T, b map[string]any) {
				msgs := b["messages"].([]any)
				if b["max_tokens"] != 1.0 || b["top_logprobs"] != 2.0 || b["logprobs"] != true || at(msgs[1], "content") != "He" || has(b, "stop") {
					t.Errorf("body = %v", b)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newReplay(t, step{path: tc.path, body: fixture(t, tc.body)})
			ep := endpoint(RoleChat, srv.url(), tc.kind)
			ep.Stop = []string{"\n"}
			c := newClient(t, ep)
			got, err := c.NextTokens(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Candidates, tc.want) {
				t.Errorf("candidates = %v, want %v", got.Candidates, tc.want)
			}
			if got.Usage.Call != "next_token" {
				t.Errorf("usage = %+v", got.Usage)
			}
			if tc.check != nil {
				tc.check(t, srv.body(0))
			}
		})
	}
	t.Run("OpenAI cannot continue a prefix", func(t *testing.T) {
		c := newClient(t, endpoint(RoleChat, newReplay(t).url(), ServerOpenAI))
		_, err := c.NextTokens(context.Background(), NextTokenRequest{Messages: []Message{{Role: "user", Content: "x"}}, Prefix: "Calc"})
		if !errors.Is(err, ErrUnsupported) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("no logprobs in the answer", func(t *testing.T) {
		srv := newReplay(t, step{path: "POST /v1/chat/completions", body: fixture(t, "chat_completion_tool_calls.json")})
		c := newClient(t, endpoint(RoleChat, srv.url(), ServerOllama))
		_, err := c.NextTokens(context.Background(), NextTokenRequest{Messages: []Message{{Role: "user", Content: "x"}}})
		if !errors.Is(err, ErrUnsupported) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("go-openai refuses a chat model on completions", func(t *testing.T) {
		ep := endpoint(RoleGrounding, newReplay(t).url(), ServerOpenAI)
		ep.Model, ep.API = "gpt-4o-mini", "completions"
		c := newClient(t, ep)
		_, err := c.Complete(context.Background(), "x")
		if !errors.Is(err, ErrUnsupported) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestCompleteOnCompletionsAPI(t *testing.T) {
	srv := newReplay(t, step{path: "POST /v1/completions", body: fixture(t, "completions_legacy_logprobs.constructed.json")})
	ep := endpoint(RoleGrounding, srv.url(), ServerVLLM)
	ep.API = "completions"
	c := newClient(t, ep)
	text, u, err := c.CompleteUsage(context.Background(), "The tool for 2+2 is")
	if err != nil || text != "Calculator" || u.PromptTokens != 9 || u.CompletionTokens != 1 || u.Call != "completion" {
		t.Errorf("CompleteUsage = %q, %+v, %v", text, u, err)
	}
	if b := srv.body(0); b["temperature"] != 0.0 || has(b, "logprobs") {
		t.Errorf("body = %v", b)
	}
}

// A base URL that names no kind is probed once, and only when a call needs
// the kind: here llama.cpp's owned_by sends the schema as its top-level
// json_schema.
func TestServerKindProbe(t *testing.T) {
	srv := newReplay(t,
		step{path: "POST /v1/chat/completions", body: fixture(t, "chat_completion_tool_calls.json")},
		step{path: "GET /v1/models", body: fixture(t, "llamacpp_v1_models.constructed.json")},
		step{path: "POST /v1/chat/completions", body: fixture(t, "chat_completion_tool_calls.json")},
		step{path: "POST /v1/chat/completions", body: fixture(t, "chat_completion_tool_calls.json")},
	)
	ep := endpoint(RoleChat, srv.url(), "")
	ep.Server, ep.ServerFrom = DetectServer(ep.BaseURL)
	c := newClient(t, ep)
	ctx := context.Background()
	if _, err := c.Chat(ctx, hi); err != nil {
		t.Fatal(err)
	}
	guided := ChatRequest{Messages: hi.Messages, Guide: &Guide{JSONSchema: callSchema}}
	for range 2 {
		if _, err := c.Chat(ctx, guided); err != nil {
			t.Fatal(err)
		}
	}
	if b := srv.body(2); !has(b, "json_schema") || has(b, "response_format") {
		t.Errorf("after the probe, body = %v", b)
	}
	if c.Capabilities(ctx).Server != ServerLlamaCpp {
		t.Errorf("capabilities = %+v", c.Capabilities(ctx))
	}
}

func TestMergeJSON(t *testing.T) {
	got, err := mergeJSON([]byte(`{"model":"m","temperature":0.5,"user":"","stream":true}`),
		map[string]any{"temperature": 0.0, "grammar": `root ::= "a"`}, []string{"user"})
	if err != nil || string(got) != `{"grammar":"root ::= \"a\"","model":"m","stream":true,"temperature":0}` {
		t.Errorf("mergeJSON = %s, %v", got, err)
	}
	if _, err := mergeJSON([]byte(`[1]`), map[string]any{"a": 1}, nil); err == nil {
		t.Error("a non-object body was accepted")
	}
}

func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{map[string]string{"Retry-After": "7"}, 7 * time.Second, true},
		{map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond, true},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond, true},
		{map[string]string{"Retry-After": now.Add(3 * time.Second).Format(http.TimeFormat)}, 3 * time.Second, true},
		{map[string]string{"Retry-After": "soon"}, 0, false},
		{map[string]string{"Retry-After": "-4"}, 0, false},
		{map[string]string{}, 0, false},
	}
	for _, tc := range cases {
		h := http.Header{}
		for k, v := range tc.header {
			h.Set(k, v)
		}
		got, ok := retryAfter(h, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("retryAfter(%v) = %v, %v; want %v, %v", tc.header, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzCompletionLogprobs(f *testing.F) {
	f.Add(fixture(f, "llamacpp_v1_completions_logprobs.constructed.json"))
	f.Add(fixture(f, "completions_legacy_logprobs.constructed.json"))
	f.Add([]byte(`{"choices":[{"logprobs":{"tokens":["a","b"],"token_logprobs":[-1],"top_logprobs":[]}}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		tokens, err := completionLogprobs(body)
		if err != nil && tokens != nil {
			t.Errorf("tokens with an error: %v", tokens)
		}
	})
}

// answerBody is the recorded logprobs example with its content replaced.
func answerBody(t *testing.T, content string) []byte {
	var resp map[string]any
	if err := json.Unmarshal(fixture(t, "chat_completion_logprobs_docs_example.json"), &resp); err != nil {
		t.Fatal(err)
	}
	choice := resp["choices"].([]any)[0].(map[string]any)
	choice["message"].(map[string]any)["content"] = content
	delete(choice, "logprobs")
	b, _ := json.Marshal(resp)
	return b
}

func TestYesNoIsConstrained(t *testing.T) {
	cases := []struct {
		kind    ServerKind
		answer  string
		want    bool
		wantErr bool
		field   string // the request field carrying the constraint
	}{
		{ServerVLLM, "yes", true, false, "structured_outputs"},
		{ServerLlamaCpp, "no", false, false, "grammar"},
		{ServerOpenAI, `{"answer":"yes"}`, true, false, "response_format"},
		{ServerOllama, `{"answer":"no"}`, false, false, "response_format"},
		{ServerGeneric, "Sure! Here is a joke", false, true, "response_format"},
	}
	for _, tc := range cases {
		t.Run(string(tc.kind), func(t *testing.T) {
			srv := newReplay(t, step{path: "POST /v1/chat/completions", body: answerBody(t, tc.answer)})
			c := newClient(t, endpoint(RoleChat, srv.url(), tc.kind))
			got, err := c.YesNo(context.Background(), "Does this query need a tool? what is 2+2")
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("YesNo = %v, %v", got, err)
			}
			if tc.wantErr && !errors.Is(err, ErrBadResponse) {
				t.Errorf("err = %v", err)
			}
			if b := srv.body(0); !has(b, tc.field) || b["temperature"] != 0.0 {
				t.Errorf("body = %v", b)
			}
		})
	}
}
