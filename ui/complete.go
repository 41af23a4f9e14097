package ui

import (
	"strings"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// command is a slash command, as /help lists it.
type command struct {
	name, args, desc string
}

// commands are the chat's commands in the order /help lists them.
func commands() []command {
	return []command{
		{agent.DirectPrefix, "QUERY | Tool(args)", "answer with the tool's response as is (the paper's direct mode), or run exactly that call"},
		{agent.ChatPrefix, "QUERY", "answer in conversation: the tool's response rewritten by the chat model"},
		{"/tools", "", "the tool library, with descriptions and examples"},
		{"/use", "TOOL", "answer the last question again with TOOL"},
		{"/mode", "chat|direct|baseline", "how lines without a prefix are answered"},
		{"/new", "", "start a new conversation"},
		{"/history", "[WORDS]", "browse and search past conversations, reopen one"},
		{"/rate", "up|down|wrong [TOOL] [COMMENT]", "rate the last answer"},
		{"/survey", "", "the user satisfaction questionnaire"},
		{"/help", "", "keys and commands"},
		{"/quit", "", "leave gear"},
	}
}

// completion is what Tab found: the input's new text (empty when it stays)
// and the candidates to show when there is more than one.
type completion struct {
	text       string
	candidates []string
}

// complete completes the input: command names, /mode's modes, /use's and
// /rate wrong's tool names, and after /GEAR a call through the ToolDec
// machine (tool names, then the text the machine forces).
func complete(text string, a Agent, toolNames []string) completion {
	if strings.Contains(text, "\n") {
		return completion{}
	}
	head, rest, spaced := strings.Cut(text, " ")
	if !spaced {
		if !strings.HasPrefix(text, "/") && !strings.HasPrefix(text, "@") {
			return completion{}
		}
		var names []string
		for _, c := range commands() {
			names = append(names, c.name)
		}
		return completeWord("", text, names, withSpace(func(name string) bool {
			for _, c := range commands() {
				if c.name == name {
					return c.args != ""
				}
			}
			return false
		}))
	}
	switch strings.ToLower(head) {
	case strings.ToLower(agent.DirectPrefix):
		return completeCall(head+" ", strings.TrimLeft(rest, " "), a)
	case "/mode":
		var modes []string
		for _, m := range store.Modes() {
			modes = append(modes, string(m))
		}
		return completeWord(head+" ", rest, modes, nil)
	case "/use":
		return completeWord(head+" ", rest, toolNames, nil)
	case "/rate":
		verb, tool, more := strings.Cut(rest, " ")
		if !more {
			return completeWord(head+" ", rest, []string{"up", "down", "wrong"}, withSpace(func(w string) bool { return w == "wrong" }))
		}
		if strings.EqualFold(verb, "wrong") && !strings.Contains(tool, " ") {
			return completeWord(head+" "+verb+" ", tool, wantedChoices(toolNames), nil)
		}
	}
	return completion{}
}

// withSpace adds a space after a completed word that takes arguments.
func withSpace(takesArgs func(string) bool) func(string) string {
	return func(w string) string {
		if takesArgs(w) {
			return w + " "
		}
		return w
	}
}

// completeWord completes the last word among words (any case): one match
// is written out, several are extended to their common prefix and listed.
func completeWord(lead, partial string, words []string, finish func(string) string) completion {
	var matches []string
	for _, w := range words {
		if len(partial) <= len(w) && strings.EqualFold(w[:len(partial)], partial) {
			matches = append(matches, w)
		}
	}
	switch len(matches) {
	case 0:
		return completion{}
	case 1:
		w := matches[0]
		if finish != nil {
			w = finish(w)
		}
		return completion{text: lead + w}
	}
	prefix := commonPrefix(matches)
	out := completion{candidates: matches}
	if len(prefix) > len(partial) {
		out.text = lead + prefix
	}
	return out
}

// completeCall asks the machine how the call typed after /GEAR can go on.
func completeCall(lead, typed string, a Agent) completion {
	cs := a.Complete(typed)
	switch len(cs) {
	case 0:
		return completion{}
	case 1:
		return completion{text: lead + typed + cs[0].Text}
	}
	texts := make([]string, len(cs))
	names := make([]string, len(cs))
	for i, c := range cs {
		texts[i], names[i] = c.Text, c.Tool
	}
	out := completion{candidates: names}
	if p := commonPrefix(texts); p != "" {
		out.text = lead + typed + p
	}
	return out
}

// commonPrefix is the longest prefix the words share (any case; the first
// word's spelling).
func commonPrefix(words []string) string {
	if len(words) == 0 {
		return ""
	}
	p := words[0]
	for _, w := range words[1:] {
		n := 0
		for n < len(p) && n < len(w) && strings.EqualFold(p[n:n+1], w[n:n+1]) {
			n++
		}
		p = p[:n]
	}
	return p
}
