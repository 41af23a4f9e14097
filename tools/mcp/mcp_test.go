package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gear-chat/gear/tools"
)

type addIn struct {
	A float64 `json:"a" jsonschema:"the first number"`
	B float64 `json:"b" jsonschema:"the second number"`
}

type addOut struct {
	Sum float64 `json:"sum"`
}

// testServer is the SDK's own server with tools that exercise every kind
// of result gear handles.
func testServer(t *testing.T) *sdk.Server {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "test-server", Version: "1.0"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "add_numbers", Description: "Add two numbers \x1b[31mtogether\x1b[0m. Returns the sum."},
		func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		})
	s.AddTool(&sdk.Tool{Name: "echo", Description: "Echo the text back.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &in)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text + "\x1b]0;owned\x07"}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "fail", Description: "Always fails.",
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "the disk\nis full\x1b[2J"}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "picture", Description: "Draws a picture.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG fake")},
				&sdk.ResourceLink{URI: "file:///tmp/x.txt", Name: "x.txt"},
			}, StructuredContent: map[string]any{"w": 2}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "wrapped", Description: "Says its text twice, as text and wrapped in structured content.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Allowed directories:\n/tmp/x"}},
				StructuredContent: map[string]any{"content": "Allowed directories:\n/tmp/x", "count": 1}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "slow", Description: "Waits until cancelled.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(&sdk.Tool{Name: "huge", Description: "Answers a lot.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("x", 100_000)}}}, nil
		})
	return s
}

// inProcess connects a Server value to s over the SDK's in-memory pipe.
func inProcess(t *testing.T, ctx context.Context, name string, s *sdk.Server) Server {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return Server{Name: name, Transport: ct}
}

func connectTest(t *testing.T, opts Options) (*Conn, map[string]*Tool) {
	t.Helper()
	ctx := t.Context()
	c, err := Connect(ctx, inProcess(t, ctx, "Test", testServer(t)), opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ts, skipped, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) > 0 {
		t.Fatalf("skipped: %v", skipped)
	}
	byName := map[string]*Tool{}
	for _, tool := range ts {
		byName[tool.Spec().Name] = tool
	}
	return c, byName
}

func TestListingMakesSpecs(t *testing.T) {
	t.Parallel()
	_, ts := connectTest(t, Options{})
	if len(ts) != 7 {
		t.Fatalf("got %d tools, want 7", len(ts))
	}
	add := ts["test.add_numbers"]
	if add == nil {
		t.Fatalf("no test.add_numbers among %v", ts)
	}
	s := add.Spec()
	if s.Source != (tools.Source{Kind: tools.SourceMCP, Name: "Test"}) {
		t.Errorf("source = %+v", s.Source)
	}
	if s.Effect != tools.EffectWrites {
		t.Errorf("add_numbers has no readOnlyHint: effect = %q, want writes", s.Effect)
	}
	if strings.ContainsRune(s.Description, 0x1b) || !strings.Contains(s.Description, "together") {
		t.Errorf("description not sanitised: %q", s.Description)
	}
	if got := s.Signature(); got != "test.add_numbers(a: number, b: number)" {
		t.Errorf("signature = %s", got)
	}
	if !strings.Contains(string(s.InputSchema), `"required"`) {
		t.Errorf("input schema not kept whole: %s", s.InputSchema)
	}
	// Not read-only: grounding must have a mock to read instead of a run.
	if s.Mock == "" {
		t.Fatal("a tool that may write has no mock response")
	}
	mock := s.MockResponse(tools.Call{Tool: s.Name, Args: []tools.Arg{{Name: "a", Value: tools.Number(2)}, {Name: "b", Value: tools.Number(3)}}})
	if !strings.Contains(mock, `"sum"`) {
		t.Errorf("mock from the output schema = %q", mock)
	}
	echo := ts["test.echo"].Spec()
	if echo.Effect != tools.EffectReadOnly || echo.Mock != "" {
		t.Errorf("echo: effect %q mock %q; a read-only tool runs during grounding", echo.Effect, echo.Mock)
	}
}

func TestCallRendersResults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, ts := connectTest(t, Options{DataDir: dir, MaxResultBytes: 1000})
	ctx := t.Context()
	call := func(name string, args ...tools.Arg) (tools.Result, error) {
		return ts[name].Run(ctx, tools.Call{Tool: name, Args: args})
	}

	r, err := call("test.add_numbers", tools.Arg{Name: "a", Value: tools.Number(2)}, tools.Arg{Name: "b", Value: tools.Number(3)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != `{"sum":5}` {
		t.Errorf("add: %q", r.Text)
	}

	r, err = call("test.echo", tools.Arg{Name: "text", Value: tools.String("hi")})
	if err != nil || r.Text != "echo: hi" {
		t.Errorf("echo: %q, %v (escape sequences must be gone)", r.Text, err)
	}

	_, err = call("test.fail")
	if !tools.IsInput(err) || strings.ContainsAny(err.Error(), "\n\x1b") || !strings.Contains(err.Error(), "the disk is full") {
		t.Errorf("isError: %v; want an input error of one clean line", err)
	}

	r, err = call("test.picture")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, "saved to "+dir) || !strings.Contains(r.Text, "[resource: x.txt <file:///tmp/x.txt>]") || !strings.Contains(r.Text, `{"w":2}`) {
		t.Errorf("picture: %q", r.Text)
	}
	entries, _ := os.ReadDir(dir + "/mcp")
	if len(entries) != 1 || !strings.HasSuffix(entries[0].Name(), ".png") {
		t.Errorf("saved files: %v", entries)
	}

	r, err = call("test.wrapped")
	if err != nil || r.Text != "Allowed directories:\n/tmp/x\n{\"content\":\"Allowed directories:\\n/tmp/x\",\"count\":1}" {
		t.Errorf("wrapped (count 1 is not in the text, so the JSON stays): %q, %v", r.Text, err)
	}

	r, err = call("test.huge")
	if err != nil || len(r.Text) > 1100 || !strings.Contains(r.Text, "cut at 1000 bytes") {
		t.Errorf("huge: %d bytes, %v", len(r.Text), err)
	}
}

func TestProtocolErrorIsOneLine(t *testing.T) {
	t.Parallel()
	c, _ := connectTest(t, Options{})
	_, err := c.Call(t.Context(), "no_such_tool", json.RawMessage(`{}`))
	var pe *ProtocolError
	if !errors.As(err, &pe) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "no_such_tool") {
		t.Errorf("err = %v", err)
	}
	_, err = c.Call(t.Context(), "echo", json.RawMessage(`[1`))
	if !tools.IsInput(err) {
		t.Errorf("bad JSON arguments: %v", err)
	}
}

func TestCallDeadlineAndCancellation(t *testing.T) {
	t.Parallel()
	_, ts := connectTest(t, Options{CallTimeout: 200 * time.Millisecond})
	start := time.Now()
	_, err := ts["test.slow"].Run(t.Context(), tools.Call{Tool: "test.slow"})
	if err == nil || !strings.Contains(err.Error(), "deadline") || time.Since(start) > 5*time.Second {
		t.Errorf("deadline: %v after %s", err, time.Since(start))
	}

	_, ts = connectTest(t, Options{CallTimeout: time.Minute})
	ctx, cancel := context.WithCancel(t.Context())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	start = time.Now()
	_, err = ts["test.slow"].Run(ctx, tools.Call{Tool: "test.slow"})
	if err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("cancel: %v after %s", err, time.Since(start))
	}
}

func TestManagerConnectsInBackgroundAndFollowsListChanges(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	srv := testServer(t)
	var changes atomic.Int32
	changed := make(chan struct{}, 16)
	dead := Server{Name: "dead", Command: "/nonexistent/mcp-server"}
	m, err := NewManager([]Server{inProcess(t, ctx, "live", srv), dead}, Options{}, func() {
		changes.Add(1)
		changed <- struct{}{}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, st := range m.Statuses() {
		if st.State != StateConnecting {
			t.Errorf("before Start: %+v", st)
		}
	}
	m.Start(ctx)
	m.Wait(ctx)
	st := m.Statuses()
	if st[0].State != StateReady || st[0].Tools != 7 || st[0].String() != "7 tools" {
		t.Errorf("live: %+v", st[0])
	}
	if st[1].State != StateFailed || !strings.Contains(st[1].String(), "failed: cannot start /nonexistent/mcp-server") {
		t.Errorf("dead: %q", st[1].String())
	}
	if n := len(m.Tools()); n != 7 {
		t.Errorf("tools: %d", n)
	}

	before := changes.Load()
	srv.RemoveTools("huge", "slow")
	deadline := time.After(10 * time.Second)
	for len(m.Tools()) != 5 {
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("list_changed not followed: %d tools, %d changes", len(m.Tools()), changes.Load()-before)
		}
	}
}

func TestStreamableHTTPWithHeaderFromEnvironment(t *testing.T) {
	t.Parallel()
	srv := testServer(t)
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	defer hs.Close()
	env := func(k string) string { return map[string]string{"TEST_KEY": "s3cret"}[k] }
	s := Server{Name: "web", URL: hs.URL, Headers: map[string]string{"Authorization": "Bearer ${TEST_KEY}"}}
	c, err := Connect(t.Context(), s, Options{Getenv: env}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.Call(t.Context(), "add_numbers", json.RawMessage(`{"a":2,"b":3}`))
	if err != nil || r.Text != `{"sum":5}` {
		t.Errorf("call over HTTP: %q, %v", r.Text, err)
	}

	// A missing variable fails at connection, naming the variable only.
	_, err = Connect(t.Context(), s, Options{}, nil)
	if err == nil || !strings.Contains(err.Error(), "TEST_KEY is not set") {
		t.Errorf("missing env: %v", err)
	}
}

func TestConnectFailuresAreReadable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		server Server
		want   string
	}{
		{"no command", Server{Name: "x", Command: "/nonexistent/server"}, "cannot start /nonexistent/server"},
		{"exits at once", Server{Name: "x", Command: "sh", Args: []string{"-c", "echo boom >&2; exit 3"}}, "boom"},
		{"never answers", Server{Name: "x", Command: "sleep", Args: []string{"30"}}, "no answer within"},
		{"not a url", Server{Name: "x", URL: "ftp://x"}, "want http"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Connect(t.Context(), tc.server, Options{ConnectTimeout: 500 * time.Millisecond}, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line with %q", err, tc.want)
			}
		})
	}
}
