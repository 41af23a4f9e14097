package constrain

import (
	"fmt"
	"unicode/utf8"

	"github.com/gear-chat/gear/tools"
)

// Error is a call the machine rejects: where it went wrong and what was
// expected there. It unwraps to a *tools.SyntaxError, or to a
// *tools.UnknownToolError when the call names a tool the library lacks, so
// callers that sort errors by the tools types keep working.
type Error struct {
	Offset  int    // byte offset of the problem
	Column  int    // the same place in characters, from 1
	Msg     string // what was expected and what was found
	Unknown string // the tool name, when the call names a tool the library lacks
}

func (e *Error) Error() string { return fmt.Sprintf("at column %d: %s", e.Column, e.Msg) }

// Unwrap gives the tools package's error for the same problem.
func (e *Error) Unwrap() error {
	if e.Unknown != "" {
		return &tools.UnknownToolError{Name: e.Unknown}
	}
	return &tools.SyntaxError{Column: e.Column, Msg: e.Msg}
}

// Validate runs text through the machine. A call it accepts is parsed by
// tools.Parse for its value and its arguments checked against the tool's
// input schema (a *tools.ArgsError when they do not fit); anything else is
// an *Error saying where and what was expected, e.g. `at column 5:
// expected a number for base, found "abc"`. Nothing the machine rejects
// should ever run.
func (m *Machine) Validate(text string) (tools.Call, error) {
	s, at, mark, ok := m.run(text)
	if !ok || !m.Accepting(s) {
		return tools.Call{}, m.describe(text, at, s, mark)
	}
	return m.parseAccepted(text)
}

// parseAccepted parses a call the machine accepted, for its value, and
// checks its arguments against the tool's input schema (what the machine
// reads as any JSON, or cannot bound: a *tools.ArgsError).
func (m *Machine) parseAccepted(text string) (tools.Call, error) {
	call, err := tools.Parse(text, m.lookup)
	if err != nil {
		// The machine and the parser are tested to agree; if they ever do
		// not, refusing is the safe side.
		return tools.Call{}, fmt.Errorf("constrain: the machine accepted a call the parser refuses (%v); please report this as a bug", err)
	}
	if err := m.checks.Check(call); err != nil {
		return tools.Call{}, err
	}
	return call, nil
}

// run feeds text to the machine until it refuses a byte (ok false, s the
// refusing state, at the byte) or the text ends (ok true, at len(text)).
func (m *Machine) run(text string) (s State, at int, mark marks, ok bool) {
	for i := 0; i < len(text); i++ {
		before := s
		refused := !m.step(&s, text[i])
		mark.note(before, s, i)
		if refused {
			return s, i, mark, false
		}
	}
	return s, len(text), mark, true
}

// marks remembers where the current tool name and value began, for
// messages that describe the whole of them.
type marks struct{ name, value int }

func (k *marks) note(before, after State, i int) {
	if after.phase == phName && before.phase != phName || after.phase == phJName && before.phase != phJName {
		k.name = i
		if after.phase == phJName {
			k.name = i + 1
		}
	}
	if after.phase == phValue && before.phase != phValue && before.phase != phKeyword ||
		after.phase == phKeyword && before.phase != phKeyword {
		k.value = i // a keyword's name, or the literal read with it, starts here
	}
}

// describe explains why the byte at (or the end, when at == len(text))
// cannot come in state s.
func (m *Machine) describe(text string, at int, s State, mark marks) *Error {
	end := at >= len(text)
	var c byte
	if !end {
		c = text[at]
	}
	found := describeToken(text, at)
	e := func(pos int, format string, args ...any) *Error {
		return &Error{Offset: pos, Column: utf8.RuneCountInString(text[:pos]) + 1, Msg: fmt.Sprintf(format, args...)}
	}
	switch s.phase {
	case phStart:
		return e(at, `expected a tool name or "{", found %s`, found)
	case phName, phJName:
		nameEnd := mark.name
		for nameEnd < len(text) && isToolNameByte(text[nameEnd]) {
			nameEnd++
		}
		name := text[mark.name:nameEnd]
		if name == "" || !tools.IsToolNameStart(name[0]) {
			return e(at, "expected a tool name, found %s", found)
		}
		if _, ok := m.byName[name]; ok && s.phase == phJName {
			return e(at, `expected the closing quote of the tool name, found %s`, found)
		}
		msg := fmt.Sprintf("unknown tool %q", name)
		if near, ok := m.nearestTool(name); ok {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		} else {
			msg += " (gear tools lists the library)"
		}
		err := e(mark.name, "%s", msg)
		err.Unknown = name
		return err
	case phAfterName:
		return e(at, `expected "(" after %s, found %s`, m.tools[s.node].spec.Name, found)
	case phOpen:
		tool := &m.tools[s.node]
		if c == ')' && tool.required > 0 {
			return e(at, "%s", missingArg(tool, 0))
		}
		if len(tool.params) == 0 {
			return e(at, `expected ")": %s takes no arguments, found %s`, tool.spec.Name, found)
		}
		if tool.required == 0 {
			return e(at, `expected %s or ")", found %s`, m.paramWant(tool, 0), found)
		}
		return e(at, "expected %s, found %s", m.paramWant(tool, 0), found)
	case phBeforeValue:
		if s.flags&flagKeywords != 0 {
			return e(at, `expected a parameter name and ":" (keyword arguments cannot be followed by positional ones), found %s`, found)
		}
		return e(at, "expected %s, found %s", m.paramWant(&m.tools[s.node], int(s.param)), found)
	case phValue:
		return m.describeValue(text, at, s, mark, e)
	case phAfterValue:
		tool := &m.tools[s.node]
		next := int(s.param) + 1
		json := s.flags&flagJSON != 0
		closer := `")"`
		if json {
			closer = `"}"`
		}
		switch {
		case c == ',' && next >= len(tool.params):
			return e(at, "too many arguments: %s takes %d", tool.spec.Name, len(tool.params))
		case (c == ')' && !json || c == '}' && json) && next < tool.required:
			return e(at, "%s", missingArg(tool, next))
		case next >= len(tool.params):
			return e(at, "expected %s, found %s", closer, found)
		case next < tool.required:
			return e(at, `expected ",", found %s`, found)
		}
		return e(at, `expected "," or %s, found %s`, closer, found)
	case phDone:
		return e(at, "unexpected text after the call: %s", found)
	case phKeyword:
		return m.describeKeyword(text, at, s, mark, e)
	case phJKey:
		if s.sub == keyParam {
			return m.describeJSONKey(text, at, s, e)
		}
		start := at - int(s.count) // report the whole key, from its quote
		return e(start, "expected %s, found %s", m.keyLiteral(&s), describeToken(text, start))
	case phJColon:
		return e(at, `expected ":", found %s`, found)
	case phJAfterColon:
		if s.sub == keyTool {
			return e(at, "expected a quoted tool name, found %s", found)
		}
		return e(at, `expected "{", found %s`, found)
	case phJAfterName:
		return e(at, `expected ",", found %s`, found)
	case phJArgs:
		tool := &m.tools[s.node]
		if c == '}' && tool.required > 0 {
			return e(at, "%s", missingArg(tool, 0))
		}
		if len(tool.params) == 0 {
			return e(at, `expected "}": %s takes no arguments, found %s`, tool.spec.Name, found)
		}
		if tool.required > 0 {
			return e(at, "expected %s, found %s", tool.params[0].key, found)
		}
		return e(at, `expected %s or "}", found %s`, tool.params[0].key, found)
	case phJClose:
		return e(at, `expected "}", found %s`, found)
	}
	return e(at, "unexpected %s", found)
}
