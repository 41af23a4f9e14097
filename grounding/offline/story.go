package offline

import (
	"strings"
	"sync"
)

// A story problem read completely: every number of the query finds its
// place in one of two shapes, and the query asks for an amount.
//
//   - groups: a count of groups and the amount in each — "3 boxes with 4
//     pens each", "6 rows of 14 spaces", "2 dozen eggs at 30 cents each",
//     "3 shirts at $24.99" — are their product;
//   - changes: a number near a word of grammar/story-changes.txt is taken
//     away ("gives away 2", "23 are taken") or added ("buys 3 more").
//
// A number in neither shape is a starting amount only when it comes
// first. Anything else — a number the shapes cannot place — leaves the
// story to the word problem's guess (wordproblem.go), whose call
// confidence is low.

// storyChanges reads grammar/story-changes.txt once: word → "+" or "-".
var storyChanges = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(mustGrammar("story-changes"), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && !strings.HasPrefix(f[0], "#") && (f[1] == "+" || f[1] == "-") {
			m[f[0]] = f[1]
		}
	}
	return m
})

// moneySubunits reads grammar/money-subunits.txt once: coin → parts of
// the unit.
var moneySubunits = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(mustGrammar("money-subunits"), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && !strings.HasPrefix(f[0], "#") {
			m[f[0]] = f[1]
		}
	}
	return m
})

// storyAmount is a number of a story as the call writes it: an amount in
// coins in its currency's unit.
func storyAmount(a *analysis, n number) string {
	text := numberText(a, n)
	if parts := moneySubunits()[wordAt(a.toks, n.last+1)]; parts != "" {
		return text + " / " + parts
	}
	return text
}

// groupLinks join a count of groups to the amount in each: "of",
// "containing" and "holding" alone ("6 rows of 14"); "with", "at" and "for"
// with "each", "apiece" or a price ("3 boxes with 4 pens each", "3 shirts
// at $24.99").
var groupLinks = map[string]bool{"of": true, "containing": true, "holding": true, "with": true, "at": true, "for": true}

// storyProblem reads a story problem completely, or gives "".
func storyProblem(a *analysis) string {
	nums := a.operands
	if len(nums) < 2 || !a.asksQuantity() || isAdviceOrGeneral(a.questionSentence()) {
		return ""
	}
	var terms []string
	used := make([]bool, len(nums))
	var groupNouns []string // the nouns the groups are counted in ("boxes")
	for i := 0; i < len(nums); i++ {
		if used[i] {
			continue
		}
		n := nums[i]
		if k := n.first - 1; k >= 0 && (a.toks[k].text == "but" || a.toks[k].text == "except") {
			return "" // "all but 9 run away": what is left is said, not taken
		}
		if i+1 < len(nums) && groupOf(a, n, nums[i+1]) {
			sign := changeNear(a, nums, i, i+1)
			terms = append(terms, sign+storyAmount(a, n)+" * "+storyAmount(a, nums[i+1]))
			groupNouns = append(groupNouns, stem(wordAt(a.toks, n.last+1)))
			used[i], used[i+1] = true, true
			i++
			continue
		}
		sign := changeNear(a, nums, i, i)
		if sign == "" && len(terms) > 0 {
			return "" // a number the shapes cannot place
		}
		for _, g := range groupNouns {
			if sign != "" && stem(wordAt(a.toks, n.last+1)) == g {
				return "" // "gives away 2 boxes": a change of the groups, not of what is in them
			}
		}
		terms = append(terms, sign+storyAmount(a, n))
		used[i] = true
	}
	if len(terms) < 2 && !strings.Contains(terms[0], "*") {
		return ""
	}
	expr := strings.TrimPrefix(strings.TrimPrefix(terms[0], "+"), "-")
	if strings.HasPrefix(terms[0], "-") {
		return "" // a story starts with what there is
	}
	for _, t := range terms[1:] {
		switch t[0] {
		case '-':
			expr += " - " + t[1:]
		case '+':
			expr += " + " + t[1:]
		default:
			expr += " + " + t
		}
	}
	return expr
}

// groupOf reports whether the numbers n and m are a count of groups and
// the amount in each (see groupLinks).
func groupOf(a *analysis, n, m number) bool {
	between := a.toks[n.last+1 : m.first]
	if len(between) == 0 || len(between) > 3 {
		return false
	}
	link, noun := "", false
	for _, t := range between {
		switch {
		case groupLinks[t.text]:
			link = t.text
		case t.text == "and" || storyChanges()[t.text] == "-":
			return false
		case link == "" && storyChanges()[t.text] == "":
			noun = true // "3 boxes with", "6 rows of", "3 more bags of"
		}
	}
	if n.times > 0 {
		noun = true // "2 dozen at", "3 cartons of a dozen"
	}
	switch {
	case link == "" || !noun:
		return false // "3 of 10": a part, not groups
	case link == "of" || link == "containing" || link == "holding":
		return true
	}
	// "with", "at", "for": each group's amount is said to be each's, or a
	// price.
	if m.start > 0 && strings.ContainsAny(a.query[max(0, m.start-1):m.start], "$€£") {
		return true
	}
	for k := m.last + 1; k < len(a.toks) && k <= m.last+3; k++ {
		switch a.toks[k].text {
		case "each", "apiece":
			return true
		}
	}
	return false
}

// changeNear is "+" or "-" when a word of a change stands just before the
// numbers nums[i..j] (up to three words back, after the number before) or
// just after them ("23 are taken"), else "".
func changeNear(a *analysis, nums []number, i, j int) string {
	from := 0
	if i > 0 {
		from = nums[i-1].last + 1
	}
	for k := nums[i].first - 1; k >= from && k >= nums[i].first-3; k-- {
		if s := storyChanges()[a.toks[k].text]; s != "" {
			return s
		}
	}
	to := len(a.toks)
	if j+1 < len(nums) {
		to = nums[j+1].first
	}
	for k := nums[j].last + 1; k < to && k <= nums[j].last+3; k++ {
		if s := storyChanges()[a.toks[k].text]; s != "" {
			return s
		}
	}
	return ""
}
