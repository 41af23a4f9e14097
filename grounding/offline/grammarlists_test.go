package offline

import (
	"testing"

	"github.com/gear-chat/gear/tools"
)

// The collectives of grammar/collectives.txt count by their number.
func TestCollectives(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		query string
		want  []float64
	}{
		{"how many eggs in 7 dozen", []float64{84}},
		{"2 dozen eggs at 30 cents each", []float64{24, 30}},
		{"a dozen eggs", []float64{12}},
		{"half a dozen plus 4", []float64{6, 4}},
		{"four score and seven years", []float64{80, 7}},
		{"a score of people each bring 3 dishes", []float64{20, 3}},
		{"a baker's dozen times 4", []float64{13, 4}},
		{"3 gross in units", []float64{432}},
		{"what's the score of the game", nil},
		{"the gross weight is 40 kg", []float64{40}},
		{"dozens of people came", nil},
		{"three and a half times four and a quarter", []float64{3.5, 4.25}},
		{"3 dozen and a half, how many", []float64{42}},
		{"half a dozen plus a dozen and a half", []float64{6, 18}},
		{"one and a half gross in units", []float64{216}},
		{"a day and a half", []float64{0.5}},
		{"a dozen and a half", []float64{18}},
	} {
		nums := findNumbers(tt.query, tokenize(tt.query))
		var got []float64
		for _, n := range nums {
			got = append(got, n.value)
		}
		if len(got) != len(tt.want) {
			t.Errorf("%q: numbers %v, want %v", tt.query, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%q: numbers %v, want %v", tt.query, got, tt.want)
				break
			}
		}
	}
}

// Every line of the grammar lists reads.
func TestGrammarLists(t *testing.T) {
	t.Parallel()
	ops := infixOperators()
	for w, want := range map[string]infixOperator{"times": {op: "*"}, "x": {op: "*"}, "plus": {op: "+"}, "over": {op: "/", vague: true}} {
		if ops[w] != want {
			t.Errorf("infix operator %q = %+v, want %+v", w, ops[w], want)
		}
	}
	if !multiplies("times") || multiplies("plus") || multiplies("by") {
		t.Error("multiplies reads the wrong words")
	}
	if got := parseInfixOperators("# comment\nplus +\n\nbad\nless - vague # trailing"); len(got) != 2 || !got["less"].vague {
		t.Errorf("parseInfixOperators = %+v", got)
	}
	c := parseCollectives("dozen 12 alone\nbaker's_dozen 13 alone\nscore 20\nbroken x\n")
	if len(c["dozen"]) != 1 || len(c["baker's"]) != 1 || c["baker's"][0].words[1] != "dozen" || c["score"][0].alone || len(c["broken"]) != 0 {
		t.Errorf("parseCollectives = %+v", c)
	}
	for q, want := range map[string]bool{"what's the chance of rain": true, "chances of snow tomorrow": true, "any chance you know": false} {
		if asksLikelihood(q) != want {
			t.Errorf("asksLikelihood(%q) = %v, want %v", q, !want, want)
		}
	}
	if w := trigWords(); w["sine"] != tools.OpSin || w["tangent"] != tools.OpTan || len(w) != 6 {
		t.Errorf("trigWords = %v", w)
	}
	for _, op := range trigWords() {
		if !op.Known() {
			t.Errorf("grammar/trig.txt names %q, no tools.Operation", op)
		}
	}
	if r := percentResults(); !r["total"] || r["tip"] || len(r) == 0 {
		t.Errorf("percentResults = %v", r)
	}
	if d := dateShifts(); d["after"] != 1 || d["prior to"] != -1 || d["before"] != -1 {
		t.Errorf("dateShifts = %v", d)
	}
	if d := parseDateShifts("# c\nafter +\nlater_than +\nbad\nodd *\n"); len(d) != 2 || d["later than"] != 1 {
		t.Errorf("parseDateShifts = %v", d)
	}
	if len(collectives()) == 0 || len(ops) == 0 {
		t.Error("an embedded grammar list is empty")
	}
}
