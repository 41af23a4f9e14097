package agent

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gear-chat/gear/internal/lazyregexp"
	"github.com/gear-chat/gear/store"
)

// InputKind is what a line the user typed asks for.
type InputKind int

const (
	// InputEmpty is a blank line.
	InputEmpty InputKind = iota
	// InputQuery is a query to answer in Input.Mode.
	InputQuery
	// InputCall is "/GEAR ToolName(args)": run exactly that call.
	InputCall
	// InputSwitch is "/use TOOL" or "use wiki instead": re-run the last
	// turn with Input.Tool.
	InputSwitch
	// InputCommand is any other slash command ("/tools", "/mode direct"):
	// the UI's to handle. Command is its name without the slash, Args the
	// rest.
	InputCommand
)

// Input is a parsed line.
type Input struct {
	Kind InputKind
	// Mode is the mode the line asks for (InputQuery, InputCall).
	Mode store.Mode
	// Query is the text to ground and answer, without its prefix.
	Query string
	// Call is the call to run (InputCall).
	Call string
	// Tool is the tool as the user named it (InputSwitch): a name, a
	// family or an alias; Agent.ResolveTool turns it into tools.
	Tool string
	// Command and Args are an InputCommand's name and the rest of the line.
	Command string
	Args    string
}

// The paper's prefixes (Appendix G, Figure 9).
const (
	DirectPrefix = "/GEAR"
	ChatPrefix   = "@TallChatBot"
)

// switchRe reads "use wiki instead", "no, try the calculator instead",
// "switch to Forecast instead please".
var switchRe = lazyregexp.New(`(?i)^(?:no[,.!]?\s+|nope[,.!]?\s+)?(?:please\s+)?(?:use|try|switch\s+to|call)\s+(?:the\s+|a\s+)?(.{1,60}?)(?:\s+tool)?\s+instead(?:\s+please)?\s*[.!]*$`)

// ParseInput reads a line the user typed. mode is the mode of a line with
// no prefix (empty means chat); toolNames are the library's tools, used to
// tell "/GEAR Sum(2+2)" (a call) from "/GEAR sqrt(16)?" (a query).
//
//	/GEAR <query>           direct mode
//	/GEAR ToolName(args)    run exactly that call (also the JSON form)
//	@TallChatBot <query>    chat mode
//	ToolName(args)          in direct mode, the same as /GEAR ToolName(args)
//	/use TOOL               re-run the last turn with TOOL
//	use wiki instead        the same, in words
//	/anything else          InputCommand, for the UI
//
// Prefixes are matched without case; a line that is only a prefix is
// InputEmpty in that mode.
func ParseInput(text string, mode store.Mode, toolNames []string) Input {
	if mode == "" {
		mode = store.ModeChat
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return Input{Kind: InputEmpty, Mode: mode}
	}
	if rest, ok := cutPrefixWord(text, DirectPrefix); ok {
		if rest == "" {
			return Input{Kind: InputEmpty, Mode: store.ModeDirect}
		}
		if looksLikeCall(rest, toolNames) {
			return Input{Kind: InputCall, Mode: store.ModeDirect, Call: rest}
		}
		return Input{Kind: InputQuery, Mode: store.ModeDirect, Query: rest}
	}
	if rest, ok := cutPrefixWord(text, ChatPrefix); ok {
		if rest == "" {
			return Input{Kind: InputEmpty, Mode: store.ModeChat}
		}
		return Input{Kind: InputQuery, Mode: store.ModeChat, Query: rest}
	}
	if rest, ok := cutPrefixWord(text, "/use"); ok {
		if rest == "" {
			return Input{Kind: InputCommand, Command: "use"}
		}
		return Input{Kind: InputSwitch, Mode: mode, Tool: rest}
	}
	if strings.HasPrefix(text, "/") && len(text) > 1 && isCommandStart(text[1:]) {
		name, args, _ := strings.Cut(text[1:], " ")
		return Input{Kind: InputCommand, Command: strings.ToLower(name), Args: strings.TrimSpace(args)}
	}
	if m := switchRe().FindStringSubmatch(text); m != nil {
		return Input{Kind: InputSwitch, Mode: mode, Tool: strings.TrimSpace(m[1])}
	}
	if mode == store.ModeDirect && looksLikeCall(text, toolNames) {
		// In direct mode a call needs no /GEAR in front.
		return Input{Kind: InputCall, Mode: store.ModeDirect, Call: text}
	}
	return Input{Kind: InputQuery, Mode: mode, Query: text}
}

// cutPrefixWord removes prefix (any case) when it is a whole word.
func cutPrefixWord(text, prefix string) (string, bool) {
	if len(text) < len(prefix) || !strings.EqualFold(text[:len(prefix)], prefix) {
		return "", false
	}
	rest := text[len(prefix):]
	if rest != "" {
		r, _ := utf8.DecodeRuneInString(rest)
		if !unicode.IsSpace(r) {
			return "", false
		}
	}
	return strings.TrimSpace(rest), true
}

// isCommandStart says whether text after "/" starts like a command name
// ("/tools"), not a path or a fraction ("/usr/bin", "/2").
func isCommandStart(text string) bool {
	name, _, _ := strings.Cut(text, " ")
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// looksLikeCall says whether text is written as a call: the JSON form, or
// an identifier followed by "(" that names a library tool (any case) or is
// CamelCase like one — so "sqrt(16)" stays a query while a mistyped
// "WikiSerch("x")" is treated as a call and rejected with a suggestion.
func looksLikeCall(text string, toolNames []string) bool {
	if strings.HasPrefix(text, "{") {
		return true
	}
	i := 0
	for i < len(text) && (isIdentByte(text[i])) {
		i++
	}
	if i == 0 || i >= len(text) {
		return false
	}
	name := text[:i]
	rest := strings.TrimLeft(text[i:], " ")
	if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(text, ")") {
		return false
	}
	for _, n := range toolNames {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	// CamelCase with an inner capital, the shape of gear's tool names.
	return name[0] >= 'A' && name[0] <= 'Z' && strings.IndexFunc(name[1:], unicode.IsUpper) >= 0
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
