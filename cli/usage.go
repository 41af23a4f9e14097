package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/tools/builtin"
)

// Command groups, in the order gear --help lists them.
var commandGroups = []*cobra.Group{
	{ID: "chat", Title: "Chat:"},
	{ID: "history", Title: "History:"},
	{ID: "tools", Title: "Tools:"},
	{ID: "research", Title: "Research (the GEAR paper's study and measurements):"},
}

// commandGroup places each top-level command in its group.
var commandGroup = map[string]string{
	"ask": "chat", "setup": "chat", "config": "chat", "version": "chat",
	"history": "history",
	"tools":   "tools", "tool": "tools", "ground": "tools",
	"study": "research", "survey": "research", "report": "research", "tune": "research",
	"replay": "research", "eval": "research", "grammar": "research",
}

// commandExamples is each command's Example, by its path without "gear".
// They live in one table so that every command has one (TestEveryCommand
// HasAnExample) and the commands' files stay about what they do.
var commandExamples = map[string]string{
	"": `  gear                                 open the chat window
  gear ask "what is 17 * 23"
  gear setup                           connect a model server (OpenAI, Ollama, ...)`,
	"version": `  gear version`,
	"tools": `  gear tools
  gear tools --json | jq '.[].name'`,
	// "tool" and the exact call of "ask" are the tools' own examples
	// (toolExamples), filled in by finishCommands.
	"grammar": `  gear grammar --format gbnf > tools.gbnf
  gear grammar --format json-schema`,
	"config": `  gear config
  gear config init                     write a commented config file to edit`,
	"config init": `  gear config init
  gear config init --force             replace an existing file`,
	"setup": `  gear setup`,
	"ask": `  gear ask "what is 17 * 23"
  echo "what is 2+2" | gear ask
  cat notes.txt | gear ask "summarise this"
  gear ask -c "and in Paris?"          continue the last conversation`,
	"history": `  gear history
  gear history --limit 5`,
	"history list":   `  gear history list --limit 20`,
	"history show":   `  gear history show 3`,
	"history search": `  gear history search adelaide`,
	"history export": `  gear history export 3 --format markdown > conversation-3.md`,
	"history delete": `  gear history delete 3 4
  gear history delete --all`,
	"ground": `  gear ground "weather in Paris tomorrow"
  gear ground --json "what is 17 * 23"`,
	"eval":   `  gear eval testdata/grounding-dev.jsonl`,
	"survey": `  gear survey`,
	"study":  `  gear study status`,
	"study start": `  gear study start --phase baseline
  gear study start --phase gear`,
	"study stop":   `  gear study stop`,
	"study status": `  gear study status --json`,
	"report":       `  gear report participants/*.db`,
	"tune":         `  gear tune --dev testdata/grounding-dev.jsonl --write`,
	"replay":       `  gear replay --since 2026-11-01`,
}

// finishCommands walks the command tree once it is built: it types
// cobra's argument errors as usage errors where they arise, gives each
// command its example (keeping one written next to the command) and puts
// the top-level commands in their groups.
func finishCommands(root *cobra.Command) {
	root.AddGroup(commandGroups...)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Args != nil {
			c.Args = usageArgs(c.Args)
		}
		path := strings.TrimSpace(strings.TrimPrefix(c.CommandPath(), root.Name()))
		if ex, ok := commandExamples[path]; ok && c.Example == "" {
			c.Example = ex
		}
		if c.Example == "" || path == "ask" {
			c.Example = joinExamples(c.Example, toolExamples(path))
		}
		if c.Parent() == root {
			c.GroupID = commandGroup[c.Name()]
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// toolExamples are the examples of the commands that run a tool call:
// written from the built-in tools' own usage examples, so help names no
// tool the library lacks.
func toolExamples(path string) string {
	switch path {
	case "tool":
		var b strings.Builder
		for _, call := range builtin.ExampleCalls(2) {
			fmt.Fprintf(&b, "  gear tool '%s'\n", call)
		}
		if j := builtin.ExampleJSONCall(); j != "" {
			fmt.Fprintf(&b, "  gear tool '%s'\n", j)
		}
		return strings.TrimSuffix(b.String(), "\n")
	case "ask":
		if call := builtin.ExampleCall(); call != "" {
			return "  gear ask '/GEAR " + call + "'"
		}
	}
	return ""
}

// joinExamples puts two example blocks one after the other.
func joinExamples(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// usageArgs makes an argument check's error a usage error (exit 2), so
// no caller has to recognise cobra's messages.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}

// rootArgs rejects a word that is not a command.
func rootArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("unknown command %q (gear --help lists them)", args[0])
	}
	return nil
}

// toolCallArgs wants the call as one argument: the shell splits an
// unquoted call into words, and parentheses unquoted are the shell's.
func toolCallArgs(_ *cobra.Command, args []string) error {
	switch {
	case len(args) == 0:
		return usageErrorf("gear tool takes one call, e.g. gear tool '%s'", builtin.ExampleCall())
	case len(args) > 1:
		call := args[0] + "(" + strings.Join(args[1:], " ") + ")"
		if strings.Contains(args[0], "(") {
			call = strings.Join(args, " ")
		}
		return usageErrorf("gear tool takes the call as one argument: quote it, e.g. gear tool '%s'", oneLine(call))
	}
	return nil
}
