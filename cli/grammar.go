package cli

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/constrain"
	"github.com/gear-chat/gear/tools"
)

func (a *app) grammarCommand() *cobra.Command {
	var format string
	var depth int
	cmd := &cobra.Command{
		Use:   "grammar",
		Short: "Print the tool-call grammar for server-side guided decoding",
		Long: `Print the grammar of every call of the current tool library — the ToolDec
machine's language, canonical Name(arg, ...) and JSON {"tool": ..., "args": {...}}
forms — for a server to guide decoding with:

  --format gbnf         llama.cpp's "grammar" field (exact, but for the 2000-byte
                        expression bound)
  --format regex        vLLM's guided regex (expressions nest at most --depth
                        parentheses, 2 by default)
  --format json-schema  OpenAI strict structured outputs, Ollama "format",
                        llama.cpp "json_schema" (expression pattern --depth,
                        1 by default; the JSON form is wrapped as {"call": ...})

Whatever a server decodes is validated by the machine again before it runs.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if depth < 0 || depth > tools.MaxExpressionDepth {
				return usageErrorf("--depth %d: want 0 (the format's default) to %d", depth, tools.MaxExpressionDepth)
			}
			reg, err := a.registry()
			if err != nil {
				return err
			}
			m, err := constrain.FromRegistry(reg)
			if err != nil {
				return fmt.Errorf("grammar: %w", err)
			}
			out := cmd.OutOrStdout()
			opts := constrain.ExportOptions{Depth: depth}
			switch format {
			case "gbnf":
				_, err = fmt.Fprint(out, m.GBNF())
			case "regex":
				_, err = fmt.Fprintln(out, m.Regex(opts))
			case "json-schema":
				var b bytes.Buffer
				if err = json.Indent(&b, m.JSONSchema(opts), "", "  "); err == nil {
					b.WriteByte('\n')
					_, err = out.Write(b.Bytes())
				}
			default:
				return usageErrorf("unknown --format %q: want json-schema, gbnf or regex", format)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "gbnf", "json-schema, gbnf or regex")
	cmd.Flags().IntVar(&depth, "depth", 0, "expression nesting spelled out by regex and json-schema (0: their defaults)")
	return cmd
}
