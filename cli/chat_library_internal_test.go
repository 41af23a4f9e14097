package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/mcp"
)

// TestChatDoesNotWaitForServers opens the chat's agent with a server that
// never answers and one that does: the agent is there while the first is
// still connecting, the second's tools join the library when it is ready,
// and a tool the server adds later (tools/list_changed) joins without a
// restart.
func TestChatDoesNotWaitForServers(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := sdk.NewServer(&sdk.Implementation{Name: "live", Version: "1"}, nil)
	echo := func(name string) (*sdk.Tool, sdk.ToolHandler) {
		return &sdk.Tool{Name: name, Description: "Echo a message back", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
				InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
			}
	}
	srv.AddTool(echo("echo"))
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer hs.Close()

	a := chatApp(t, nil, nil, t.TempDir(), true)
	a.runCtx = ctx
	a.mcpFlags = []string{"slow=sleep 60", hs.URL + "/mcp"}
	defer a.closeMCP()
	st, err := a.openStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	opts, err := a.chatOptions(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Library == nil || opts.AllowTool == nil {
		t.Fatal("the chat has no library watch or no way to allow a tool")
	}
	if got := a.mcp.Statuses()[0]; got.State != mcp.StateConnecting {
		t.Fatalf("the chat's agent came after the slow server: %+v", got)
	}
	if !hasTool(opts.Agent.Specs(), "Calculator") {
		t.Fatal("no built-in tools while servers connect")
	}

	waitFor := func(what string, ok func([]tools.Spec) bool) {
		t.Helper()
		deadline := time.After(15 * time.Second)
		for !ok(opts.Agent.Specs()) {
			select {
			case <-opts.Library.Changed():
			case <-time.After(100 * time.Millisecond):
			case <-deadline:
				t.Fatalf("%s never happened; servers: %+v", what, opts.Library.Servers())
			}
		}
	}
	name := mcp.NameFromHost("127.0.0.1", strings.Split(hs.URL, ":")[2])
	waitFor("the ready server's tools joining", func(s []tools.Spec) bool { return hasTool(s, name+".echo") })
	srv.AddTool(echo("shout"))
	waitFor("a listed change joining", func(s []tools.Spec) bool { return hasTool(s, name+".shout") })

	var states []string
	for _, s := range opts.Library.Servers() {
		states = append(states, s.Name+":"+s.State)
	}
	if got := strings.Join(states, " "); got != "slow:connecting "+name+":ready" {
		t.Errorf("servers: %s", got)
	}
}

func hasTool(specs []tools.Spec, name string) bool {
	for _, s := range specs {
		if s.Name == name {
			return true
		}
	}
	return false
}
