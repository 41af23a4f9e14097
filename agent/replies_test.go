package agent

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/tools"
)

// --- answers derived from the recorded bodies ---

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fixtureJSON(t testing.TB, name string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(fixture(t, name), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// chatReply is the recorded chat completion with its message's content
// set to content (and its tool call removed).
func chatReply(t testing.TB, content, finish string) reply {
	v := fixtureJSON(t, "chat_completion_tool_calls.json")
	ch := v["choices"].([]any)[0].(map[string]any)
	msg := ch["message"].(map[string]any)
	msg["content"] = content
	delete(msg, "tool_calls")
	if finish == "" {
		finish = "stop"
	}
	ch["finish_reason"] = finish
	return reply{body: mustJSON(t, v)}
}

// cand is a candidate next token.
type cand struct {
	tok string
	lp  float64
}

// stepReply is the documented logprobs example cut to one generated token
// with the given candidates, most probable first.
func stepReply(t testing.TB, cands ...cand) reply {
	v := fixtureJSON(t, "chat_completion_logprobs_docs_example.json")
	ch := v["choices"].([]any)[0].(map[string]any)
	ch["message"].(map[string]any)["content"] = cands[0].tok
	ch["finish_reason"] = "length"
	var top []any
	for _, c := range cands {
		top = append(top, map[string]any{"token": c.tok, "logprob": c.lp, "bytes": []byte(c.tok)})
	}
	ch["logprobs"] = map[string]any{"content": []any{map[string]any{"token": cands[0].tok, "logprob": cands[0].lp,
		"bytes": []byte(cands[0].tok), "top_logprobs": top}}}
	return reply{body: mustJSON(t, v)}
}

// streamChunks are the recorded stream's lines: its first chunk (the
// template of a content delta), its tool-call chunks, and its usage chunk.
func streamChunks(t testing.TB) (first map[string]any, toolCall []string, usage string) {
	var lines []string
	for _, ev := range strings.Split(string(fixture(t, "chat_completion_stream_tool_call_split_args.sse")), "\n\n") {
		ev = strings.TrimPrefix(strings.TrimSpace(ev), "data: ")
		if ev != "" && ev != "[DONE]" {
			lines = append(lines, ev)
		}
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	return first, lines[:len(lines)-1], lines[len(lines)-1]
}

// contentChunk is the recorded first chunk carrying a content delta.
func contentChunk(t testing.TB, content string, finish any) string {
	first, _, _ := streamChunks(t)
	ch := first["choices"].([]any)[0].(map[string]any)
	ch["delta"] = map[string]any{"content": content}
	if content == "" {
		ch["delta"] = map[string]any{}
	}
	ch["finish_reason"] = finish
	return string(mustJSON(t, first))
}

// streamReply streams pieces of answer text, then a stop and the recorded
// usage chunk.
func streamReply(t testing.TB, pieces ...string) reply {
	_, _, usage := streamChunks(t)
	var evs []string
	for _, p := range pieces {
		evs = append(evs, contentChunk(t, p, nil))
	}
	evs = append(evs, contentChunk(t, "", "stop"), usage)
	return reply{events: evs}
}

// streamWithToolCall streams pieces of text and then the recorded tool
// call (get_weather, arguments in pieces, finish_reason tool_calls).
func streamWithToolCall(t testing.TB, pieces ...string) reply {
	_, calls, usage := streamChunks(t)
	var evs []string
	for _, p := range pieces {
		evs = append(evs, contentChunk(t, p, nil))
	}
	evs = append(append(evs, calls...), usage)
	return reply{events: evs}
}

// embedReply is the recorded embeddings answer with one entry per input;
// each vector folds the offline engine's lexical vector of the text into
// the recorded 256 dimensions, so similar texts get similar vectors.
func embedReply(t testing.TB, enc *offline.Engine, inputs []string) reply {
	v := fixtureJSON(t, "embeddings_text-embedding-3-small_256d.json")
	tmpl := v["data"].([]any)[0].(map[string]any)
	dims := len(tmpl["embedding"].([]any))
	vecs, err := enc.Embed(context.Background(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	var data []any
	for i, vec := range vecs {
		folded := make([]float64, dims)
		for j, x := range vec {
			folded[j%dims] += float64(x)
		}
		var norm float64
		for _, x := range folded {
			norm += x * x
		}
		if norm = math.Sqrt(norm); norm > 0 {
			for j := range folded {
				folded[j] /= norm
			}
		}
		data = append(data, map[string]any{"object": tmpl["object"], "index": i, "embedding": folded})
	}
	v["data"] = data
	return reply{body: mustJSON(t, v)}
}

// --- a model that answers well, built on the offline engine's rules ---

// goodModel answers every kind the way a capable model would: the small
// model's calls and preliminary answers are the offline engine's, routing
// says yes, the emission is the offline engine's call of the asked tool in
// the form the guide asks for, and the answer streams in three pieces.
func goodModel(t testing.TB, lib *tools.Registry) map[reqKind]func(modelRequest) reply {
	eng := offline.New(offline.Options{Tools: lib.Specs()})
	return map[reqKind]func(modelRequest) reply{
		kindRoute: func(r modelRequest) reply { return yesNo(t, r, true) },
		kindPrelim: func(r modelRequest) reply {
			a, _ := eng.Preliminary(context.Background(), r.query)
			return chatReply(t, a, "")
		},
		kindProbe: func(r modelRequest) reply {
			spec, _ := lib.Spec(r.tool)
			c, _ := eng.Call(context.Background(), spec, r.query)
			return chatReply(t, c, "")
		},
		kindEmit: func(r modelRequest) reply {
			spec, _ := lib.Spec(r.tool)
			c, _ := eng.Call(context.Background(), spec, r.query)
			return chatReply(t, callIn(t, lib, c, r.guide), "")
		},
		kindAnswer: func(r modelRequest) reply {
			return streamReply(t, "Here is ", "what I found ", "with the tool.")
		},
		kindEmbed: func(r modelRequest) reply { return embedReply(t, eng, r.inputs) },
	}
}

// yesNo answers a routing request in the form its guide asks for.
func yesNo(t testing.TB, r modelRequest, yes bool) reply {
	a := map[bool]string{true: "yes", false: "no"}[yes]
	if r.guide == "choice" || r.guide == "grammar" {
		return chatReply(t, a, "")
	}
	return chatReply(t, `{"answer":"`+a+`"}`, "")
}

// callIn writes a canonical call the way a guided server returns it: the
// JSON schema's {"call": {...}} object, or the call itself.
func callIn(t testing.TB, lib *tools.Registry, canonical, guide string) string {
	if guide != "json_schema" || canonical == "" {
		return canonical
	}
	c, err := lib.Parse(canonical)
	if err != nil {
		t.Fatalf("scripted call %q: %v", canonical, err)
	}
	return `{"call": ` + c.JSON() + `}`
}
