package constrain

import (
	"sort"

	"github.com/gear-chat/gear/tools"
)

// Keyword arguments, Tool(name: value, ...), and the JSON form's keys
// follow tools' parser.keywordAhead, keywordIndex and argKey: a parameter
// name directly followed by ":" (or between quotes), naming a parameter
// at or after the next one, and skipping only optional parameters. A
// canonical call may begin positionally and go over to keywords, never
// back; before a positional expression a name is the expression.
//
// While a name is read, State.stack holds the range [lo, hi) of the
// tool's parameter names (sorted) that begin with the count bytes read.
// Where the positional argument due could itself begin with a letter
// (true, false, null), the name and the literal are read together
// (kwCombined, aux the literals still possible) until one of them is
// ruled out.

// The steps of phKeyword.
const (
	kwPure     uint8 = iota // only a parameter name can come
	kwCombined              // a name or the positional literal due
)

// sortParams orders a tool's parameters by name for the keyword ranges.
func sortParams(t *toolInfo) {
	t.sorted = make([]uint16, len(t.params))
	for i := range t.sorted {
		t.sorted[i] = uint16(i)
	}
	sort.Slice(t.sorted, func(a, b int) bool { return t.params[t.sorted[a]].name < t.params[t.sorted[b]].name })
}

func kwRange(s *State) (lo, hi int) { return int(s.stack & 0xFFFF), int(s.stack >> 16 & 0xFFFF) }

func setKwRange(s *State, lo, hi int) { s.stack = uint64(lo) | uint64(hi)<<16 }

// eligible reports whether parameter idx may be named when next is the
// lowest index allowed: only optional parameters may be skipped.
func eligible(t *toolInfo, idx, next int) bool {
	return idx >= next && (next >= t.required || idx == next)
}

// narrow is the part of the range whose names go on with c at offset n.
func narrow(t *toolInfo, lo, hi, n int, c byte) (int, int) {
	nlo, nhi := hi, hi
	for i := lo; i < hi; i++ {
		name := t.params[t.sorted[i]].name
		if len(name) > n && name[n] == c {
			if nlo == hi {
				nlo = i
			}
			nhi = i + 1
		}
	}
	return nlo, nhi
}

// anyEligible reports whether the range holds a parameter that may come.
func anyEligible(t *toolInfo, lo, hi, next int) bool {
	for i := lo; i < hi; i++ {
		if eligible(t, int(t.sorted[i]), next) {
			return true
		}
	}
	return false
}

// exactName is the eligible parameter whose whole name is the n bytes
// read, if the range holds one (it sorts first).
func exactName(t *toolInfo, lo, hi, n, next int) (int, bool) {
	if lo < hi {
		idx := int(t.sorted[lo])
		if len(t.params[idx].name) == n && eligible(t, idx, next) {
			return idx, true
		}
	}
	return 0, false
}

// literalWords are the bare words that may begin a parameter's value.
func literalWords(p *paramInfo) []string {
	switch p.kind {
	case kindWord:
		return p.words
	case kindJSON:
		if p.items != "" {
			return nil // an array
		}
		return jsonWords[:]
	}
	return nil
}

// startArg reads the first byte c of an argument at s.param (positional),
// or of a keyword argument; it sets the phase that reads c (the caller
// reads c again) and reports false when nothing may begin with c.
func (m *Machine) startArg(s *State, c byte) bool {
	t := &m.tools[s.node]
	keywords := s.flags&flagKeywords != 0
	if !tools.IsParamNameStart(c) {
		if keywords {
			return false
		}
		m.beginValue(s)
		return true
	}
	p := &t.params[s.param]
	if !keywords && p.kind == kindExpression {
		m.beginValue(s)
		return true
	}
	s.phase, s.sub, s.count, s.aux = phKeyword, kwPure, 0, 0
	setKwRange(s, 0, len(t.params))
	if words := literalWords(p); !keywords && len(words) > 0 {
		s.sub, s.aux = kwCombined, 1<<len(words)-1
	}
	return true
}

// keywordByte reads a byte of a keyword's name (and maybe of the literal
// due in its place).
func (m *Machine) keywordByte(s *State, c byte) stepResult {
	t := &m.tools[s.node]
	next := int(s.param)
	lo, hi := kwRange(s)
	n := int(s.count)
	if tools.IsParamNameByte(c) {
		nlo, nhi := narrow(t, lo, hi, n, c)
		alive := nlo < nhi && anyEligible(t, nlo, nhi, next)
		var words uint32
		var list []string
		if s.sub == kwCombined {
			list = literalWords(&t.params[next])
			for i, w := range list {
				if s.aux&(1<<i) != 0 && len(w) > n && w[n] == c {
					words |= 1 << i
				}
			}
		}
		switch {
		case alive:
			setKwRange(s, nlo, nhi)
			s.count++
			s.aux = words
			if words == 0 {
				s.sub = kwPure
			}
			return stepOK
		case words != 0:
			// Not a name after all: the literal due, read on by its own steps.
			kind := t.params[next].kind
			m.beginValue(s)
			s.aux, s.count = words, uint16(n+1)
			if kind == kindWord {
				s.sub = wBody
				return stepOK
			}
			s.sub = jWord
			for i, w := range list {
				if words&(1<<i) != 0 && len(w) == n+1 {
					jsonDone(s)
				}
			}
			return stepOK
		}
		return stepReject
	}
	if c == ':' {
		if idx, ok := exactName(t, lo, hi, n, next); ok {
			s.phase, s.sub, s.count, s.aux, s.stack = phKeywordColon, 0, 0, 0, 0
			s.param = uint16(idx)
			s.flags |= flagKeywords
			return stepOK
		}
	}
	if s.sub == kwCombined {
		for i, w := range literalWords(&t.params[next]) {
			if s.aux&(1<<i) != 0 && len(w) == n && isNumberEnd(c) {
				m.beginValue(s)
				endValue(s)
				return stepHandOver
			}
		}
	}
	return stepReject
}

// jsonKeyByte reads an argument's key in the JSON form: a quote (count
// 0), the name narrowing the range, the closing quote.
func (m *Machine) jsonKeyByte(s *State, c byte) bool {
	t := &m.tools[s.node]
	next := int(s.param)
	if s.count == 0 {
		if isSpace(c) {
			return true
		}
		if c != '"' {
			return false
		}
		s.count = 1
		setKwRange(s, 0, len(t.params))
		return true
	}
	lo, hi := kwRange(s)
	n := int(s.count) - 1
	if c == '"' {
		idx, ok := exactName(t, lo, hi, n, next)
		if !ok {
			return false
		}
		s.phase, s.count, s.stack = phJColon, 0, 0
		s.param = uint16(idx)
		return true
	}
	if !tools.IsParamNameByte(c) || n == 0 && !tools.IsParamNameStart(c) {
		return false
	}
	nlo, nhi := narrow(t, lo, hi, n, c)
	if nlo == nhi || !anyEligible(t, nlo, nhi, next) {
		return false
	}
	setKwRange(s, nlo, nhi)
	s.count++
	return true
}
