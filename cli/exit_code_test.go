package cli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gear-chat/gear/cli"
)

// callServer is a chat model that routes to a tool (yes_no: yes) and then
// answers the call request with call (or with status, when not 200).
func callServer(t *testing.T, call string, status int) *httptest.Server {
	t.Helper()
	recorded, err := os.ReadFile(filepath.Join("testdata", "ask", "chat_completion_tool_calls.json"))
	if err != nil {
		t.Fatal(err)
	}
	reply := func(content string) []byte {
		var v map[string]any
		if err := json.Unmarshal(recorded, &v); err != nil {
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
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(raw, &body)
		rf, _ := body["response_format"].(map[string]any)
		schema, _ := rf["json_schema"].(map[string]any)
		switch name, _ := schema["name"].(string); {
		case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
			serveModelList(t, w)
		case body["stream"] == true:
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"It is 96."}}]}`+"\n\n"+
				`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
		case name == "yes_no":
			w.Write(reply(`{"answer":"yes"}`))
		case name == "gear_call" && status != http.StatusOK:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, `{"error":{"message":"upstream failed","type":"server_error"}}`)
		case name == "gear_call":
			w.Write(reply(call))
		case name == "" && strings.Contains(string(raw), "exactly one call"):
			// The repair prompt: the model does no better in plain text.
			w.Write(reply("Calculator(48 ** ** / 2)"))
		default:
			t.Errorf("unexpected request %.200s", raw)
			http.Error(w, "unexpected", http.StatusTeapot)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// One rule for a turn that did not answer: a call gear could not write
// exits 1, as a server failure in the same step does; an answer exits 0.
func TestAskExitCodeOfATurnThatDidNotAnswer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		call   string
		status int
		code   int
		says   string
	}{
		{"a valid call", `{"call": {"tool": "Calculator", "args": {"expression": "48 * 4 / 2"}}}`, http.StatusOK, cli.ExitOK, "It is 96."},
		{"no valid call", `{"call": {"tool": "Calculator", "args": {"expression": "48 ** ** / 2"}}}`, http.StatusOK, cli.ExitFailure, "could not write a valid call"},
		{"a 5xx", "", http.StatusInternalServerError, cli.ExitFailure, "server error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := callServer(t, c.call, c.status)
			env := map[string]string{"GEAR_CHAT_MODEL": "test-model", "GEAR_CHAT_BASE_URL": srv.URL + "/v1", "GEAR_CHAT_SERVER": "openai"}
			hc := &http.Client{Transport: onlyHost{t, strings.TrimPrefix(srv.URL, "http://")}}
			code, stdout, stderr := runAskHTTP(t, hc, env, "ask", "what is 48 multiplied by 4 divided by 2")
			if code != c.code || !strings.Contains(stdout+stderr, c.says) {
				t.Errorf("exit %d (want %d), stdout %q, stderr %q", code, c.code, stdout, stderr)
			}
		})
	}
}
