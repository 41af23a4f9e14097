package offline

import (
	"sort"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// quantityCues are question words that ask for an amount.
var quantityCues = []string{"how many", "how much", "how far", "how long", "how old", "how tall", "how fast",
	"how heavy", "how big", "how large", "how wide", "how deep", "what is the total", "what was the total",
	"in total", "in all", "altogether", "combined", "the sum", "the difference", "the product", "the average",
	"the area", "the perimeter", "the volume", "calculate", "compute", "work out", "find the"}

// wordProblem joins the numbers of a word problem with the operation its
// wording suggests.
func wordProblem(a *analysis) string {
	var nums []float64
	for _, n := range a.operands {
		nums = append(nums, n.value)
	}
	// "twice as many", "doubles", "half of it": a multiplier is an operand.
	for _, t := range a.toks {
		switch t.text {
		case "twice", "double", "doubles", "doubled":
			nums = append(nums, 2)
		case "triple", "triples", "tripled", "thrice":
			nums = append(nums, 3)
		case "half", "halves", "halved":
			nums = append(nums, 0.5)
		}
	}
	if len(nums) < 2 || !(a.asksQuantity() || a.isStoryProblem()) {
		return ""
	}
	question := a.questionSentence()
	if isAdviceOrGeneral(question) {
		return "" // "how long should I roast a 16 pound turkey", "how long do transfers usually take"
	}
	op := "+"
	switch {
	case hasAnyWord(question, "each", "per", "equally", "share", "shared", "split", "evenly", "average", "ratio"):
		op = "/"
	case hasAnyWord(question, "left", "remain", "remaining", "more", "fewer", "less", "difference", "change", "longer", "taller", "older", "younger", "shorter"):
		op = "-"
	case a.hasWord("each", "every", "per", "times", "rows", "groups", "packs", "boxes", "bags", "twice", "double", "doubles", "triple"):
		op = "*"
	}
	parts := make([]string, len(nums))
	if op == "-" || op == "/" {
		// The larger quantity first: what is taken away or shared out is
		// usually the smaller.
		sort.SliceStable(nums, func(i, j int) bool { return nums[i] > nums[j] })
	}
	for i, v := range nums {
		parts[i] = tools.FormatNumber(v)
	}
	if op == "/" && len(parts) > 2 {
		parts = parts[:2]
	}
	return strings.Join(parts, " "+op+" ")
}

// hasAnyWord reports whether the lower-case text has one of the words as a
// whole word.
func hasAnyWord(text string, words ...string) bool {
	return tokensHave(tokenize(text), words)
}

// hasWord reports whether the query, as typed, has one of the words as a
// whole word.
func (t tokenStage) hasWord(words ...string) bool {
	return tokensHave(t.words, words)
}

func tokensHave(toks []token, words []string) bool {
	for _, tok := range toks {
		for _, w := range words {
			if tok.text == w {
				return true
			}
		}
	}
	return false
}

// isAdviceOrGeneral: a question asking what the speaker should do ("should
// I", "do I need to") or what usually happens ("usually", "typically")
// asks for advice or a general fact, not for the arithmetic of the
// numbers before it.
func isAdviceOrGeneral(question string) bool {
	for _, p := range []string{"should i", "should we", "do i need", "do we need", "do i have to", "do we have to"} {
		if containsPhrase(question, p) {
			return true
		}
	}
	return hasAnyWord(question, "usually", "typically", "normally", "generally")
}
