package offline

import (
	"slices"
	"strings"
	"sync"
)

// correctTypos returns the tokens with the slips of the subjects' long
// words (their Spellings) read as those words, and the days the slips
// name. It changes no token of toks.
func (lx *lexicon) correctTypos(toks []token) ([]token, []string) {
	var out []token
	var days []string
	for i, t := range toks {
		w := t.text
		if len(w) < 3 || lx.stop[w] || lx.known(w) || !isLowerWord(w) {
			continue
		}
		fixed, ok := "", false
		if len(w) >= 5 {
			fixed, ok = lx.typoOf(w)
		}
		// A capitalised word inside a sentence is a name ("Angkor Wat").
		name := t.capital && i > 0
		if !ok && !name && len(w) >= 4 {
			fixed, ok = lx.slipOfKnown(w)
		}
		if base, plain := strings.CutSuffix(w, "s"); !ok && plain && slipWords()[base] && isWhWord(base) {
			// "whos the author", "wheres the station": the contraction
			// with its apostrophe left out.
			fixed, ok = base+"'s", true
		}
		if !ok && !name {
			fixed, ok = slipOfFrameWord(w, i > 0 && slipWords()[toks[i-1].text])
		}
		if ok {
			if out == nil {
				out = append([]token(nil), toks...)
			}
			out[i].text = fixed
			switch fixed {
			case "tomorrow":
				days = append(days, "tomorrow")
			case "tonight":
				days = append(days, "today")
			}
		}
	}
	if out == nil {
		return toks, nil
	}
	return out, days
}

// known reports whether w is a word of the thesaurus or a number.
func (lx *lexicon) known(w string) bool {
	if _, ok := lx.concepts[lx.stemOf(w)]; ok {
		return true
	}
	if _, ok := lx.exact[w]; ok {
		return true
	}
	return isNumeric(w) || lx.units[w].name != ""
}

// typoOf returns the one target w is a slip of.
func (lx *lexicon) typoOf(w string) (string, bool) {
	found := ""
	for _, t := range lx.typoTargets {
		if t[0] != w[0] || t == w {
			continue
		}
		limit := 1
		if len(t) >= 9 {
			limit = 2
		}
		if d := slips(w, t, limit); d <= limit {
			if found != "" {
				return "", false // two targets: no reading
			}
			found = t
		}
	}
	return found, found != ""
}

// slips is the optimal string alignment distance between a and b (edits:
// insert, delete, substitute, swap two neighbours), or limit+1 when it is
// larger than limit.
func slips(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// slipOfKnown reads w as the one word of the thesaurus (as written, in a
// regular inflection, or a unit's name) that a single typing slip of the
// kind that loses information makes into w: two neighbouring letters
// swapped inside the word ("tranlsate", "precent", "tiem"), or a letter
// left out inside the name of a unit of six letters or more ("galons").
// The first and the last letter stay: a slip there makes English words
// of each other ("coast", "coats"; "short", "shorts"), and without a
// dictionary of English a word the thesaurus does not hold cannot be
// told from a slip. For the same reason a slip that adds or changes a
// letter is not read ("planet" is not "plane"), nor a left-out letter
// outside the units' names, a closed class ("reminder" is not
// "remainder", "county" not "country"). Two readings that are different
// words give none.
func (lx *lexicon) slipOfKnown(w string) (string, bool) {
	found := ""
	try := func(c string) bool {
		if !lx.knownWritten(c) {
			return true
		}
		if found == "" {
			found = c
		} else if found != c {
			found = ""
			return false
		}
		return true
	}
	b := []byte(w)
	for i := 1; i+2 < len(b); i++ { // a swap; the first and last letters stay
		if b[i] == b[i+1] {
			continue
		}
		b[i], b[i+1] = b[i+1], b[i]
		ok := try(string(b))
		b[i], b[i+1] = b[i+1], b[i]
		if !ok {
			return "", false
		}
	}
	if len(w) >= 6 {
		for i := 1; i < len(w); i++ { // a letter left out inside a unit's name
			for c := byte('a'); c <= 'z'; c++ {
				u := w[:i] + string(c) + w[i:]
				if lx.units[u].name == "" {
					continue
				}
				if !try(u) {
					return "", false
				}
			}
		}
	}
	return found, found != ""
}

// knownWritten reports whether w is a word of the thesaurus as written,
// or its plural in -s, or the name of a unit.
func (lx *lexicon) knownWritten(w string) bool {
	if lx.surface[w] || lx.units[w].name != "" {
		return true
	}
	if _, ok := lx.exact[w]; ok {
		return true
	}
	base, ok := strings.CutSuffix(w, "s")
	return ok && len(base) >= 3 && !strings.HasSuffix(base, "s") && lx.surface[base]
}

// isLowerWord reports whether w is all lower-case ASCII letters (tokens
// are lower-cased): a token with digits or an apostrophe ("5'11", "3x4")
// is no slip of a word.
func isLowerWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return w != ""
}

// slipWords reads grammar/slip-words.txt once.
var slipWords = sync.OnceValue(func() map[string]bool {
	return setOf(stripComments(mustGrammar("slip-words")))
})

// stripComments drops what follows # on each line of a grammar list.
func stripComments(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// slipOfFrameWord reads w as the one word of slip-words.txt (the closed
// classes of question and arithmetic words) that a letter left out
// between the first and the last, or two neighbouring letters swapped
// after the first, makes into w — or, when afterFrame (w follows another
// such word: "how meny") and w has four letters or more, one letter
// changed after the first. Two readings give none.
func slipOfFrameWord(w string, afterFrame bool) (string, bool) {
	found := ""
	for t := range slipWords() {
		if t == w || t[0] != w[0] {
			continue
		}
		ok := false
		switch {
		case len(t) == len(w)+1:
			// A letter left out inside: without the last letter a slip
			// is often a word ("man", "many"; "whos", "whose").
			ok = t[len(t)-1] == w[len(w)-1] && slips(w, t, 1) == 1
		case len(t) == len(w):
			d := slips(w, t, 1)
			ok = d == 1 && (isSwap(w, t) || afterFrame && len(w) >= 4)
		}
		if !ok {
			continue
		}
		if found != "" {
			return "", false
		}
		found = t
	}
	return found, found != ""
}

// isSwap reports whether a is b with two neighbouring letters swapped.
func isSwap(a, b string) bool {
	for i := 0; i+1 < len(a); i++ {
		if a[i] != b[i] {
			return a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
		}
	}
	return false
}

// minStateSlipLen is the shortest state of a subject ("morning",
// "midnight") whose slips typoOf reads: shorter states ("dark", "noon",
// "dusk") are a slip away from too many other words.
const minStateSlipLen = 7

// withLongStates is the subjects' Spellings and their long States: a
// state ("is it moring in Perth") is asked in a short question where its
// slip leaves nothing else to read.
func withLongStates(spellings []string, states map[string]bool) []string {
	out := append([]string(nil), spellings...)
	seen := setOf(strings.Join(spellings, " "))
	var long []string
	for s := range states {
		if len(s) >= minStateSlipLen && !seen[s] && isLowerWord(s) {
			long = append(long, s)
		}
	}
	slices.Sort(long) // the map's order is no order
	return append(out, long...)
}

// isWhWord reports whether w is a question word that contracts with
// "is" ("who's", "where's", "how's").
func isWhWord(w string) bool {
	return strings.HasPrefix(w, "wh") || w == "how"
}
