package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/mcp"
)

// mcpServers are the servers of this run: the config's (not disabled),
// then those --mcp adds. Two servers of one name are refused.
func (a *app) mcpServers() ([]mcp.Server, error) {
	var out []mcp.Server
	seen := map[string]bool{}
	for _, name := range a.cfg.MCP.Names() {
		s := a.cfg.MCP.Servers[name]
		if s.Disabled {
			continue
		}
		out = append(out, serverFromConfig(name, s))
		seen[name] = true
	}
	for _, f := range a.mcpFlags {
		s, err := mcp.ParseFlag(f)
		if err != nil {
			return nil, usageError{err}
		}
		if seen[s.Name] {
			return nil, usageErrorf("--mcp %s: a server named %s is already configured; name this one differently (NAME=COMMAND)", f, s.Name)
		}
		seen[s.Name] = true
		out = append(out, s)
	}
	return out, nil
}

func serverFromConfig(name string, s config.MCPServer) mcp.Server {
	return mcp.Server{Name: name, Command: s.Command, Args: s.Args, Env: s.Env, Dir: s.Dir, URL: s.URL, Headers: s.Headers}
}

// mcpOptions bound and equip the connections from the configuration:
// binary results are saved beside the history database.
func (a *app) mcpOptions() mcp.Options {
	m := a.cfg.MCP
	return mcp.Options{
		ConnectTimeout: m.ConnectTimeout.D(),
		CallTimeout:    m.CallTimeout.D(),
		MaxResultBytes: m.MaxResultBytes,
		DataDir:        filepath.Dir(a.cfg.DB),
		Getenv:         mcp.Getenv(a.deps.Getenv),
		Version:        Version,
	}
}

// mcpManager starts connecting every server of this run, once, in the
// background; nil when there are none. onChange (may be nil) hears of
// every change of a server's state or tools.
func (a *app) mcpManager(ctx context.Context) (*mcp.Manager, error) {
	if a.mcp != nil || a.mcpErr != nil {
		return a.mcp, a.mcpErr
	}
	servers, err := a.mcpServers()
	if err != nil {
		a.mcpErr = err
		return nil, err
	}
	if len(servers) == 0 {
		return nil, nil
	}
	m, err := mcp.NewManager(servers, a.mcpOptions(), a.notifyMCP)
	if err != nil {
		a.mcpErr = usageError{err}
		return nil, a.mcpErr
	}
	a.mcp = m
	m.Start(ctx)
	return m, nil
}

// notifyMCP passes a change of the servers to whoever listens (the chat).
func (a *app) notifyMCP() {
	a.mcpMu.Lock()
	fn := a.onMCPChange
	a.mcpMu.Unlock()
	if fn != nil {
		fn()
	}
}

// closeMCP ends every session (stopping stdio servers).
func (a *app) closeMCP() {
	if a.mcp != nil {
		a.mcp.Close()
	}
}

// mcpTools waits until every server has connected or failed (each
// bounded by mcp.connect_timeout; a dead server fails at once), notes the
// failed ones on stderr, and returns the tools of the ready ones. Commands
// that answer one query need them before grounding; the chat does not
// wait (see chatLibrary).
func (a *app) mcpTools(ctx context.Context) ([]tools.Tool, error) {
	m, err := a.mcpManager(ctx)
	if err != nil || m == nil {
		return nil, err
	}
	m.Wait(ctx)
	a.noteMCP(m)
	return m.Tools(), nil
}

// noteMCP tells, once per run, which servers failed or left tools out.
func (a *app) noteMCP(m *mcp.Manager) {
	a.noteMCPAs(m, "still connecting; its tools are not in this run")
}

// noteMCPAs is noteMCP with the words for a server still connecting.
func (a *app) noteMCPAs(m *mcp.Manager, connecting string) {
	if a.mcpNoted {
		return
	}
	a.mcpNoted = true
	for _, st := range m.Statuses() {
		switch {
		case st.State == mcp.StateFailed:
			fmt.Fprintf(a.deps.Stderr, "note: mcp server %s %s\n", st.Server, st)
		case st.State == mcp.StateConnecting:
			fmt.Fprintf(a.deps.Stderr, "note: mcp server %s: %s\n", st.Server, connecting)
		}
		for _, s := range st.Skipped {
			fmt.Fprintf(a.deps.Stderr, "note: mcp server %s: %s\n", st.Server, s)
		}
	}
}

// findServer resolves what `gear mcp tools|call` names: a configured (or
// --mcp) server's name, a URL, or NAME=COMMAND.
func (a *app) findServer(arg string) (mcp.Server, error) {
	if strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://") || strings.Contains(arg, "=") {
		s, err := mcp.ParseFlag(arg)
		if err != nil {
			return mcp.Server{}, usageError{err}
		}
		return s, nil
	}
	servers, err := a.mcpServers()
	if err != nil {
		return mcp.Server{}, err
	}
	var names []string
	for _, s := range servers {
		if s.Name == arg {
			return s, nil
		}
		names = append(names, s.Name)
	}
	if s, ok := a.cfg.MCP.Servers[arg]; ok {
		return serverFromConfig(arg, s), nil // disabled, but named: the user means it
	}
	sort.Strings(names)
	if len(names) == 0 {
		return mcp.Server{}, usageErrorf("no mcp server %q: none is configured (mcp.servers in the config, or --mcp NAME=COMMAND / --mcp URL)", arg)
	}
	return mcp.Server{}, usageErrorf("no mcp server %q; configured: %s", arg, strings.Join(names, ", "))
}
