package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/tools/webget/webgettest"
)

// mcpTestServer serves, over real streamable HTTP, the SDK's own server
// with add_numbers (not read-only, as the conformance suite's) and echo
// (read-only).
func mcpTestServer(t *testing.T) string {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "cli-test", Version: "1"}, nil)
	type addIn struct {
		A float64 `json:"a" jsonschema:"the first number"`
		B float64 `json:"b" jsonschema:"the second number"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "add_numbers", Description: "Add two numbers together and return the sum"},
		func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, any, error) {
			b, _ := json.Marshal(in.A + in.B)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "The sum is " + string(b)}}}, nil, nil
		})
	s.AddTool(&sdk.Tool{Name: "echo", Description: "Echo a message \x1b[2Jback", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in struct{ Message string }
			_ = json.Unmarshal(req.Params.Arguments, &in)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Echo: " + in.Message}}}, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(hs.Close)
	return hs.URL + "/mcp"
}

// gearIn runs gear with a config directory of its own (returned), stdin
// empty and no network but the test servers.
// gearInHome runs gear with HOME and the XDG directories under dir.
func gearInHome(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir + "/config", "XDG_DATA_HOME": dir + "/data"}
	code := cli.Run(context.Background(), args, cli.Deps{
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return env[k] },
		HTTP:   &http.Client{Transport: webgettest.Down("network is unreachable")},
	})
	return code, stdout.String(), stderr.String()
}

func TestMCPToolsAndCallOverHTTP(t *testing.T) {
	t.Parallel()
	url := mcpTestServer(t)
	dir := t.TempDir()

	// The conformance suite's form: the URL is the last argument.
	code, out, errOut := gearInHome(t, dir, "mcp", "tools", "--mcp", url)
	if code != cli.ExitOK {
		t.Fatalf("mcp tools --mcp: exit %d, %s", code, errOut)
	}
	for _, want := range []string{"add_numbers(a: number, b: number)", "writes", "read-only", "Echo a message back"} {
		if !strings.Contains(out, want) {
			t.Errorf("mcp tools lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Errorf("escape sequence reached the terminal: %q", out)
	}

	code, out, _ = gearInHome(t, dir, "mcp", "tools", url, "--json")
	var specs []map[string]any
	if code != cli.ExitOK || json.Unmarshal([]byte(out), &specs) != nil || len(specs) != 2 {
		t.Fatalf("--json: exit %d, %s", code, out)
	}

	code, out, errOut = gearInHome(t, dir, "mcp", "call", url, "echo", `{"message":"hi"}`)
	if code != cli.ExitOK || strings.TrimSpace(out) != "Echo: hi" {
		t.Errorf("call echo: exit %d, %q, %q", code, out, errOut)
	}

	// Not read-only, no terminal, no --yes: it does not run.
	code, out, errOut = gearInHome(t, dir, "mcp", "call", url, "add_numbers", `{"a":2,"b":3}`)
	if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "not read-only") || !strings.Contains(errOut, "--yes") {
		t.Errorf("unconfirmed write: exit %d, %q, %q", code, out, errOut)
	}
	code, out, _ = gearInHome(t, dir, "mcp", "call", "--yes", url, "add_numbers", `{"a":2,"b":3}`)
	if code != cli.ExitOK || strings.TrimSpace(out) != "The sum is 5" {
		t.Errorf("call --yes: exit %d, %q", code, out)
	}

	// Allowed in the config: runs without asking.
	cfg := filepath.Join(dir, "config", "gear", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(strings.Split(url, "/")[2], "")
	server := strings.ReplaceAll(strings.ReplaceAll(name, ".", "-"), ":", "-")
	if err := os.WriteFile(cfg, []byte("agent:\n  allowed_tools: ["+server+".add_numbers]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = gearInHome(t, dir, "mcp", "call", url, "add_numbers", `{"a":2,"b":3}`)
	if code != cli.ExitOK || strings.TrimSpace(out) != "The sum is 5" {
		t.Errorf("allowed: exit %d, %q, %q", code, out, errOut)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"mcp", "call", url, "nope", "{}"}, cli.ExitUsage, "has no tool"},
		{[]string{"mcp", "call", url, "echo", "[1"}, cli.ExitUsage, "want a JSON object"},
		{[]string{"mcp", "call", "nosuch", "echo"}, cli.ExitUsage, `no mcp server "nosuch"`},
		{[]string{"mcp", "tools", "http://127.0.0.1:1/mcp"}, cli.ExitFailure, "mcp server 127-0-0-1-1"},
		{[]string{"mcp", "tools", "--mcp", "x"}, cli.ExitUsage, "want NAME=COMMAND"},
	} {
		code, _, errOut := gearInHome(t, dir, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("gear %v: exit %d, %q; want %d and %q on one line", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

func TestMCPListShowsStatus(t *testing.T) {
	t.Parallel()
	url := mcpTestServer(t)
	code, out, errOut := gearInHome(t, t.TempDir(), "mcp", "list", "--mcp", url, "--mcp", "dead=/nonexistent/server")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "2 tools") || !strings.Contains(out, "failed: cannot start /nonexistent/server") {
		t.Errorf("mcp list:\n%s", out)
	}
	code, out, _ = gearInHome(t, t.TempDir(), "mcp", "list")
	if code != cli.ExitOK || !strings.Contains(out, "No MCP servers") {
		t.Errorf("no servers: %d %q", code, out)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config", "gear", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("mcp:\n  servers:\n    off:\n      command: srv\n      disabled: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = gearInHome(t, dir, "mcp", "list")
	if code != cli.ExitOK || !strings.Contains(out, "off") || !strings.Contains(out, "disabled") {
		t.Errorf("disabled: %d %q", code, out)
	}
}

func TestMCPImport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "claude_desktop_config.json")
	if err := os.WriteFile(src, []byte(`{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := gearInHome(t, dir, "mcp", "import", src)
	if code != cli.ExitOK || !strings.Contains(out, "Added 1 MCP server(s)") {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "config", "gear", "config.yaml"))
	if !strings.Contains(string(data), "server-filesystem") {
		t.Errorf("config after import:\n%s", data)
	}
	code, out, _ = gearInHome(t, dir, "mcp", "import", src)
	if code != cli.ExitOK || !strings.Contains(out, "Nothing to add") {
		t.Errorf("again: %d %q", code, out)
	}
	code, _, errOut = gearInHome(t, dir, "mcp", "import", filepath.Join(dir, "missing.json"))
	if code != cli.ExitUsage || !strings.Contains(errOut, "cannot read") {
		t.Errorf("missing: %d %q", code, errOut)
	}
}

func TestAskGroundsToAnMCPToolOffline(t *testing.T) {
	t.Parallel()
	url := mcpTestServer(t)
	dir := t.TempDir()
	// The conformance suite's tools_call form: the URL comes last.
	code, out, errOut := gearInHome(t, dir, "ask", "--offline", "--yes", "add the numbers 2 and 3", "--mcp", url)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "The sum is 5") || !strings.Contains(out, ".add_numbers(2, 3) (mcp:127-0-0-1-") || !strings.Contains(out, "% · grounding: offline engine") {
		t.Errorf("answer:\n%s\nstderr: %s", out, errOut)
	}
	// History keeps the call's source.
	code, out, _ = gearInHome(t, dir, "history", "show", "1")
	if code != cli.ExitOK || !strings.Contains(out, "· from mcp:127-0-0-1-") {
		t.Errorf("history show: exit %d\n%s", code, out)
	}
	code, out, _ = gearInHome(t, dir, "history", "export", "1")
	if code != cli.ExitOK || !strings.Contains(out, `"kind": "mcp"`) {
		t.Errorf("history export: exit %d\n%s", code, out)
	}
	// Replayed without the server, the turn's tool is missing, not a
	// grounding regression.
	code, out, _ = gearInHome(t, dir, "replay")
	if code != cli.ExitOK || !strings.Contains(out, "is not in the library now") || !strings.Contains(out, "(from mcp:127-0-0-1-") {
		t.Errorf("replay without the server: exit %d\n%s", code, out)
	}
	code, out, _ = gearInHome(t, dir, "replay", "--mcp", url)
	if code != cli.ExitOK || strings.Contains(out, "is not in the library now") {
		t.Errorf("replay with the server: exit %d\n%s", code, out)
	}

	// Without --yes and without a terminal, a tool that may write is not
	// run: gear can only explain, so it exits 1 (gear ask's one rule).
	code, out, errOut = gearInHome(t, dir, "ask", "--offline", "add the numbers 2 and 3", "--mcp", url)
	if code != cli.ExitFailure || strings.Contains(out, "The sum is 5") || !strings.Contains(errOut, "is not read-only") ||
		!strings.Contains(out, "was not run") || strings.Contains(errOut, "grounding is only") {
		t.Errorf("unconfirmed: exit %d\n%s\nstderr: %s", code, out, errOut)
	}

	// The library lists it with its source.
	code, out, _ = gearInHome(t, dir, "tools", "--mcp", url)
	if code != cli.ExitOK || !strings.Contains(out, "Calculator(") || !strings.Contains(out, ".add_numbers(a: number, b: number)") || !strings.Contains(out, "mcp:127-0-0-1") {
		t.Errorf("gear tools --mcp:\n%s", out)
	}
}

func TestToolCommandAsksBeforeAToolThatWrites(t *testing.T) {
	t.Parallel()
	url := mcpTestServer(t)
	dir := t.TempDir()
	name := strings.NewReplacer(".", "-", ":", "-").Replace(strings.Split(url, "/")[2])
	call := name + ".add_numbers(2, 3)"
	code, out, errOut := gearInHome(t, dir, "tool", call, "--mcp", url)
	if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "not read-only") {
		t.Errorf("unconfirmed: exit %d %q %q", code, out, errOut)
	}
	code, out, _ = gearInHome(t, dir, "tool", "--yes", call, "--mcp", url)
	if code != cli.ExitOK || strings.TrimSpace(out) != "The sum is 5" {
		t.Errorf("--yes: exit %d %q", code, out)
	}
	code, out, _ = gearInHome(t, dir, "tool", name+`.echo("hi")`, "--mcp", url)
	if code != cli.ExitOK || strings.TrimSpace(out) != "Echo: hi" {
		t.Errorf("read-only: exit %d %q", code, out)
	}
}

// TestMCPCallReachesAToolLeftOutOfTheLibrary: a tool whose schema gear
// cannot take into its library (a property name no call can write) is
// still the server's, and gear mcp call reaches it with raw JSON — the
// gate for a tool that is not read-only still applies.
func TestMCPCallReachesAToolLeftOutOfTheLibrary(t *testing.T) {
	t.Parallel()
	s := sdk.NewServer(&sdk.Implementation{Name: "cli-test", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object","properties":{"first name":{"type":"string"}},"required":["first name"]}`)
	greet := func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var in map[string]string
		_ = json.Unmarshal(req.Params.Arguments, &in)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Hello, " + in["first name"]}}}, nil
	}
	s.AddTool(&sdk.Tool{Name: "greet", Description: "Greets someone.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}, InputSchema: schema}, greet)
	s.AddTool(&sdk.Tool{Name: "rename", Description: "Renames someone.", InputSchema: schema}, greet)
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(hs.Close)
	url := hs.URL + "/mcp"
	dir := t.TempDir()

	code, out, errOut := gearInHome(t, dir, "mcp", "tools", url)
	if code != cli.ExitOK || strings.Contains(out, "greet(") || !strings.Contains(errOut, "first name") {
		t.Fatalf("mcp tools: exit %d\n%s\nstderr: %s", code, out, errOut)
	}
	code, out, errOut = gearInHome(t, dir, "mcp", "call", url, "greet", `{"first name":"Ada"}`)
	if code != cli.ExitOK || strings.TrimSpace(out) != "Hello, Ada" || !strings.Contains(errOut, "is not in gear's library") {
		t.Errorf("call greet: exit %d, %q, %q", code, out, errOut)
	}
	code, out, errOut = gearInHome(t, dir, "mcp", "call", url, "rename", `{"first name":"Ada"}`)
	if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "not read-only") {
		t.Errorf("unconfirmed rename: exit %d, %q, %q", code, out, errOut)
	}
	code, out, _ = gearInHome(t, dir, "mcp", "call", "--yes", url, "rename", `{"first name":"Ada"}`)
	if code != cli.ExitOK || strings.TrimSpace(out) != "Hello, Ada" {
		t.Errorf("call --yes rename: exit %d, %q", code, out)
	}
}
