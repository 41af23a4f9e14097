package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// ScriptedChatServer answers routing (yes), the call under the JSON schema
// and the streamed answer in the given pieces, from the recorded bodies in
// testdata/ask (see its PROVENANCE.md); any other request fails the test.
// The chat's tests and gear ask's (package cli_test) share it.
func ScriptedChatServer(t testing.TB, pieces ...string) *httptest.Server {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "ask", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	reply := func(content string) []byte {
		var v map[string]any
		if err := json.Unmarshal(read("chat_completion_tool_calls.json"), &v); err != nil {
			t.Fatal(err)
		}
		ch := v["choices"].([]any)[0].(map[string]any)
		msg := ch["message"].(map[string]any)
		msg["content"] = content
		delete(msg, "tool_calls")
		ch["finish_reason"] = "stop"
		b, _ := json.Marshal(v)
		return b
	}
	var events []string
	for _, ev := range strings.Split(string(read("chat_completion_stream_tool_call_split_args.sse")), "\n\n") {
		if ev = strings.TrimSpace(ev); ev != "" {
			events = append(events, ev)
		}
	}
	chunk := func(content string, finish any) string {
		var v map[string]any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(events[0], "data: ")), &v); err != nil {
			t.Fatal(err)
		}
		ch := v["choices"].([]any)[0].(map[string]any)
		ch["delta"], ch["finish_reason"] = map[string]any{"content": content}, finish
		b, _ := json.Marshal(v)
		return "data: " + string(b) + "\n\n"
	}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(raw, &body)
		rf, _ := body["response_format"].(map[string]any)
		schema, _ := rf["json_schema"].(map[string]any)
		switch name, _ := schema["name"].(string); {
		case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
			// gear's check that the server answers.
			w.Header().Set("Content-Type", "application/json")
			w.Write(read("llamacpp_v1_models.constructed.json"))
		case r.URL.Path != "/v1/chat/completions":
			t.Errorf("unexpected request %s", r.URL.Path)
			http.Error(w, "unexpected", http.StatusTeapot)
		case body["stream"] == true:
			w.Header().Set("Content-Type", "text/event-stream")
			fl := w.(http.Flusher)
			for _, p := range pieces {
				io.WriteString(w, chunk(p, nil))
				fl.Flush()
				// The pieces arrive apart, as a model writes them.
				time.Sleep(30 * time.Millisecond)
			}
			io.WriteString(w, chunk("", "stop")+events[len(events)-2]+"\n\ndata: [DONE]\n\n")
		case name == "yes_no":
			w.Write(reply(`{"answer":"yes"}`))
		case name == "gear_call":
			w.Write(reply(`{"call": {"tool": "Calculator", "args": {"expression": "48 * 4 / 2"}}}`))
		default:
			t.Errorf("unexpected request %.200s", raw)
			http.Error(w, "unexpected", http.StatusTeapot)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}
