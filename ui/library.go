package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/gear-chat/gear/tools"
)

// libraryExamples bounds the examples /tools shows per tool (gear tools
// shows them all).
const libraryExamples = 2

// libraryMarkdown is the tool library as /tools shows it (the paper's
// Figure 9a): each tool's signature, description and examples.
func libraryMarkdown(specs []tools.Spec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Tool library — %d tools\n\n", len(specs))
	b.WriteString("gear grounds each question to one of these tools. `/GEAR` shows the tool's response as is; " +
		"`/use TOOL` answers the last question again with another one.\n\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "### %s\n\n`%s` · %s\n\n%s\n\n", mdText(s.Name), mdCode(s.Signature()), mdText(string(s.Family)),
			mdText(s.Description))
		for i, ex := range s.Examples {
			if i == libraryExamples {
				break
			}
			if ex.Call == "" {
				fmt.Fprintf(&b, "- %s\n", mdText(ex.Query))
				continue
			}
			fmt.Fprintf(&b, "- %s → `%s`\n", mdText(ex.Query), mdCode(ex.Call))
		}
		b.WriteString("\n")
	}
	b.WriteString("`gear tools` lists every example.\n")
	return b.String()
}

// welcomeMarkdown opens an empty conversation.
func welcomeMarkdown() string {
	return "## gear\n\nAsk anything. gear picks a tool for each question with GEAR, shows how sure it is, " +
		"and calls it under the ToolDec machine.\n\nTry `what is 17 * 23`, `/GEAR what time is it in Adelaide` " +
		"or `/tools`; `/help` lists the commands and keys.\n"
}

// helpMarkdown lists the commands and keys.
func helpMarkdown(k keyMap) string {
	var b strings.Builder
	b.WriteString("## Commands\n\n")
	for _, c := range commands() {
		usage := c.name
		if c.args != "" {
			usage += " " + c.args
		}
		fmt.Fprintf(&b, "- `%s` — %s\n", mdCode(usage), c.desc)
	}
	b.WriteString("\nA line without a command is answered in the current /mode. Tab completes commands, tool names " +
		"and, after /GEAR, the call (the ToolDec machine says what can come next).\n\n## Keys\n\n")
	for _, bind := range []key.Binding{k.Send, k.Newline, k.Recall, k.Complete, k.Scroll, k.Details, k.Up, k.Down,
		k.WrongTool, k.Image, k.Cancel, k.Quit} {
		fmt.Fprintf(&b, "- `%s` — %s\n", mdCode(bind.Help().Key), bind.Help().Desc)
	}
	b.WriteString("\nWhen grounding is unsure it asks first: a number picks a tool, enter on an empty input runs the " +
		"first, esc answers without a tool (or, without a chat model, cancels the question). What you type meanwhile " +
		"stays in the input. ctrl+c cancels a running turn, clears a typed line, and on an empty input, twice, quits; " +
		"a line sent while a turn runs is queued.\n")
	return b.String()
}

// mdText keeps a tool's own words from being read as Markdown.
func mdText(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`, "#", `\#`,
		"\n", " ")
	return r.Replace(cleanLine(s))
}

// mdCode makes s safe inside a code span.
func mdCode(s string) string { return strings.ReplaceAll(cleanLine(s), "`", "'") }
