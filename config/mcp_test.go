package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMCPServersLoadAndValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`mcp:
  call_timeout: 5s
  servers:
    files:
      command: npx
      args: [-y, "@modelcontextprotocol/server-filesystem", /tmp]
    web:
      url: https://example.org/mcp
      headers: {Authorization: "Bearer ${WEB_KEY}"}
`)
	c, err := Load(path, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if got := c.MCP.Names(); strings.Join(got, ",") != "files,web" || c.MCP.CallTimeout.D().String() != "5s" ||
		c.MCP.Servers["web"].Headers["Authorization"] != "Bearer ${WEB_KEY}" {
		t.Errorf("loaded %+v", c.MCP)
	}
	write("mcp:\n  servers:\n    both:\n      command: x\n      url: http://x\n")
	if _, err := Load(path, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "mcp.servers.both: give a command or a url, not both") {
		t.Errorf("both: %v", err)
	}
	write("mcp:\n  servers:\n    none: {}\n")
	if _, err := Load(path, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "mcp.servers.none") {
		t.Errorf("none: %v", err)
	}
}

func TestAllowToolKeepsTheFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sub", "config.yaml")
	if err := AllowTool(path, "files.write_file"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("# my settings\nhome: Lisbon # here\nagent:\n  confirm_below: 0.4\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"files.write_file", "files.move_file", "files.write_file"} {
		if err := AllowTool(path, tool); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "# my settings") || !strings.Contains(string(data), "# here") {
		t.Errorf("comments lost:\n%s", data)
	}
	c, err := Load(path, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Agent.AllowedTools, ",") != "files.write_file,files.move_file" || c.Agent.ConfirmBelow != 0.4 || c.Home != "Lisbon" {
		t.Errorf("after: %+v", c.Agent)
	}
	if !c.Agent.Allowed("files.move_file") || c.Agent.Allowed("files.delete") {
		t.Error("Allowed")
	}
	if err := os.WriteFile(path, []byte("agent:\n  allowed_tools: nope\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := AllowTool(path, "x.y"); err == nil {
		t.Error("a scalar allowed_tools was overwritten")
	}
}

func TestImportMCPServers(t *testing.T) {
	t.Parallel()
	servers, err := ReadMCPServers([]byte(`{"mcpServers": {
	  "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]},
	  "remote": {"url": "https://example.org/mcp", "headers": {"X-Key": "${KEY}"}},
	  "withenv": {"command": "srv", "env": {"TOKEN": "${TOKEN}"}, "cwd": "/srv"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if servers["withenv"].Dir != "/srv" || servers["remote"].URL == "" || len(servers["everything"].Args) != 2 {
		t.Errorf("read %+v", servers)
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("home: Oslo\nmcp:\n  servers:\n    everything:\n      command: npx\n      args: [-y, \"@modelcontextprotocol/server-everything\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	added, err := AddMCPServers(path, c.MCP.Servers, servers)
	if err != nil || strings.Join(added, ",") != "remote,withenv" {
		t.Fatalf("added %v, %v", added, err)
	}
	c, err = Load(path, func(string) string { return "" })
	if err != nil || len(c.MCP.Servers) != 3 || c.Home != "Oslo" || c.MCP.Servers["remote"].Headers["X-Key"] != "${KEY}" {
		t.Fatalf("after import: %+v, %v", c.MCP, err)
	}
	clash := map[string]MCPServer{"everything": {Command: "other"}}
	if _, err := AddMCPServers(path, c.MCP.Servers, clash); err == nil || !strings.Contains(err.Error(), "already configured differently") {
		t.Errorf("clash: %v", err)
	}
	for _, bad := range []string{`[]`, `{}`, `{"mcpServers": {"x": {}}}`, `{"mcpServers": {"x": {"type": "sse", "url": "http://x"}}}`} {
		if _, err := ReadMCPServers([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
