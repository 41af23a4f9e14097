package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverEnv makes the test binary a stdio MCP server with that many tools
// (see TestMain): a real local server process for the listing benchmark.
const serverEnv = "GEAR_MCP_TEST_STDIO_TOOLS"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) == "flood" {
		serveFlood()
		return
	}
	if n := os.Getenv(serverEnv); n != "" {
		var count int
		fmt.Sscan(n, &count)
		serveStdio(count)
		return
	}
	os.Exit(m.Run())
}

// serveStdio serves count tools with schemas of real servers' shape (a
// few typed, described parameters; some optional, an enum) on stdin and
// stdout until the client closes.
func serveStdio(count int) {
	s := sdk.NewServer(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	for i := 0; i < count; i++ {
		schema := fmt.Sprintf(`{"type":"object","properties":{
			"query":{"type":"string","description":"What to look for in collection %d"},
			"limit":{"type":"integer","minimum":1,"maximum":100,"description":"How many results"},
			"order":{"type":"string","enum":["newest","oldest","relevance"]},
			"include_archived":{"type":"boolean","default":false}},
			"required":["query"]}`, i)
		s.AddTool(&sdk.Tool{Name: fmt.Sprintf("search_collection_%03d", i),
			Description: fmt.Sprintf("Search collection number %d of the test library and return the matching items.", i),
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: i%2 == 0},
			InputSchema: json.RawMessage(schema)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "none"}}}, nil
			})
	}
	_ = s.Run(context.Background(), &sdk.StdioTransport{})
}

// serveFlood serves one tool whose answer is a 20 MB line: more than any
// message may be.
func serveFlood() {
	s := sdk.NewServer(&sdk.Implementation{Name: "flood", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "flood", Description: "Answers 20 MB.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("x", 20<<20)}}}, nil
		})
	_ = s.Run(context.Background(), &sdk.StdioTransport{})
}

// stdioServer is this test binary run as a server of n tools.
func stdioServer(b testing.TB, n int) Server {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	return Server{Name: "bench", Command: exe, Env: map[string]string{serverEnv: fmt.Sprint(n)}}
}

// BenchmarkListStdio200 is gear's side of a library of 200 MCP tools:
// connect to a local stdio server (start the process, handshake), list
// its 200 tools and read each into a Spec. Target: ≤ 300 ms.
func BenchmarkListStdio200(b *testing.B) {
	srv := stdioServer(b, 200)
	for b.Loop() {
		c, err := Connect(context.Background(), srv, Options{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		ts, skipped, err := c.Tools(context.Background())
		if err != nil || len(ts) != 200 || len(skipped) != 0 {
			b.Fatalf("%d tools, skipped %v, %v", len(ts), skipped, err)
		}
		c.Close()
	}
}

// BenchmarkRelistStdio200 lists the 200 tools again on an open session,
// as tools/list_changed does.
func BenchmarkRelistStdio200(b *testing.B) {
	c, err := Connect(context.Background(), stdioServer(b, 200), Options{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for b.Loop() {
		ts, _, err := c.Tools(context.Background())
		if err != nil || len(ts) != 200 {
			b.Fatalf("%d tools, %v", len(ts), err)
		}
	}
}

// TestStdioServerOfTheBenchmark also shows the parameters in the
// server's order over a real stdio pipe (the SDK gives a client the schema
// as a map; rawlist.go reads the order off the wire).
func TestStdioServerOfTheBenchmark(t *testing.T) {
	t.Parallel()
	c, err := Connect(t.Context(), stdioServer(t, 3), Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ts, skipped, err := c.Tools(t.Context())
	if err != nil || len(ts) != 3 || len(skipped) != 0 {
		t.Fatalf("%d tools, %v, %v", len(ts), skipped, err)
	}
	if got := ts[0].Spec().Signature(); got != "bench.search_collection_000(query: string, [limit: integer], [order: enum], [include_archived: boolean])" {
		t.Errorf("signature %s", got)
	}
}

// TestFloodingServerIsABoundedFailure: a stdio server that answers 20 MB
// in one message fails the call with a readable line; gear does not
// buffer it whole, and the failure names the server.
func TestFloodingServerIsABoundedFailure(t *testing.T) {
	t.Parallel()
	srv := stdioServer(t, 0)
	srv.Env[serverEnv] = "flood"
	c, err := Connect(t.Context(), srv, Options{CallTimeout: 30 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Call(t.Context(), "flood", nil)
	t.Logf("flood: %v", err)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "mcp server bench") {
		t.Errorf("err = %v", err)
	}
}

// TestHTTPAnswerIsCapped: a plain JSON answer over HTTP past the bound
// fails as it is read.
func TestHTTPAnswerIsCapped(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		chunk := []byte(strings.Repeat(" ", 1<<20))
		for i := 0; i < MaxMessageBytes>>20+2; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer hs.Close()
	_, err := Connect(t.Context(), Server{Name: "big", URL: hs.URL}, Options{ConnectTimeout: 20 * time.Second}, nil)
	t.Logf("big: %v", err)
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("err = %v", err)
	}
}
