package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/mcp"
)

func (a *app) mcpCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "MCP servers: their status, their tools, one call, importing a client's server list",
		Long: `MCP servers add their tools to gear's library. Configure them under
mcp.servers in the config file (a command for stdio, or a url for streamable
HTTP, with headers such as Authorization: "Bearer ${MY_KEY}" read from the
environment), import the mcpServers JSON of Claude Desktop, Cursor or oterm
with gear mcp import FILE, or add one for a single run with
--mcp NAME=COMMAND… or --mcp URL (on ask, chat, ground, eval, tools).

A server's tools are named server.tool. A tool that is not read-only (no
readOnlyHint) asks before it runs, unless listed in agent.allowed_tools.`,
		Example: `  gear mcp import ~/.config/Claude/claude_desktop_config.json
  gear mcp list
  gear ask --mcp everything="npx -y @modelcontextprotocol/server-everything" "add 2 and 3"`,
	}
	cmd.AddCommand(a.mcpListCommand(), a.mcpToolsCommand(), a.mcpCallCommand(), a.mcpImportCommand())
	return cmd
}

func (a *app) mcpListCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Connect to every configured server and show its status: n tools, or failed: why",
		Example: `  gear mcp list
  gear --mcp http://localhost:3001/mcp mcp list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := a.mcpManager(cmd.Context())
			if err != nil {
				return err
			}
			var st []mcp.Status
			if m != nil {
				m.Wait(cmd.Context())
				st = m.Statuses()
			}
			for _, name := range a.cfg.MCP.Names() {
				if s := a.cfg.MCP.Servers[name]; s.Disabled {
					st = append(st, mcp.Status{Server: name, Address: serverFromConfig(name, s).Describe(), State: mcp.StateDisabled})
				}
			}
			if len(st) == 0 {
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), []mcp.Status{})
				}
				fmt.Fprintln(cmd.OutOrStdout(), "No MCP servers: add some under mcp.servers in the config, with gear mcp import FILE, or --mcp.")
				return nil
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), st)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			for _, s := range st {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", sanitize.Line(s.Server), sanitize.Line(s.Address), sanitize.Line(s.String()))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the statuses as JSON")
	return cmd
}

func (a *app) mcpToolsCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "tools [NAME|URL]",
		Short: "List one server's tools (or every server's): name, parameters, effect, description",
		Example: `  gear mcp tools
  gear mcp tools everything
  gear mcp tools http://localhost:3001/mcp`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var specs []tools.Spec
			if len(args) == 1 {
				s, err := a.findServer(args[0])
				if err != nil {
					return err
				}
				conn, ts, err := a.connectOne(cmd.Context(), s)
				if err != nil {
					return err
				}
				defer conn.Close()
				for _, t := range ts {
					specs = append(specs, t.Spec())
				}
			} else {
				m, err := a.mcpManager(cmd.Context())
				if err != nil {
					return err
				}
				if m == nil {
					return usageErrorf("no MCP server: name one (gear mcp tools NAME|URL), configure mcp.servers, or pass --mcp")
				}
				ts, err := a.mcpTools(cmd.Context())
				if err != nil {
					return err
				}
				for _, t := range ts {
					specs = append(specs, t.Spec())
				}
				failed := 0
				for _, st := range m.Statuses() {
					if st.State != mcp.StateReady {
						failed++
					}
				}
				if failed == len(m.Statuses()) {
					return fmt.Errorf("no MCP server could be reached")
				}
			}
			if asJSON {
				if specs == nil {
					specs = []tools.Spec{}
				}
				return writeJSON(cmd.OutOrStdout(), specs)
			}
			writeMCPTools(cmd.OutOrStdout(), specs)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the tools' specs as JSON")
	return cmd
}

// onlyFlagServer is the server of `gear mcp call TOOL [ARGS] --mcp URL`:
// exactly one --mcp server, and the first argument is not a server.
func (a *app) onlyFlagServer(args []string) (mcp.Server, bool) {
	if len(a.mcpFlags) != 1 || len(args) > 2 {
		return mcp.Server{}, false
	}
	if len(args) == 2 && !strings.HasPrefix(strings.TrimSpace(args[1]), "{") {
		return mcp.Server{}, false
	}
	s, err := mcp.ParseFlag(a.mcpFlags[0])
	if err != nil || args[0] == s.Name {
		return mcp.Server{}, false
	}
	return s, true
}

// connectOne connects to one server and lists its tools, noting on stderr
// the tools it had to leave out.
func (a *app) connectOne(ctx context.Context, s mcp.Server) (*mcp.Conn, []*mcp.Tool, error) {
	conn, err := mcp.Connect(ctx, s, a.mcpOptions(), nil)
	if err != nil {
		return nil, nil, err
	}
	ts, skipped, err := conn.Tools(ctx)
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	for _, sk := range skipped {
		fmt.Fprintf(a.deps.Stderr, "note: mcp server %s: %s\n", s.Name, sk)
	}
	return conn, ts, nil
}

func writeMCPTools(w io.Writer, specs []tools.Spec) {
	if len(specs) == 0 {
		fmt.Fprintln(w, "The server offers no tools.")
		return
	}
	for _, s := range specs {
		fmt.Fprintf(w, "%s  [%s, %s]\n", sanitize.Line(s.Signature()), s.Source, s.Effect)
		fmt.Fprintf(w, "  %s\n", sanitize.Line(s.Description))
	}
}

func (a *app) mcpCallCommand() *cobra.Command {
	var asJSON, yes bool
	cmd := &cobra.Command{
		Use:   "call [NAME|URL] TOOL [ARGS_JSON]",
		Short: `Call one tool of a server with JSON arguments, e.g. gear mcp call everything echo '{"message":"hi"}'`,
		Long: `Calls TOOL (its name on the server, without the server prefix) with
ARGS_JSON, a JSON object the server checks. NAME|URL may be left out when
--mcp names exactly one server (gear mcp call TOOL ARGS --mcp URL). A tool
that is not read-only asks first on a terminal; elsewhere it needs --yes (or
agent.allowed_tools). An isError result exits 1 with the server's message.
A tool the server lists but gear's library leaves out (gear mcp tools says
why) is called all the same.`,
		Example: `  gear mcp call everything echo '{"message":"hi"}'
  gear mcp call add '{"a":2,"b":3}' --mcp http://localhost:8080/mcp`,
		Args: cobra.RangeArgs(1, 3),
		RunE: func(cmd *cobra.Command, args []string) error {
			var s mcp.Server
			var err error
			if one, ok := a.onlyFlagServer(args); ok {
				s = one
			} else {
				if len(args) < 2 {
					return usageErrorf("gear mcp call needs a server and a tool: gear mcp call NAME|URL TOOL [ARGS_JSON], or TOOL [ARGS_JSON] --mcp URL")
				}
				if s, err = a.findServer(args[0]); err != nil {
					return err
				}
				args = args[1:]
			}
			args = append([]string{s.Name}, args...)
			raw := json.RawMessage("{}")
			if len(args) == 3 {
				raw = json.RawMessage(args[2])
				var obj map[string]any
				if json.Unmarshal(raw, &obj) != nil {
					return usageErrorf("arguments %s: want a JSON object such as {\"a\": 2}", oneLine(args[2]))
				}
			}
			conn, ts, err := a.connectOne(cmd.Context(), s)
			if err != nil {
				return err
			}
			defer conn.Close()
			var spec *tools.Spec
			for _, t := range ts {
				if t.Remote() == args[1] {
					sp := t.Spec()
					spec = &sp
				}
			}
			if lo, ok := conn.LeftOutTool(args[1]); spec == nil && ok {
				// Left out of the library, not of the server: with raw
				// JSON there is nothing gear must read in its schema.
				fmt.Fprintf(a.deps.Stderr, "note: %s is not in gear's library (%s); calling it with the arguments as given, the server checks them\n", sanitize.Line(lo.Name), sanitize.Line(lo.Why))
				spec = &tools.Spec{Name: lo.Name, Effect: lo.Effect, Source: tools.Source{Kind: tools.SourceMCP, Name: s.Name}}
			}
			if spec == nil {
				return usageErrorf("mcp server %s has no tool %q (gear mcp tools %s lists them)", s.Name, sanitize.Line(args[1]), s.Name)
			}
			if ok, err := a.mayRun(cmd.Context(), *spec, yes); err != nil || !ok {
				return err
			}
			res, err := conn.Call(cmd.Context(), args[1], raw)
			if asJSON {
				rec := toolRunJSON{Tool: spec.Name, Response: res.Text, Data: res.Data}
				json.Unmarshal(raw, &rec.Args)
				if err != nil {
					rec.Error = oneLine(err.Error())
				}
				if werr := writeJSON(cmd.OutOrStdout(), rec); werr != nil {
					return werr
				}
				if err != nil {
					return silentError{err}
				}
				return nil
			}
			if err != nil {
				if tools.IsInput(err) {
					// The tool ran and said it failed: exit 1, not a usage error.
					return fmt.Errorf("%s", err.Error())
				}
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), sanitize.Text(res.Text))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: tool, args, response, data, error")
	cmd.Flags().BoolVar(&yes, "yes", false, "run a tool that is not read-only without asking")
	return cmd
}

// mayRun is the run-time gate for a tool that is not read-only: allowed
// in the config or by --yes, it runs; on a terminal the user is asked (run
// once, always allow — remembered in the config — or not); elsewhere it
// does not run, and the error says how to allow it.
func (a *app) mayRun(ctx context.Context, s tools.Spec, yes bool) (bool, error) {
	if s.Effect.ReadOnly() || yes || a.cfg.Agent.Allowed(s.Name) {
		return true, nil
	}
	if !a.interactive() {
		return false, usageErrorf("%s is not read-only (%s, from %s): pass --yes to run it, or add it to agent.allowed_tools", s.Name, effectWords(s.Effect), s.Source)
	}
	answer, err := a.askRun(ctx, s.Name, s.Effect, s.Source.String())
	if err != nil {
		return false, err
	}
	switch answer {
	case runOnce:
		return true, nil
	case runAlways:
		return true, a.rememberAllowed(s.Name)
	}
	return false, fmt.Errorf("%s was not run", s.Name)
}

type runAnswer int

const (
	runNo runAnswer = iota
	runOnce
	runAlways
)

// askRun asks on the terminal whether a tool that may change something
// runs: y once, a always (remembered), anything else no.
func (a *app) askRun(ctx context.Context, tool string, effect tools.Effect, source string) (runAnswer, error) {
	line, err := a.promptLine(ctx, "%s %s (from %s). Run it? [y]es once, [a]lways allow this tool, [N]o (ctrl+c leaves): ", tool, effectWords(effect), sanitize.Line(source))
	if err != nil {
		return runNo, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return runOnce, nil
	case "a", "always":
		return runAlways, nil
	}
	return runNo, nil
}

func effectWords(e tools.Effect) string {
	if e == tools.EffectCosts {
		return "may cost money or quota"
	}
	return "may change things"
}

// rememberAllowed adds tool to agent.allowed_tools in the config file.
func (a *app) rememberAllowed(tool string) error {
	path, _ := config.FilePath(a.configPath, a.deps.Getenv)
	if err := config.AllowTool(path, tool); err != nil {
		return err
	}
	a.cfg.Agent.AllowedTools = append(a.cfg.Agent.AllowedTools, tool)
	fmt.Fprintf(a.deps.Stderr, "note: %s is allowed from now on (agent.allowed_tools in %s)\n", tool, sanitize.Line(path))
	return nil
}

func (a *app) mcpImportCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Add the servers of an mcpServers JSON (Claude Desktop, Cursor, oterm) to gear's config",
		Long: `Reads the "mcpServers" object of FILE — claude_desktop_config.json,
~/.cursor/mcp.json, oterm's config.json — and adds each server under
mcp.servers in gear's config file. A name already configured differently is
refused, never overwritten. Keys written in the file are copied as they are:
prefer ${ENV_VAR} references in env and headers.`,
		Example: `  gear mcp import ~/.config/Claude/claude_desktop_config.json
  gear mcp import ~/.cursor/mcp.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[0])
			if err != nil {
				return usageErrorf("cannot read %s: %v", args[0], unwrapPathErr(err))
			}
			servers, err := config.ReadMCPServers(data)
			if err != nil {
				return usageErrorf("%s: %v", args[0], err)
			}
			path, _ := config.FilePath(a.configPath, a.deps.Getenv)
			added, err := config.AddMCPServers(path, a.cfg.MCP.Servers, servers)
			if err != nil {
				return usageError{err}
			}
			out := cmd.OutOrStdout()
			if len(added) == 0 {
				fmt.Fprintf(out, "Nothing to add: every server of %s is already in %s.\n", args[0], path)
				return nil
			}
			fmt.Fprintf(out, "Added %d MCP server(s) to %s: %s\n", len(added), path, strings.Join(added, ", "))
			fmt.Fprintln(out, "gear mcp list shows whether they connect.")
			return nil
		},
	}
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if e, ok := err.(*os.PathError); ok {
		pe = e
		return pe.Err
	}
	return err
}
