package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// MCP configures the MCP servers whose tools join the library.
type MCP struct {
	// ConnectTimeout bounds a server's start, handshake and first listing.
	ConnectTimeout Duration `yaml:"connect_timeout" json:"connect_timeout"`
	// CallTimeout bounds every call of an MCP tool.
	CallTimeout Duration `yaml:"call_timeout" json:"call_timeout"`
	// MaxResultBytes caps a result's text and each saved image.
	MaxResultBytes int `yaml:"max_result_bytes" json:"max_result_bytes"`
	// Servers by name; the name prefixes the server's tools ("name.tool").
	Servers map[string]MCPServer `yaml:"servers" json:"servers"`
}

// MCPServer is one server: a command (stdio) or a url (streamable HTTP).
type MCPServer struct {
	Command string            `yaml:"command,omitempty" json:"command,omitempty"`
	Args    []string          `yaml:"args,omitempty" json:"args,omitempty"`
	Env     map[string]string `yaml:"env,omitempty" json:"env,omitempty"`
	Dir     string            `yaml:"dir,omitempty" json:"dir,omitempty"`
	URL     string            `yaml:"url,omitempty" json:"url,omitempty"`
	// Headers are sent with every request; write keys as ${ENV_VAR}.
	Headers  map[string]string `yaml:"headers,omitempty" json:"headers,omitempty"`
	Disabled bool              `yaml:"disabled,omitempty" json:"disabled,omitempty"`
}

func defaultMCP() MCP {
	return MCP{ConnectTimeout: Duration(20 * time.Second), CallTimeout: Duration(30 * time.Second), MaxResultBytes: 1 << 20}
}

// Validate checks the servers: each a command or a url, not both.
func (m MCP) Validate() error {
	if m.ConnectTimeout <= 0 || m.CallTimeout <= 0 {
		return errors.New("config: mcp.connect_timeout and mcp.call_timeout must be positive")
	}
	if m.MaxResultBytes <= 0 {
		return errors.New("config: mcp.max_result_bytes must be positive")
	}
	for _, name := range m.Names() {
		s := m.Servers[name]
		switch {
		case s.Command == "" && s.URL == "":
			return fmt.Errorf("config: mcp.servers.%s: give a command (stdio) or a url (HTTP)", name)
		case s.Command != "" && s.URL != "":
			return fmt.Errorf("config: mcp.servers.%s: give a command or a url, not both", name)
		}
	}
	return nil
}

// Names are the servers' names, sorted.
func (m MCP) Names() []string {
	names := make([]string, 0, len(m.Servers))
	for n := range m.Servers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Allowed reports whether the user allowed tool (a qualified name such as
// "files.write_file") to run without asking.
func (a Agent) Allowed(tool string) bool {
	for _, t := range a.AllowedTools {
		if t == tool {
			return true
		}
	}
	return false
}

// Edit changes the config file at path in place: it reads the YAML as a
// document tree, lets change edit it, and writes it back, so the user's
// comments, order and other keys stay. A missing file is created (with
// its directory). The result must still load as a configuration.
func Edit(path string, change func(doc *yaml.Node) error) error {
	if path == "" {
		return errors.New("config: no config file (set XDG_CONFIG_HOME or HOME, or pass --config)")
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("config: cannot read %s: %w", path, unwrapPathError(err))
	}
	var doc yaml.Node
	if len(bytes.TrimSpace(data)) > 0 {
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return fmt.Errorf("config %s: %s", path, yamlMessage(err))
		}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return fmt.Errorf("config %s: the file is not a mapping of keys", path)
	}
	if err := change(doc.Content[0]); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	check := Defaults()
	if err := decode(buf.Bytes(), &check); err != nil {
		return fmt.Errorf("config %s: the edit would not load: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return os.Rename(tmp, path)
}

// MappingAt returns the mapping under the keys path in m, making the
// missing ones.
func MappingAt(m *yaml.Node, keys ...string) (*yaml.Node, error) {
	for _, k := range keys {
		var next *yaml.Node
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == k {
				next = m.Content[i+1]
				break
			}
		}
		if next == nil {
			next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, next)
		}
		if next.Kind == yaml.ScalarNode && next.Tag == "!!null" {
			next.Kind, next.Tag, next.Value = yaml.MappingNode, "!!map", ""
		}
		if next.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("config: %s is not a mapping", k)
		}
		m = next
	}
	return m, nil
}

// AllowTool remembers in the config file at path that tool runs without
// asking (agent.allowed_tools).
func AllowTool(path, tool string) error {
	return Edit(path, func(root *yaml.Node) error {
		agent, err := MappingAt(root, "agent")
		if err != nil {
			return err
		}
		var list *yaml.Node
		for i := 0; i+1 < len(agent.Content); i += 2 {
			if agent.Content[i].Value == "allowed_tools" {
				list = agent.Content[i+1]
			}
		}
		switch {
		case list == nil:
			list = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			agent.Content = append(agent.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "allowed_tools"}, list)
		case list.Kind == yaml.ScalarNode && list.Tag == "!!null":
			list.Kind, list.Tag, list.Value = yaml.SequenceNode, "!!seq", ""
		case list.Kind != yaml.SequenceNode:
			return errors.New("config: agent.allowed_tools is not a list")
		}
		for _, n := range list.Content {
			if n.Value == tool {
				return nil
			}
		}
		list.Content = append(list.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: tool})
		return nil
	})
}

// ImportedServer is one entry of the mcpServers JSON that Claude Desktop,
// Cursor and oterm write.
type ImportedServer struct {
	Command  string            `json:"command"`
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
	Cwd      string            `json:"cwd"`
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers"`
	Type     string            `json:"type"`
	Disabled bool              `json:"disabled"`
}

// ReadMCPServers reads an mcpServers JSON file into gear's server entries.
func ReadMCPServers(data []byte) (map[string]MCPServer, error) {
	var f struct {
		MCPServers map[string]ImportedServer `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not the JSON of an mcpServers file: %v", err)
	}
	if f.MCPServers == nil {
		return nil, errors.New(`no "mcpServers" object in the file`)
	}
	out := make(map[string]MCPServer, len(f.MCPServers))
	for name, s := range f.MCPServers {
		if strings.TrimSpace(name) == "" {
			return nil, errors.New("a server with an empty name")
		}
		if s.Command == "" && s.URL == "" {
			return nil, fmt.Errorf("server %q: neither command nor url", name)
		}
		if s.Type == "sse" {
			return nil, fmt.Errorf("server %q: the old SSE transport is not supported; use the server's streamable HTTP url", name)
		}
		out[name] = MCPServer{Command: s.Command, Args: s.Args, Env: s.Env, Dir: s.Cwd, URL: s.URL, Headers: s.Headers, Disabled: s.Disabled}
	}
	return out, nil
}

// AddMCPServers writes servers into the config file at path under
// mcp.servers. A name already there with other settings is refused, never
// overwritten; one with the same settings is left as is. It returns the
// names added.
func AddMCPServers(path string, current map[string]MCPServer, servers map[string]MCPServer) (added []string, err error) {
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if old, ok := current[n]; ok {
			a, _ := json.Marshal(old)
			b, _ := json.Marshal(servers[n])
			if !bytes.Equal(a, b) {
				return nil, fmt.Errorf("mcp server %q is already configured differently; rename or remove it in %s first", n, path)
			}
		}
	}
	err = Edit(path, func(root *yaml.Node) error {
		m, err := MappingAt(root, "mcp", "servers")
		if err != nil {
			return err
		}
		for _, n := range names {
			if _, ok := current[n]; ok {
				continue
			}
			var node yaml.Node
			if err := node.Encode(servers[n]); err != nil {
				return err
			}
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: n}, &node)
			added = append(added, n)
		}
		return nil
	})
	return added, err
}
