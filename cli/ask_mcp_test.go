package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/tools/mcp"
)

// switchableServer is the SDK's server with add_numbers over streamable
// HTTP, which stops answering (holds every request open until the test
// ends) once hang is set: a server that never answers initialize.
func switchableServer(t *testing.T) (url, name string, hang *atomic.Bool) {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "adder", Version: "1"}, nil)
	type addIn struct {
		A float64 `json:"a" jsonschema:"the first number"`
		B float64 `json:"b" jsonschema:"the second number"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "add_numbers", Description: "Add two numbers together and return the sum", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, any, error) {
			b, _ := json.Marshal(in.A + in.B)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "The sum is " + string(b)}}}, nil, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	hang = &atomic.Bool{}
	done := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang.Load() {
			io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-done:
			}
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	t.Cleanup(func() { close(done) })
	srv, err := mcp.ParseFlag(hs.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	return hs.URL + "/mcp", srv.Name, hang
}

func writeConfig(t *testing.T, dir, body string) {
	t.Helper()
	cfg := filepath.Join(dir, "config", "gear", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAskDoesNotWaitForAServerThatCannotMatter: a configured server that
// never answers initialize (connect_timeout an hour: a gear ask that
// waited would never end) does not hold an answer the built-in tools give
// decisively; gear says it answered without it.
func TestAskDoesNotWaitForAServerThatCannotMatter(t *testing.T) {
	t.Parallel()
	url, name, hang := switchableServer(t)
	hang.Store(true)
	dir := t.TempDir()
	writeConfig(t, dir, "mcp:\n  connect_timeout: 1h\n  servers:\n    "+name+":\n      url: "+url+"\n")
	code, out, errOut := gearInHome(t, dir, "ask", "--offline", "what is 17 * 23")
	if code != cli.ExitOK || !strings.Contains(out, "391") {
		t.Fatalf("exit %d\n%s\nstderr: %s", code, out, errOut)
	}
	if !strings.Contains(errOut, "note: mcp server "+name+": still connecting, answered without it") {
		t.Errorf("stderr: %s", errOut)
	}
}

// TestAskWaitsForARememberedToolThatMayBeTheAnswer: once gear has listed
// the server's tools, a query its remembered add_numbers may answer waits
// for it — here until the connection attempt fails (connect_timeout 1s),
// which the failure note proves came before the answer — while a query
// it cannot answer does not wait.
func TestAskWaitsForARememberedToolThatMayBeTheAnswer(t *testing.T) {
	t.Parallel()
	url, name, hang := switchableServer(t)
	dir := t.TempDir()
	// Named with --mcp, never seen before: waited for, and remembered.
	// (--yes: a tool the engine scores by library relevance has the
	// library map's confidence, here under agent.confirm_below; what is
	// tested is the wait, not the gate.)
	code, out, errOut := gearInHome(t, dir, "ask", "--offline", "--yes", "add the numbers 2 and 3", "--mcp", url)
	if code != cli.ExitOK || !strings.Contains(out, "The sum is 5") {
		t.Fatalf("first run: exit %d\n%s\nstderr: %s", code, out, errOut)
	}

	hang.Store(true)
	writeConfig(t, dir, "mcp:\n  connect_timeout: 1s\n  servers:\n    "+name+":\n      url: "+url+"\n")
	code, out, errOut = gearInHome(t, dir, "ask", "--offline", "add the numbers 2 and 3")
	if code != cli.ExitOK || !strings.Contains(errOut, "note: mcp server "+name+" failed: no answer within 1s") || strings.Contains(errOut, "answered without it") {
		t.Errorf("remembered and close: exit %d\n%s\nstderr: %s", code, out, errOut)
	}

	writeConfig(t, dir, "mcp:\n  connect_timeout: 1h\n  servers:\n    "+name+":\n      url: "+url+"\n")
	code, out, errOut = gearInHome(t, dir, "ask", "--offline", "what time is it in Tokyo")
	if code != cli.ExitOK || !strings.Contains(errOut, "still connecting, answered without it") {
		t.Errorf("remembered, far: exit %d\n%s\nstderr: %s", code, out, errOut)
	}
}
