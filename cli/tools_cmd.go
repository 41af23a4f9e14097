package cli

import (
	"context"
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
		Short: "List the tool library: descriptions, parameters and examples",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			reg, err := a.registry()
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), reg.Specs())
			}
			writeToolList(cmd.OutOrStdout(), reg.Specs())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the specs as JSON")
	return cmd
}

func writeToolList(w io.Writer, specs []tools.Spec) {
	for i, s := range specs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  [%s]\n", s.Signature(), s.Family)
		fmt.Fprintf(w, "  %s\n", s.Description)
		if len(s.Params) > 0 {
			fmt.Fprintln(w, "  Parameters:")
			for _, p := range s.Params {
				opt := ""
				if p.Optional {
					opt = ", optional"
				}
				extra := ""
				if len(p.Enum) > 0 {
					extra = " One of: " + strings.Join(p.Enum, ", ") + "."
				}
				fmt.Fprintf(w, "    %s (%s%s): %s%s\n", p.Name, p.Type, opt, p.Description, extra)
			}
		}
		if len(s.Examples) > 0 {
			fmt.Fprintln(w, "  Examples:")
			for _, ex := range s.Examples {
				fmt.Fprintf(w, "    %q -> %s\n", ex.Query, ex.Call)
			}
		}
	}
}

func (a *app) toolCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "tool CALL",
		Short: "Run one tool call, e.g. gear tool '" + builtin.ExampleCall() + "'",
		Long: `Run one tool call in the canonical syntax, Name(arg, "string", 3.5), or the
JSON form {"tool": "Name", "args": {...}}. A call that does not parse exits 2;
a tool that fails at run time exits 1.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, err := a.registry()
			if err != nil {
				return err
			}
			return a.runTool(cmd.Context(), cmd.OutOrStdout(), reg, args[0], asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: tool, args, response, data, error")
	return cmd
}

// toolRunJSON is `gear tool --json`'s one object.
type toolRunJSON struct {
	Tool     string         `json:"tool"`
	Args     map[string]any `json:"args"`
	Response string         `json:"response"`
	Data     any            `json:"data"`
	Error    string         `json:"error"`
}

func (a *app) runTool(ctx context.Context, out io.Writer, reg *tools.Registry, text string, asJSON bool) error {
	call, err := reg.Parse(text)
	if err == nil {
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

// argsJSON renders a call's arguments as a JSON object's fields.
func argsJSON(c tools.Call) map[string]any {
	m := make(map[string]any, len(c.Args))
	for _, arg := range c.Args {
		if arg.Value.Kind == tools.KindNumber {
			m[arg.Name] = arg.Value.Num
		} else {
			m[arg.Name] = arg.Value.Str
		}
	}
	return m
}

func writeJSON(w io.Writer, v any) error { return encodeJSON(w, v, "  ") }

// silentError carries an exit code for an error already reported on
// stdout (as JSON), so Run prints nothing more.
type silentError struct{ err error }

func (e silentError) Error() string { return e.err.Error() }
func (e silentError) Unwrap() error { return e.err }
