package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/muesli/termenv"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/mcp"
	"github.com/gear-chat/gear/ui"
)

// TestChatDoesNotWaitForServers opens the chat's agent with a server that
// never answers and one that does: the agent is there while the first is
// still connecting, the second's tools join the library when it is ready,
// and a tool the server adds later (tools/list_changed) joins without a
// restart.
func TestChatDoesNotWaitForServers(t *testing.T) {
	t.Parallel()
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

// benchFirstFrame opens the chat as bare gear does — the agent, the root
// model, the first frame drawn — with the given --mcp servers.
func benchFirstFrame(b *testing.B, servers ...string) {
	dir := b.TempDir()
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		a := chatApp(b, nil, nil, dir, true)
		a.runCtx, a.mcpFlags = ctx, servers
		st, err := a.openStore(ctx)
		if err != nil {
			b.Fatal(err)
		}
		opts, err := a.chatOptions(ctx, st)
		if err != nil {
			b.Fatal(err)
		}
		r := lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(termenv.Ascii)
		opts.Renderer = r
		m, err := ui.New(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		if !strings.Contains(m.View(), "gear") {
			b.Fatal("no first frame")
		}
		b.StopTimer()
		a.closeMCP()
		st.Close()
		cancel()
		b.StartTimer()
	}
}

// BenchmarkChatFirstFrame is the chat's first frame without MCP servers,
// the baseline of the next one.
func BenchmarkChatFirstFrame(b *testing.B) { benchFirstFrame(b) }

// BenchmarkChatFirstFrameSlowServer is the first frame with a server that
// never answers (its connection would wait for mcp.connect_timeout): the
// same as without one, because the chat never waits for a server.
func BenchmarkChatFirstFrameSlowServer(b *testing.B) { benchFirstFrame(b, "slow=sleep 60") }

// BenchmarkChatFirstFrameHangingHTTPServer is the first frame with an
// HTTP server that accepts the connection and never answers: no process
// starts, so it shows what the wait-free start costs by itself.
func BenchmarkChatFirstFrameHangingHTTPServer(b *testing.B) {
	hang := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-hang }))
	defer hs.Close()
	defer close(hang)
	benchFirstFrame(b, hs.URL+"/mcp")
}
