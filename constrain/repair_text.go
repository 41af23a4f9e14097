package constrain

import "strings"

// Readings of the call text around a fault, for Repair.

// stringLiteralAt reads a JSON string literal without escapes at text[i].
func stringLiteralAt(text string, i int) (lit, content string, ok bool) {
	if i >= len(text) || text[i] != '"' {
		return "", "", false
	}
	j := strings.IndexByte(text[i+1:], '"')
	if j < 0 {
		return "", "", false
	}
	content = text[i+1 : i+1+j]
	if strings.ContainsAny(content, "\\") {
		return "", "", false
	}
	return text[i : i+2+j], content, true
}

// bareRun is the text from i up to the first of stops (and, when
// stopAtSpace, white space).
func bareRun(text string, i int, stops string, stopAtSpace bool) string {
	j := i
	for j < len(text) && strings.IndexByte(stops, text[j]) < 0 && !(stopAtSpace && isSpace(text[j])) {
		j++
	}
	return text[i:j]
}

// numberLiteralFits reports whether lit is a whole number or integer
// literal the machine accepts.
func numberLiteralFits(lit string, integer bool) bool {
	if lit == "" {
		return false
	}
	s := State{sub: nStart}
	for i := 0; i < len(lit); i++ {
		if numberByte(&s, lit[i], integer) != stepOK {
			return false
		}
	}
	return numberByte(&s, ')', integer) == stepHandOver
}

// zeroFraction turns "3.0" or "-12.00" into "3", "-12".
func zeroFraction(tok string) (string, bool) {
	dot := strings.IndexByte(tok, '.')
	if dot <= 0 || strings.Trim(tok[dot+1:], "0") != "" || dot == len(tok)-1 {
		return "", false
	}
	return tok[:dot], true
}

// nearestTool finds the library's tool name nearest to name by edit
// distance (optimal string alignment: insertions, deletions, substitutions
// and adjacent transpositions each cost 1; case is ignored), walking the
// name trie and cutting branches that cannot come within reach. It answers
// only when exactly one name is nearest and within a third of the name's
// length (at least 1).
func (m *Machine) nearestTool(name string) (string, bool) {
	target := strings.ToLower(name)
	limit := max(1, len(target)/3)
	best, bestDist, ties := -1, limit+1, 0
	first := make([]int, len(target)+1)
	for j := range first {
		first[j] = j
	}
	var walk func(node uint32, prev2, prev []int, last byte)
	walk = func(node uint32, prev2, prev []int, last byte) {
		n := m.nodes[node]
		if n.tool >= 0 {
			switch d := prev[len(target)]; {
			case d < bestDist:
				best, bestDist, ties = int(n.tool), d, 1
			case d == bestDist:
				ties++
			}
		}
		lowest := prev[0]
		for _, v := range prev {
			lowest = min(lowest, v)
		}
		if lowest > limit {
			return
		}
		for _, e := range m.edges[n.first : n.first+n.n] {
			c := e.b
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			cur := make([]int, len(target)+1)
			cur[0] = prev[0] + 1
			for j := 1; j <= len(target); j++ {
				cost := 1
				if target[j-1] == c {
					cost = 0
				}
				cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
				if prev2 != nil && j > 1 && target[j-1] == last && target[j-2] == c {
					cur[j] = min(cur[j], prev2[j-2]+1)
				}
			}
			walk(e.child, prev, cur, c)
		}
	}
	walk(0, nil, first, 0)
	if best < 0 || ties != 1 {
		return "", false
	}
	return m.tools[best].spec.Name, true
}
