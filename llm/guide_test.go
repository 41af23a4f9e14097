package llm

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

var callSchema = json.RawMessage(`{"type":"object","properties":{"tool":{"type":"string","enum":["Calculator","WikiSearch"]},"args":{"type":"object","properties":{"expression":{"type":"string"}}}},"required":["tool"]}`)

// The exact guided-decoding fields gear sends, per server kind and mode.
func TestGuidedDecodingRequestBodies(t *testing.T) {
	msgs := []Message{{Role: "user", Content: "what is 48 multiplied by 4 divided by 2"}}
	cases := []struct {
		name  string
		kind  ServerKind
		req   ChatRequest
		check func(t *testing.T, b map[string]any)
	}{
		{"openai json schema is strict", ServerOpenAI, ChatRequest{Guide: &Guide{Name: "call", JSONSchema: callSchema}},
			func(t *testing.T, b map[string]any) {
				rf := at(b, "response_format")
				if at(rf, "type") != "json_schema" || at(rf, "json_schema", "strict") != true || at(rf, "json_schema", "name") != "call" {
					t.Errorf("response_format = %v", rf)
				}
				schema := at(rf, "json_schema", "schema")
				if at(schema, "additionalProperties") != false || at(schema, "properties", "args", "additionalProperties") != false {
					t.Errorf("schema not strict: %v", schema)
				}
				if req := at(schema, "required").([]any); !reflect.DeepEqual(req, []any{"args", "tool"}) {
					t.Errorf("required = %v", req)
				}
				noneOf(t, b, "grammar", "json_schema", "structured_outputs")
			}},
		{"ollama json schema via response_format", ServerOllama, ChatRequest{Guide: &Guide{JSONSchema: callSchema}},
			func(t *testing.T, b map[string]any) {
				rf := at(b, "response_format")
				if at(rf, "type") != "json_schema" || at(rf, "json_schema", "name") != "gear_output" {
					t.Errorf("response_format = %v", rf)
				}
				if has(at(rf, "json_schema", "schema").(map[string]any), "additionalProperties") {
					t.Error("only OpenAI's schema is rewritten strict")
				}
				noneOf(t, b, "grammar", "json_schema", "structured_outputs")
			}},
		{"lmstudio json schema via response_format", ServerLMStudio, ChatRequest{Guide: &Guide{JSONSchema: callSchema}},
			func(t *testing.T, b map[string]any) {
				if at(b, "response_format", "type") != "json_schema" {
					t.Errorf("body = %v", b)
				}
			}},
		{"llamacpp json schema at top level", ServerLlamaCpp, ChatRequest{Guide: &Guide{JSONSchema: callSchema}},
			func(t *testing.T, b map[string]any) {
				if at(b, "json_schema", "type") != "object" {
					t.Errorf("json_schema = %v", b["json_schema"])
				}
				noneOf(t, b, "grammar", "response_format", "structured_outputs")
			}},
		{"llamacpp grammar", ServerLlamaCpp, ChatRequest{Guide: &Guide{Grammar: `root ::= "Calculator(" [0-9+*/ -]+ ")"`}},
			func(t *testing.T, b map[string]any) {
				if b["grammar"] != `root ::= "Calculator(" [0-9+*/ -]+ ")"` {
					t.Errorf("grammar = %v", b["grammar"])
				}
				noneOf(t, b, "json_schema", "response_format", "structured_outputs")
			}},
		{"llamacpp choice as grammar", ServerLlamaCpp, ChatRequest{Guide: &Guide{Choice: []string{"yes", `no "way"`}}},
			func(t *testing.T, b map[string]any) {
				if b["grammar"] != `root ::= "yes" | "no \"way\""` {
					t.Errorf("grammar = %v", b["grammar"])
				}
			}},
		{"vllm regex", ServerVLLM, ChatRequest{Guide: &Guide{Regex: `Calculator\([0-9+*/ -]+\)`}},
			func(t *testing.T, b map[string]any) {
				if at(b, "structured_outputs", "regex") != `Calculator\([0-9+*/ -]+\)` {
					t.Errorf("structured_outputs = %v", b["structured_outputs"])
				}
				noneOf(t, b, "guided_regex", "guided_json", "guided_choice", "guided_grammar", "response_format", "grammar")
			}},
		{"vllm json", ServerVLLM, ChatRequest{Guide: &Guide{JSONSchema: callSchema}},
			func(t *testing.T, b map[string]any) {
				if at(b, "structured_outputs", "json", "type") != "object" {
					t.Errorf("structured_outputs = %v", b["structured_outputs"])
				}
			}},
		{"vllm choice", ServerVLLM, ChatRequest{Guide: &Guide{Choice: []string{"yes", "no"}}},
			func(t *testing.T, b map[string]any) {
				if !reflect.DeepEqual(at(b, "structured_outputs", "choice"), []any{"yes", "no"}) {
					t.Errorf("structured_outputs = %v", b["structured_outputs"])
				}
				noneOf(t, b, "guided_choice")
			}},
		{"vllm grammar", ServerVLLM, ChatRequest{Guide: &Guide{Grammar: `root ::= "a"`}},
			func(t *testing.T, b map[string]any) {
				if at(b, "structured_outputs", "grammar") != `root ::= "a"` {
					t.Errorf("structured_outputs = %v", b["structured_outputs"])
				}
			}},
		{"vllm prefill continues the final message", ServerVLLM, ChatRequest{Prefill: "Calculator("},
			func(t *testing.T, b map[string]any) {
				msgs := b["messages"].([]any)
				last := msgs[len(msgs)-1]
				if at(last, "role") != "assistant" || at(last, "content") != "Calculator(" ||
					b["continue_final_message"] != true || b["add_generation_prompt"] != false {
					t.Errorf("body = %v", b)
				}
			}},
		{"llamacpp prefill is a trailing assistant message", ServerLlamaCpp, ChatRequest{Prefill: "Calculator("},
			func(t *testing.T, b map[string]any) {
				msgs := b["messages"].([]any)
				if at(msgs[len(msgs)-1], "role") != "assistant" || has(b, "continue_final_message") {
					t.Errorf("body = %v", b)
				}
			}},
		{"logit bias where supported", ServerLlamaCpp, ChatRequest{LogitBias: map[string]int{"15043": -100}},
			func(t *testing.T, b map[string]any) {
				if at(b, "logit_bias", "15043") != -100.0 {
					t.Errorf("logit_bias = %v", b["logit_bias"])
				}
			}},
		{"extra fields merged last", ServerGeneric, ChatRequest{Temperature: Temperature(0.7), Extra: map[string]any{"temperature": 0.2, "chat_template_kwargs": map[string]any{"enable_thinking": false}}},
			func(t *testing.T, b map[string]any) {
				if b["temperature"] != 0.2 || at(b, "chat_template_kwargs", "enable_thinking") != false {
					t.Errorf("body = %v", b)
				}
			}},
		{"forced tool choice", ServerOpenAI, ChatRequest{Tools: []ToolDef{weatherTool}, ToolChoice: "getCurrentWeather", Guide: &Guide{JSONSchema: callSchema}},
			func(t *testing.T, b map[string]any) {
				if at(b, "tool_choice", "function", "name") != "getCurrentWeather" || at(b, "response_format", "type") != "json_schema" {
					t.Errorf("body = %v", b)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newReplay(t, step{path: "POST /v1/chat/completions", body: fixture(t, "chat_completion_tool_calls.json")})
			c := newClient(t, endpoint(RoleChat, srv.url(), tc.kind))
			tc.req.Messages = msgs
			if _, err := c.Chat(context.Background(), tc.req); err != nil {
				t.Fatal(err)
			}
			tc.check(t, srv.body(0))
		})
	}
}

func noneOf(t *testing.T, b map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if has(b, k) {
			t.Errorf("body has %q: %v", k, b[k])
		}
	}
}

// What a server cannot do fails before any request is sent.
func TestUnsupportedGuidesSendNothing(t *testing.T) {
	cases := []struct {
		name string
		kind ServerKind
		req  ChatRequest
	}{
		{"openai regex", ServerOpenAI, ChatRequest{Guide: &Guide{Regex: "a+"}}},
		{"openai grammar", ServerOpenAI, ChatRequest{Guide: &Guide{Grammar: `root ::= "a"`}}},
		{"ollama choice", ServerOllama, ChatRequest{Guide: &Guide{Choice: []string{"yes", "no"}}}},
		{"llamacpp regex", ServerLlamaCpp, ChatRequest{Guide: &Guide{Regex: "a+"}}},
		{"llamacpp guide with tools", ServerLlamaCpp, ChatRequest{Tools: []ToolDef{weatherTool}, Guide: &Guide{JSONSchema: callSchema}}},
		{"openai prefill", ServerOpenAI, ChatRequest{Prefill: "Calculator("}},
		{"lmstudio logprobs", ServerLMStudio, ChatRequest{TopLogprobs: 5}},
		{"ollama logit bias", ServerOllama, ChatRequest{LogitBias: map[string]int{"1": 1}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newReplay(t)
			c := newClient(t, endpoint(RoleChat, srv.url(), tc.kind))
			tc.req.Messages = []Message{{Role: "user", Content: "x"}}
			_, err := c.Chat(context.Background(), tc.req)
			if !errors.Is(err, ErrUnsupported) {
				t.Errorf("err = %v, want ErrUnsupported", err)
			}
		})
	}
	t.Run("two guides at once", func(t *testing.T) {
		srv := newReplay(t)
		c := newClient(t, endpoint(RoleChat, srv.url(), ServerLlamaCpp))
		_, err := c.Chat(context.Background(), ChatRequest{Guide: &Guide{Grammar: `root ::= "a"`, JSONSchema: callSchema}})
		if !errors.Is(err, ErrBadRequest) {
			t.Errorf("err = %v, want ErrBadRequest (grammar and json_schema together)", err)
		}
	})
}

func TestStrictSchema(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`,
			`{"additionalProperties":false,"properties":{"a":{"type":"string"}},"required":["a"],"type":"object"}`},
		{`{"type":"object","properties":{"n":{"type":"integer"}}}`,
			`{"additionalProperties":false,"properties":{"n":{"type":["integer","null"]}},"required":["n"],"type":"object"}`},
		{`{"type":"object","properties":{"u":{"type":"string","enum":["c","f"]}}}`,
			`{"additionalProperties":false,"properties":{"u":{"enum":["c","f",null],"type":["string","null"]}},"required":["u"],"type":"object"}`},
		{`{"type":"object","properties":{"x":{"anyOf":[{"type":"number"},{"type":"string"}]}}}`,
			`{"additionalProperties":false,"properties":{"x":{"anyOf":[{"anyOf":[{"type":"number"},{"type":"string"}]},{"type":"null"}]}},"required":["x"],"type":"object"}`},
		{`{"type":"array","items":{"type":"object","properties":{"k":{"type":"number"}},"required":["k"]}}`,
			`{"items":{"additionalProperties":false,"properties":{"k":{"type":"number"}},"required":["k"],"type":"object"},"type":"array"}`},
		{`{"type":"object"}`, `{"additionalProperties":false,"properties":{},"required":[],"type":"object"}`},
	}
	for _, tc := range cases {
		got, err := StrictSchema(json.RawMessage(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("StrictSchema(%s)\n got %s, %v\nwant %s", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{``, `[1]`, `{"type":`} {
		if _, err := StrictSchema(json.RawMessage(bad)); err == nil {
			t.Errorf("StrictSchema(%q) accepted", bad)
		}
	}
}

func FuzzStrictSchema(f *testing.F) {
	f.Add(string(callSchema))
	f.Add(`{"type":"object","properties":{"a":{"type":["string"]},"b":{"$ref":"#/$defs/b"}},"$defs":{"b":{"type":"object"}}}`)
	f.Add(`{"properties":{"a":null},"required":[1,"a"],"items":3,"anyOf":{}}`)
	f.Fuzz(func(t *testing.T, in string) {
		out, err := StrictSchema(json.RawMessage(in))
		if err == nil && !json.Valid(out) {
			t.Errorf("StrictSchema(%q) = invalid JSON %s", in, out)
		}
	})
}
