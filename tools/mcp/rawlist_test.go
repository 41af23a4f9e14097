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

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// githubTools are the 26 tools of the reference GitHub server as a client
// received them (tools/testdata/mcp, see its PROVENANCE): real schemas
// whose optional parameters do not come in alphabetical order
// (list_pull_requests: owner, repo, then state, head, base, sort, …).
func githubTools(t *testing.T) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile("../testdata/mcp/tools_list_result_server-github_captured_unwrapped.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Tools
}

// propertyOrder reads a schema's property names in the order written.
func propertyOrder(t *testing.T, schema json.RawMessage) []string {
	t.Helper()
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil || len(s.Properties) == 0 {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(string(s.Properties)))
	dec.Token() // {
	var names []string
	for dec.More() {
		k, _ := dec.Token()
		names = append(names, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return names
}

func githubServer(t *testing.T, listed []json.RawMessage) *sdk.Server {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "github-mcp-server", Version: "0.6.2"}, nil)
	for _, raw := range listed {
		var tool struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if err := json.Unmarshal(raw, &tool); err != nil {
			t.Fatal(err)
		}
		s.AddTool(&sdk.Tool{Name: tool.Name, Description: tool.Description, InputSchema: tool.InputSchema},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
			})
	}
	return s
}

// TestParametersKeepTheServersOrder: whatever the transport, each tool's
// parameters come in the order its server wrote its properties — the
// order the positional call form Tool("a", "b") follows (required ones
// first) — not the optional ones by name, the most a decoded map could
// tell.
func TestParametersKeepTheServersOrder(t *testing.T) {
	t.Parallel()
	listed := githubTools(t)
	want := map[string][]string{}
	for _, raw := range listed {
		var tool struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		json.Unmarshal(raw, &tool)
		var req struct {
			Required []string `json:"required"`
		}
		json.Unmarshal(tool.InputSchema, &req)
		required := map[string]bool{}
		for _, r := range req.Required {
			required[r] = true
		}
		// gear's positional order: the required parameters, then the
		// optional ones (a call may stop before them), each in the
		// server's order.
		var first, rest []string
		for _, name := range propertyOrder(t, tool.InputSchema) {
			if required[name] {
				first = append(first, name)
			} else {
				rest = append(rest, name)
			}
		}
		want[tool.Name] = append(first, rest...)
	}
	if got := fmt.Sprint(want["list_pull_requests"]); got != "[owner repo state head base sort direction per_page page]" {
		t.Fatalf("the fixture's order is %s", got)
	}
	servers := map[string]func(t *testing.T) Server{
		"in-memory": func(t *testing.T) Server { return inProcess(t, t.Context(), "github", githubServer(t, listed)) },
		"http with event streams": func(t *testing.T) Server {
			srv := githubServer(t, listed)
			hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
			t.Cleanup(hs.Close)
			return Server{Name: "github", URL: hs.URL}
		},
		"http with JSON answers": func(t *testing.T) Server {
			srv := githubServer(t, listed)
			hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{JSONResponse: true}))
			t.Cleanup(hs.Close)
			return Server{Name: "github", URL: hs.URL}
		},
	}
	for name, server := range servers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := Connect(t.Context(), server(t), Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ts, skipped, err := c.Tools(t.Context())
			if err != nil || len(skipped) != 0 || len(ts) != len(listed) {
				t.Fatalf("%d tools, skipped %v, %v", len(ts), skipped, err)
			}
			for _, tool := range ts {
				var got []string
				for _, p := range tool.Spec().Params {
					got = append(got, p.Name)
				}
				if fmt.Sprint(got) != fmt.Sprint(want[tool.Remote()]) {
					t.Errorf("%s: parameters %v, want the server's %v", tool.Remote(), got, want[tool.Remote()])
				}
			}
		})
	}
}

// TestRawSchemaThatDisagreesIsNotUsed: bytes seen for a tool whose
// decoded schema says something else (a listing the tee missed) give way
// to the decoded map.
func TestRawSchemaThatDisagreesIsNotUsed(t *testing.T) {
	t.Parallel()
	var r rawSchemas
	r.observeMessage([]byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}}}}]}}`))
	var same, other any
	json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}`), &same)
	json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":"string"}}}`), &other)
	if raw, ok := r.schema("t", same); !ok || !strings.HasPrefix(string(raw), `{"type":"object","properties":{"b"`) {
		t.Errorf("same schema: %s %v", raw, ok)
	}
	if _, ok := r.schema("t", other); ok {
		t.Error("a schema that disagrees was used")
	}
	if _, ok := r.schema("unseen", same); ok {
		t.Error("an unseen tool has a schema")
	}
}

// TestSSETeeReadsEventsSplitAnywhere: an event stream cut at any byte
// still yields its one message.
func TestSSETeeReadsEventsSplitAnywhere(t *testing.T) {
	t.Parallel()
	stream := "event: message\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"z\":{},\"a\":{}}}}]}}\r\n\r\n"
	for cut := 1; cut < len(stream); cut += 7 {
		var r rawSchemas
		b := &recordSSEBody{ReadCloser: nopCloser{strings.NewReader(stream)}, raw: &r}
		buf := make([]byte, cut)
		for {
			if _, err := b.Read(buf); err != nil {
				break
			}
		}
		var decoded any
		json.Unmarshal([]byte(`{"type":"object","properties":{"a":{},"z":{}}}`), &decoded)
		if raw, ok := r.schema("t", decoded); !ok || !strings.Contains(string(raw), `{"z":{},"a":{}}`) {
			t.Fatalf("cut every %d bytes: %s %v", cut, raw, ok)
		}
	}
}

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }
