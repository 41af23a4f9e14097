package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Numbers by name. A tool with several number parameters reads its
// arguments in order ("add 2 and 3": a = 2, b = 3), unless the query
// names a parameter next to its number: "a rectangle of width 3 and
// height 4" gives height = 4 and width = 3 whatever their order in the
// call, and so do "height: 4", "height = 4", "height of 4" and "4
// height"; "4 high" is another word and is read in order. The parameter's name is read as words ("max_results" is "max
// results"), compared by stem, and failing that by its last word ("10
// results").

// namedNumber returns the first unused operand that the query puts right
// after the parameter's name (or, failing that, its last word) (with at most one linking word: "=", ":",
// "of", "is", "to", "at") or right before it ("3 results"), or false.
func (a *analysis) namedNumber(p tools.Param, used map[string]bool) (number, bool) {
	name := strings.Fields(strings.ToLower(splitName(p.Name)))
	if len(name) == 0 || len(a.operands) == 0 {
		return number{}, false
	}
	stems := make([]string, len(name))
	for i, w := range name {
		stems[i] = stem(w)
	}
	if n, ok := a.numberNamed(stems, used); ok || len(stems) == 1 {
		return n, ok
	}
	// The name's last word alone, its head noun: "10 results" names
	// max_results.
	return a.numberNamed(stems[len(stems)-1:], used)
}

// numberNamed finds the first unused operand next to the words stems.
func (a *analysis) numberNamed(stems []string, used map[string]bool) (number, bool) {
	for i := 0; i+len(stems) <= len(a.toks); i++ {
		match := true
		for k, s := range stems {
			if a.stems[i+k] != s {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		end := i + len(stems) // the token after the name
		after := end
		if after < len(a.toks) {
			switch a.toks[after].text {
			case "of", "is", "to", "at", "equals", "as":
				after++
			}
		}
		for _, n := range a.operands {
			if used[operandKey(n)] {
				continue
			}
			// Right after the name ("width 3", "width: 3", "width = 3",
			// "width of 3"; punctuation is no token), or right before it
			// with only a space between ("3 results", not "2019, max
			// results").
			if n.first == after || n.first == end ||
				n.last == i-1 && strings.TrimSpace(a.query[n.end:a.toks[i].start]) == "" {
				return n, true
			}
		}
	}
	return number{}, false
}

// operandKey marks an operand used by a number parameter.
func operandKey(n number) string { return "n" + tools.FormatNumber(float64(n.start)) }

// namedOther reports whether the query names another number parameter of
// the spec next to n: "width 3 and height 4" keeps 4 for height when
// width is filled in order.
func (a *analysis) namedOther(n number, spec tools.Spec, p tools.Param) bool {
	for _, q := range spec.Params {
		if q.Name == p.Name || q.Type != tools.TypeNumber && q.Type != tools.TypeInteger {
			continue
		}
		if m, ok := a.namedNumber(q, map[string]bool{}); ok && m.start == n.start {
			return true
		}
	}
	return false
}
