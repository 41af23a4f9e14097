package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/builtin"
)

func (a *app) toolsCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the tool library: sources, parameters and examples",
		Long: `List every tool of the library: its call signature, where it comes from
(built-in, a declared tool's file, or an MCP server), its side-effect class,
its parameters with their types and its usage examples. --json prints one
JSON array of the tools' specs, each with its signature and wire name (the
name model APIs receive: '.' written as "__").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			reg, err := a.registry()
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), toolListing(reg.Specs()))
			}
			writeToolList(cmd.OutOrStdout(), reg.Specs())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the specs as JSON")
	return cmd
}

// toolJSON is one tool in `gear tools --json`: the spec's own fields and
// what scripts would otherwise compute from them.
type toolJSON struct {
	tools.Spec
	Signature string `json:"signature"`
	WireName  string `json:"wire_name"`
}

func toolListing(specs []tools.Spec) []toolJSON {
	out := make([]toolJSON, len(specs))
	for i, s := range specs {
		out[i] = toolJSON{Spec: s, Signature: s.Signature(), WireName: s.WireName()}
	}
	return out
}

// writeToolList prints the library for people. Descriptions and examples
// of declared and MCP tools are untrusted text: each is sanitised and kept
// on its line.
func writeToolList(w io.Writer, specs []tools.Spec) {
	for i, s := range specs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  [%s]\n", sanitize.Line(s.Signature()), sanitize.Line(string(s.Family)))
		effect := string(s.Effect)
		if effect == "" {
			effect = "effect not declared: asks before running"
		}
		fmt.Fprintf(w, "  Source: %s · %s\n", sanitize.Line(s.Source.String()), effect)
		fmt.Fprintf(w, "  %s\n", sanitize.Line(s.Description))
		if len(s.Params) > 0 {
			fmt.Fprintln(w, "  Parameters:")
			for _, p := range s.Params {
				about := strings.TrimSpace(sanitize.Line(p.Description) + paramDetails(p))
				fmt.Fprintf(w, "    %s (%s): %s\n", sanitize.Line(p.Name), paramKind(p), about)
			}
		}
		if len(s.Examples) > 0 {
			fmt.Fprintln(w, "  Examples:")
			for _, ex := range s.Examples {
				if ex.Call == "" {
					fmt.Fprintf(w, "    %q\n", sanitize.Line(ex.Query))
					continue
				}
				fmt.Fprintf(w, "    %q -> %s\n", sanitize.Line(ex.Query), sanitize.Line(ex.Call))
			}
		}
	}
}

// paramKind is a parameter's type as listed: "place, optional".
func paramKind(p tools.Param) string {
	kind := string(p.Type)
	if p.Format != "" {
		kind += " " + p.Format
	}
	if p.Optional {
		kind += ", optional"
	}
	return kind
}

// paramDetails lists what else a parameter's type says: its values, its
// pattern, its default.
func paramDetails(p tools.Param) string {
	var b strings.Builder
	if len(p.Enum) > 0 {
		b.WriteString(" One of: " + sanitize.Line(strings.Join(p.Enum, ", ")) + ".")
	}
	if p.Pattern != "" && p.Format == "" {
		b.WriteString(" Matching: ^" + sanitize.Line(p.Pattern) + "$.")
	}
	if len(p.Default) > 0 {
		b.WriteString(" Default: " + sanitize.Line(string(p.Default)) + ".")
	}
	return b.String()
}

func (a *app) toolCommand() *cobra.Command {
	var asJSON, yes bool
	cmd := &cobra.Command{
		Use:   "tool CALL",
		Short: "Run one tool call, e.g. gear tool '" + builtin.ExampleCall() + "'",
		Long: `Run one tool call in the canonical syntax, Name(arg, "string", 3.5), or the
JSON form {"tool": "Name", "args": {...}}. A call that does not parse exits 2;
a tool that fails at run time exits 1. A tool that is not read-only (an MCP
or declared tool that may write) asks first on a terminal; elsewhere it needs
--yes or agent.allowed_tools.`,
		Args: toolCallArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, err := a.registry()
			if err != nil {
				return err
			}
			return a.runTool(cmd.Context(), cmd.OutOrStdout(), reg, toolRunOptions{call: args[0], json: asJSON, yes: yes})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: tool, args, response, data, error")
	cmd.Flags().BoolVar(&yes, "yes", false, "run a tool that is not read-only without asking")
	return cmd
}

// toolRunJSON is `gear tool --json`'s one object.
type toolRunJSON struct {
	Tool     string          `json:"tool"`
	Args     json.RawMessage `json:"args"`
	Response string          `json:"response"`
	Data     any             `json:"data"`
	Error    string          `json:"error"`
}

// toolRunOptions are one gear tool's choices.
type toolRunOptions struct {
	// call is the call as typed, canonical or JSON.
	call string
	// json prints one JSON object instead of the response.
	json bool
	// yes runs a tool that is not read-only without asking.
	yes bool
}

func (a *app) runTool(ctx context.Context, out io.Writer, reg *tools.Registry, o toolRunOptions) error {
	text, asJSON, yes := o.call, o.json, o.yes
	call, err := reg.Parse(text)
	if err == nil {
		spec, _ := reg.Spec(call.Tool)
		if ok, err := a.mayRun(ctx, spec, yes); err != nil || !ok {
			return err
		}
		var res tools.Result
		res, err = reg.Run(ctx, call)
		if err == nil {
			if asJSON {
				return writeJSON(out, toolRunJSON{Tool: call.Tool, Args: argsJSON(call), Response: res.Text, Data: res.Data})
			}
			fmt.Fprintln(out, sanitize.Text(res.Text))
			return nil
		}
		err = fmt.Errorf("%s: %w", call.Tool, err)
	} else {
		var se *tools.SyntaxError
		if errors.As(err, &se) {
			err = fmt.Errorf("cannot parse the call: %w", err)
		}
	}
	if asJSON {
		rec := toolRunJSON{Tool: call.Tool, Args: argsJSON(call), Error: oneLine(err.Error())}
		if werr := writeJSON(out, rec); werr != nil {
			return werr
		}
		return silentError{err}
	}
	return err
}

// argsJSON renders a call's arguments as one JSON object, in parameter
// order.
func argsJSON(c tools.Call) json.RawMessage { return tools.ArgsJSON(c) }

func writeJSON(w io.Writer, v any) error { return encodeJSON(w, v, "  ") }

// silentError carries an exit code for an error already reported on
// stdout (as JSON), so Run prints nothing more.
type silentError struct{ err error }

func (e silentError) Error() string { return e.err.Error() }
func (e silentError) Unwrap() error { return e.err }
