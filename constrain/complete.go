package constrain

// maxForced bounds a forced continuation; the longest the grammar forces is
// a JSON key with its colon, or the rest of an enum value.
const maxForced = 256

// Completion is one way a prefix of a call can go on.
type Completion struct {
	Tool string // the tool the completed text calls
	Text string // what to append to the prefix
}

// Complete lists how a prefix of a call can go on, for the TUI's /GEAR
// input. While the tool name is being typed it offers every tool whose name
// starts with what is typed, in byte order, each with the text forced after
// the name ("Sum(", `Convert("`, "Ping()"). After the name
// it offers the text forced from there, if there is any. A prefix the
// machine rejects, or one with nothing to complete, gets nil.
func (m *Machine) Complete(prefix string) []Completion {
	s, ok := m.Advance(m.Start(), prefix)
	if !ok {
		return nil
	}
	var node uint32
	switch s.phase {
	case phStart:
		node = 0
	case phName, phJName:
		node = s.node
	default:
		text := m.Forced(s)
		if text == "" {
			return nil
		}
		name, _ := m.Tool(s)
		return []Completion{{Tool: name, Text: text}}
	}
	var out []Completion
	m.walkNames(node, nil, func(rest []byte, tool int) {
		t, ok := m.Advance(s, string(rest))
		if !ok {
			return
		}
		out = append(out, Completion{Tool: m.tools[tool].spec.Name, Text: string(rest) + m.Forced(t)})
	})
	return out
}

// Forced is the text forced from s: as long as exactly one byte can come
// next (optional white space aside, and a keyword argument's name where a
// positional one is due), that byte. It stops at a choice or at
// the end of the call, so it never chooses between values; it does spell
// out what has a single possible rest (a tool name's last letters, JSON
// keys, an enum value once it is unambiguous, the closing quote of a
// string at its length bound).
func (m *Machine) Forced(s State) string {
	var out []byte
	for len(out) < maxForced {
		c, ok := m.forcedByte(s)
		if !ok {
			break
		}
		out = append(out, c)
		s, _ = m.Advance(s, string(c))
	}
	return string(out)
}

func (m *Machine) forcedByte(s State) (byte, bool) {
	if m.Accepting(s) {
		return 0, false
	}
	set := m.Allowed(s)
	if !spaceIsContent(s) {
		for _, c := range []byte{' ', '\t', '\n', '\r'} {
			set[c>>6] &^= 1 << (c & 63)
		}
	}
	if (s.phase == phOpen || s.phase == phBeforeValue) && s.flags&flagKeywords == 0 {
		// Where a positional argument is due, a keyword may begin instead;
		// completion follows the positional form (the paper's), so the
		// letters that could only begin a keyword do not count.
		for _, r := range set.Ranges() {
			for c := int(r.Lo); c <= int(r.Hi); c++ {
				t := s
				if m.step(&t, byte(c)) && t.phase == phKeyword && t.sub == kwPure {
					set[c>>6] &^= 1 << (c & 63)
				}
			}
		}
	}
	if set.Len() != 1 {
		return 0, false
	}
	return set.Ranges()[0].Lo, true
}

// spaceIsContent tells white space that is part of a value (inside a
// string) from white space that only separates parts of the call.
func spaceIsContent(s State) bool {
	return s.phase == phValue && (s.sub == sBody || s.sub == pBody)
}
