package offline

// correctTypos returns the tokens with the slips of the subjects' long
// words (their Spellings) read as those words, and the days the slips
// name. It changes no token of toks.
func (lx *lexicon) correctTypos(toks []token) ([]token, []string) {
	var out []token
	var days []string
	for i, t := range toks {
		w := t.text
		if len(w) < 5 || lx.stop[w] || lx.known(w) {
			continue
		}
		if fixed, ok := lx.typoOf(w); ok {
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
