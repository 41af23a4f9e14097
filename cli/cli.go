// Package cli is gear's command line. Run builds the command tree with its
// dependencies passed in (output writers, environment, HTTP client, clock),
// so tests drive every command without a process or a network.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/mcp"
	"github.com/gear-chat/gear/tools/place"
	"github.com/gear-chat/gear/ui/termimg"
)

// Version is gear's version, sent in the User-Agent of every request.
const Version = "0.1.0"

// UserAgent names gear to the services it calls (Wikipedia requires one).
const UserAgent = "gear/" + Version + " (+https://github.com/gear-chat/gear)"

// Exit codes.
const (
	ExitOK      = 0
	ExitFailure = 1 // something failed at run time: network, database, model
	ExitUsage   = 2 // the command or its input was wrong: bad flag, bad call
)

// Deps is what commands need from the outside world.
type Deps struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv config.Getenv
	// HTTP is the client tools use; its transport is what tests replace.
	HTTP *http.Client
	Now  func() time.Time
	// IsTerminal reports whether stdout is an interactive terminal.
	IsTerminal bool
	// ImageCaps says how the terminal shows images (ui/termimg.Detect),
	// asked once before the chat window takes the terminal; nil means
	// nothing is drawn, only paths are shown.
	ImageCaps func(context.Context) termimg.Caps
	// DarkBackground asks the terminal whether its background is dark
	// (termimg.BackgroundStdio, bounded by a short timeout); only the chat
	// window calls it, so no other command writes a query to the
	// terminal. nil, or ok false, means a dark background is assumed.
	DarkBackground func(context.Context) (dark, ok bool)
	// StdinIsTerminal reports whether stdin is one: when it is not, gear
	// ask reads its query (or context) from it, and nobody can answer a
	// prompt.
	StdinIsTerminal bool
}

// app is one invocation: its dependencies and the global flags.
type app struct {
	deps       Deps
	configPath string
	dbPath     string
	offline    bool
	models     modelFlags
	cfg        config.Config
	// declared are the tools declared in YAML files (declared.go).
	declared declaredTools
	// places loads the gazetteer on first use, once per invocation, for
	// the tools and the offline grounding engine alike.
	places func() (*place.Gazetteer, error)
	// clients are the model roles' clients, made on first use (llmClient).
	clients map[llm.Role]*llm.Client
	// transports give each model endpoint one keep-alive transport, when
	// Deps.HTTP leaves the transport to gear (tests set their own).
	transports *llm.Transports
	// servers checks the model servers once; fallback is the model
	// grounding engine's switch to the offline one (nil with the offline
	// engine).
	// serversMu guards servers: the chat window's background rebuilds of
	// its agent read it while the command sets it up.
	serversMu sync.Mutex
	servers   *serverCheck
	fallback  *groundingFallback
	// mcpFlags are the --mcp servers of this run; mcp connects them (and
	// the config's) on first use, in the background (see mcp.go).
	mcpFlags    []string
	mcp         *mcp.Manager
	mcpErr      error
	mcpNoted    bool
	mcpMu       sync.Mutex
	onMCPChange func()
	// runCtx is the command's context (set before it runs): the MCP
	// sessions live as long as it.
	runCtx context.Context
}

// newApp makes one invocation's app. Tests that drive commands from
// inside the package build it here too, so no field is left unset.
func newApp(deps Deps) *app {
	return &app{deps: deps, places: sync.OnceValues(place.Load), clients: map[llm.Role]*llm.Client{}, transports: llm.NewTransports()}
}

// Run runs gear with args (without the program name) and returns the exit
// code. Errors are printed as one line on stderr.
func Run(ctx context.Context, args []string, deps Deps) int {
	if deps.Getenv == nil {
		deps.Getenv = func(string) string { return "" }
	}
	if deps.HTTP == nil {
		deps.HTTP = &http.Client{}
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	a := newApp(deps)
	a.runCtx = ctx
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(deps.Stdin)
	root.SetOut(deps.Stdout)
	root.SetErr(deps.Stderr)
	err := root.ExecuteContext(ctx)
	a.closeMCP()
	if err == nil {
		return ExitOK
	}
	var silent silentError
	if errors.As(err, &silent) {
		return exitCode(silent.err)
	}
	fmt.Fprintln(deps.Stderr, "gear: "+oneLine(config.RedactText(err.Error())))
	return exitCode(err)
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "gear",
		Short: "A terminal chatbot that picks the right tool (GEAR) and calls it safely (ToolDec)",
		Long: `gear answers in the terminal, using tools when a question needs one:
it grounds each query to a tool with GEAR (semantic + pattern scores, with a
confidence you see) and emits the call under the ToolDec machine, so a call
with a wrong tool name or a mistyped argument never runs.

Without a model endpoint gear uses its offline engine: grounding, the
calculator, the clock and the time zone converter work with no network.

On a terminal, gear without a command opens the chat window.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			a.runCtx = cmd.Context()
			if err := checkExclusive(cmd); err != nil {
				return err
			}
			return a.loadConfig()
		},
		Args: rootArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.deps.IsTerminal {
				return a.chat(cmd.Context())
			}
			return cmd.Help()
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	pf := root.PersistentFlags()
	pf.StringVar(&a.configPath, "config", "", "config file (default $XDG_CONFIG_HOME/gear/config.yaml)")
	pf.StringVar(&a.dbPath, "db", "", "history database (default $XDG_DATA_HOME/gear/gear.db)")
	pf.BoolVar(&a.offline, "offline", false, "use the built-in offline engine for every model role")
	a.declared.register(pf)
	a.models.register(pf)
	pf.StringArrayVar(&a.mcpFlags, "mcp", nil, "add an MCP server for this run: NAME=COMMAND ARG… (stdio) or a URL (streamable HTTP); repeatable")
	root.AddCommand(
		a.versionCommand(),
		a.toolsCommand(),
		a.toolCommand(),
		a.grammarCommand(),
		a.configCommand(),
		a.setupCommand(),
		a.askCommand(),
		a.historyCommand(),
		a.groundCommand(),
		a.evalCommand(),
		a.surveyCommand(),
		a.studyCommand(),
		a.reportCommand(),
		a.tuneCommand(),
		a.replayCommand(),
		a.mcpCommand(),
		a.manCommand(),
	)
	finishCommands(root)
	return root
}

// loadConfig applies the layers: defaults < file < environment < flags.
func (a *app) loadConfig() error {
	cfg, err := config.Load(a.configPath, a.deps.Getenv)
	if err != nil {
		return usageError{err}
	}
	if a.dbPath != "" {
		cfg.DB = a.dbPath
	}
	if a.offline {
		cfg.Offline = true
	}
	if err := a.models.apply(&cfg); err != nil {
		return err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintln(a.deps.Stderr, "gear: "+w)
	}
	a.cfg = cfg
	return nil
}

// usageError marks an error as the user's to fix: exit code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func exitCode(err error) int {
	var ue usageError
	var se *tools.SyntaxError
	var te *tools.UnknownToolError
	switch {
	case errors.As(err, &ue), errors.As(err, &se), errors.As(err, &te), tools.IsInput(err):
		return ExitUsage
	}
	return ExitFailure
}

// oneLine makes untrusted text — an error message, a participant's file,
// a tool's response — safe to print on one line, spaces folded.
func oneLine(s string) string {
	return strings.Join(strings.Fields(sanitize.Line(s)), " ")
}
