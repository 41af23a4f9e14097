package constrain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// maxRepairs bounds the fixes made to one call.
const maxRepairs = 8

// Fix is one change Repair made.
type Fix struct {
	Offset int    // byte offset in the text as it stood before this fix
	What   string // e.g. `tool name "mulitply" -> "multiply"`
}

// Repaired is a call Repair made acceptable: its text (validated by the
// machine again), the parsed call and the fixes made, in order. A call the
// machine accepted as it was comes back with no fixes.
type Repaired struct {
	Text  string
	Call  tools.Call
	Fixes []Fix
}

// RepairError is a call that could not be repaired: the machine's error on
// the text as it stood when repair gave up, and the fixes made before.
type RepairError struct {
	Text  string
	Err   *Error
	Fixes []Fix
}

func (e *RepairError) Error() string {
	return "constrain: the call cannot be repaired: " + e.Err.Error()
}

func (e *RepairError) Unwrap() error { return e.Err }

// Repair corrects what a model got wrong in a call, when the correction is
// unambiguous and invents nothing:
//
//   - a tool name the library lacks becomes the nearest name in the trie
//     (edit distance, any case, transpositions counted once), when exactly
//     one name is that near and within a third of the name's length;
//   - a number written as a string ("3" for a number) loses its quotes, an
//     integer written with a zero fraction (3.0) loses it;
//   - a string argument written without quotes gets them, when its end is
//     unambiguous (the next "," or ")" — not a "," after the last
//     parameter); a quoted expression loses its quotes, an unquoted one in
//     the JSON form gets them;
//   - an unterminated string, an unclosed parenthesis or a call cut short
//     is closed, when what remains is forced: the closing quote of a
//     non-empty string (before the call's own closing brackets, when the
//     string swallowed them), the ")" of a finished expression, the ")" or
//     "}" once every required argument is there.
//
// It never invents an argument value and never drops one. Each fix is
// checked by running the machine again; what cannot be repaired is a
// *RepairError carrying the machine's error.
func (m *Machine) Repair(text string) (Repaired, error) {
	var fixes []Fix
	seen := map[string]bool{}
	for {
		s, at, mark, ok := m.run(text)
		if ok && m.Accepting(s) {
			call, err := m.parseAccepted(text)
			if err != nil {
				return Repaired{}, err
			}
			return Repaired{Text: text, Call: call, Fixes: fixes}, nil
		}
		verr := m.describe(text, at, s, mark)
		seen[text] = true
		if len(fixes) >= maxRepairs {
			return Repaired{}, &RepairError{Text: text, Err: verr, Fixes: fixes}
		}
		next, fix, fixed := m.repairOnce(text, s, at, mark, ok)
		if !fixed || seen[next] {
			return Repaired{}, &RepairError{Text: text, Err: verr, Fixes: fixes}
		}
		text = next
		fixes = append(fixes, fix)
	}
}

// repairOnce tries one fix at the place the machine stopped.
func (m *Machine) repairOnce(text string, s State, at int, mark marks, ended bool) (string, Fix, bool) {
	switch s.phase {
	case phName, phJName:
		return m.repairName(text, mark)
	case phValue:
		if !ended || s.sub == nStart || s.sub == sQuote || s.sub == pQuote || s.sub == xQuote {
			if next, fix, ok := m.repairValue(text, s, at, mark); ok {
				return next, fix, true
			}
		}
	case phKeyword:
		// A bare word where a positional value is due (not a parameter's
		// name): repair it as that value.
		if s.flags&flagKeywords == 0 && !ended {
			v := s
			m.beginValue(&v)
			if next, fix, ok := m.repairValue(text, v, mark.value, mark); ok {
				return next, fix, true
			}
		}
	}
	if ended {
		return m.repairEnd(text, s, mark)
	}
	return "", Fix{}, false
}

func (m *Machine) repairName(text string, mark marks) (string, Fix, bool) {
	end := mark.name
	for end < len(text) && isToolNameByte(text[end]) {
		end++
	}
	name := text[mark.name:end]
	near, ok := m.nearestTool(name)
	if !ok || near == name {
		return "", Fix{}, false
	}
	return text[:mark.name] + near + text[end:], Fix{Offset: mark.name, What: fmt.Sprintf("tool name %q -> %q", name, near)}, true
}

// repairValue fixes the type of a value written the wrong way.
func (m *Machine) repairValue(text string, s State, at int, mark marks) (string, Fix, bool) {
	p := &m.tools[s.node].params[s.param]
	json := s.flags&flagJSON != 0
	start := mark.value
	fix := func(replaced, with string) (string, Fix, bool) {
		next := text[:start] + with + text[start+len(replaced):]
		// The fix must carry the machine past the value.
		if _, stop, _, ok := m.run(next); !ok && stop < start+len(with) {
			return "", Fix{}, false
		}
		return next, Fix{Offset: start, What: fmt.Sprintf("%s for %s -> %s", replaced, p.name, with)}, true
	}
	switch p.kind {
	case kindNumber, kindInteger, kindRange:
		integer := p.kind != kindNumber
		if lit, content, ok := stringLiteralAt(text, start); ok {
			if numberLiteralFits(content, integer) {
				return fix(lit, content)
			}
			return "", Fix{}, false
		}
		tok := bareRun(text, start, ",)}\"", true)
		if integer {
			if whole, ok := zeroFraction(tok); ok && numberLiteralFits(whole, true) {
				return fix(tok, whole)
			}
		}
	case kindWord:
		if lit, content, ok := stringLiteralAt(text, start); ok && slices.Contains(p.words, content) {
			return fix(lit, content)
		}
	case kindString, kindPattern:
		if at != start {
			return "", Fix{}, false
		}
		closer := ")"
		if json {
			closer = "}"
		}
		bare := bareRun(text, start, ","+closer, false)
		rest := text[start+len(bare):]
		bare = strings.TrimRight(bare, " \t\r\n")
		lastParam := int(s.param)+1 >= len(m.tools[s.node].params)
		if bare == "" || strings.ContainsAny(bare, "\"\\(){}") || strings.HasPrefix(rest, ",") && lastParam {
			return "", Fix{}, false
		}
		return fix(bare, tools.Quote(bare))
	case kindExpression:
		if !json {
			if lit, content, ok := stringLiteralAt(text, start); ok && !strings.ContainsAny(content, "\"\\") {
				return fix(lit, content)
			}
			return "", Fix{}, false
		}
		if s.sub != xQuote {
			return "", Fix{}, false
		}
		bare := strings.TrimRight(bareRun(text, start, ",}", false), " \t\r\n")
		if bare == "" || strings.ContainsAny(bare, "\"\\\n\r\t") {
			return "", Fix{}, false
		}
		return fix(bare, `"`+bare+`"`)
	}
	return "", Fix{}, false
}

// repairEnd closes a call cut short, when what remains is forced.
func (m *Machine) repairEnd(text string, s State, mark marks) (string, Fix, bool) {
	if s.phase == phValue && s.sub == sBody && s.count > 0 {
		// A string that swallowed the call's own closing brackets: end it
		// before them, if that gives a complete call.
		body := text[mark.value+1:]
		cut := len(body)
		for cut > 0 && strings.IndexByte(" \t\r\n)}", body[cut-1]) >= 0 {
			cut--
		}
		if cut < len(body) && cut > 0 {
			at := mark.value + 1 + cut
			next := text[:at] + `"` + text[at:]
			if m.Accepts(next) {
				return next, Fix{Offset: at, What: fmt.Sprintf("closed the string before %q", text[at:])}, true
			}
		}
	}
	var added []byte
	for len(added) < maxForced && !m.Accepting(s) {
		c, ok := m.closingByte(s)
		if !ok {
			return "", Fix{}, false
		}
		added = append(added, c)
		s, _ = m.Advance(s, string(c))
	}
	if !m.Accepting(s) {
		return "", Fix{}, false
	}
	return text + string(added), Fix{Offset: len(text), What: fmt.Sprintf("closed the call with %q", added)}, true
}

// closingByte is the byte that moves a call cut short towards its end
// without inventing a value: a forced byte, unless it would begin or fill
// an argument nobody started; else the closer of what is open.
func (m *Machine) closingByte(s State) (byte, bool) {
	allowed := m.Allowed(s)
	want := func(c byte) (byte, bool) { return c, allowed.Has(c) }
	json := s.flags&flagJSON != 0
	closeCall := byte(')') // what closes the arguments
	if json {
		closeCall = '}'
	}
	switch s.phase {
	case phOpen, phBeforeValue, phJArgs, phAfterValue:
		return want(closeCall)
	case phJAfterColon:
		if s.sub == keyParam {
			return 0, false // an argument would have to be invented
		}
	case phValue:
		if m.valueEmpty(s) {
			return 0, false
		}
		if m.tools[s.node].params[s.param].kind == kindJSON {
			return m.closingJSON(s, closeCall)
		}
		switch s.sub {
		case sBody, pBody:
			if c, ok := m.forcedByte(s); ok {
				return c, true // the single possible rest of an enum value
			}
			return want('"')
		case nZero, nInt, nFrac, rBody:
			return want(closeCall)
		case wBody:
			if c, ok := m.forcedByte(s); ok {
				return c, true // the rest of "true" or "false"
			}
			return want(closeCall)
		case sEsc, sHex, sUTF8, nSign, nDot:
			return 0, false
		}
		// An expression: close its parentheses, then it.
		if s.depth > 0 || !json {
			return want(')')
		}
		return want('"')
	}
	return m.forcedByte(s)
}

// closingJSON closes a JSON value cut short: its string, then its
// brackets, innermost first; a half-written number, word or key, or a
// member still owed, would have to be invented.
func (m *Machine) closingJSON(s State, closeCall byte) (byte, bool) {
	allowed := m.Allowed(s)
	want := func(c byte) (byte, bool) { return c, allowed.Has(c) }
	closer := func() (byte, bool) {
		if s.depth == 0 {
			return want(closeCall)
		}
		if jsonInObject(&s) {
			return want('}')
		}
		return want(']')
	}
	switch s.sub {
	case sBody:
		if s.flags&flagKey != 0 {
			return 0, false
		}
		return want('"')
	case jAfter, jnZero, jnInt, jnFrac, jnExp:
		return closer()
	case jArrFirst:
		return want(']')
	case jObjFirst:
		return want('}')
	case jWord:
		return m.forcedByte(s)
	}
	return 0, false
}

// valueEmpty reports an argument begun but with nothing in it yet.
func (m *Machine) valueEmpty(s State) bool {
	switch s.sub {
	case nStart, sQuote, pQuote, xQuote, wStart:
		return true
	case jValue:
		return s.depth == 0
	case sBody:
		return s.count == 0
	case pBody:
		return s.aux == uint32(m.dfas[m.tools[s.node].params[s.param].dfa].start)
	case xOperand, xOperandStar:
		return s.count == 0
	}
	return false
}
