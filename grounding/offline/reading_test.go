package offline

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
	"github.com/gear-chat/gear/tools/translate"
)

// The offline engine says how sure it is of its calls.
var _ grounding.CallReader = (*Engine)(nil)

// specNamed is the built-in spec of that name.
func specNamed(t *testing.T, name string) tools.Spec {
	t.Helper()
	for _, s := range append(builtinSpecs(), translate.New(translate.Config{}).Spec()) {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no built-in tool %s", name)
	return tools.Spec{}
}

// Clean queries read with high confidence and no doubt; queries whose
// arguments the engine reads only in part read low, with the doubt named.
func TestReadCallConfidence(t *testing.T) {
	t.Parallel()
	e := testEngine()
	tests := []struct {
		tool, query string
		high        bool
		doubt       string // a doubt that must be among the reading's
	}{
		{"Calculator", "what is 48 multiplied by 4 divided by 2", true, ""},
		{"Calculator", "what is 15% of 80", true, ""},
		{"Calculator", "convert 42.195 km to miles", true, ""},
		{"Calculator", "the average of 72, 85 and 91", true, ""},
		{"Calculator", "what is 13 times 57", true, ""},
		{"CurrentTime", "what time is it in Adelaide", true, ""},
		{"WeatherSearch", "will it rain in Oslo tomorrow?", true, ""},
		{"WikiSearch", `who wrote "Moby-Dick"`, true, ""},
		// A word problem's operations are a guess.
		{"Calculator", "Tom had 12 apples and ate some. Jo gave him 7 more. How many does he have?", false, "word problem"},
		// A number of the query left out of the expression.
		{"Calculator", "add 5 and 6 for my 3 kids", false, `"3" found no place`},
		// A range needs an operation: read with the tool's function.
		{"Calculator", "what is 2 + 3 + ... + 40", true, ""},
		{"Calculator", "what is the sum of 1 through 100", true, ""},
		{"Calculator", "how many days between march 3 and july 19", true, ""},
		{"Calculator", "what is the cosine of 60 degrees", true, ""},
		{"Calculator", "sin 30", true, "degrees"},
		// With no year, a February 29 may fall between.
		{"Calculator", "how many days between feb 3 and july 19", false, "February 29"},
		// An operator read from a vague word.
		{"Calculator", "what is 100 over 4", false, `"over"`},
		// A place by another of its names.
		{"WeatherSearch", "weather in NYC", true, "was read as"},
		// A required place the query does not name.
		{"WeatherSearch", "will it rain today?", true, "no place named"},
		// The text to translate is the phrase left around the tool's own
		// words, standing together as written: likely, not certain.
		{"Translate", "translate hello world into Chinese", true, "phrase left around"},
		{"Translate", "Cómo se dice buenos días en japonés", true, "phrase left around"},
	}
	for _, tt := range tests {
		call, r, err := e.ReadCall(context.Background(), specNamed(t, tt.tool), tt.query)
		if err != nil || call == "" {
			t.Errorf("%q: no call of %s (%v)", tt.query, tt.tool, err)
			continue
		}
		if got := r.Confidence >= 0.8; got != tt.high {
			t.Errorf("%q: %s confidence %.2f (doubts %q), want high %v", tt.query, call, r.Confidence, r.Doubts, tt.high)
		}
		if tt.doubt == "" && tt.high && r.Confidence < 0.95 {
			t.Errorf("%q: %s confidence %.2f (doubts %q), want a clean reading", tt.query, call, r.Confidence, r.Doubts)
		}
		if tt.doubt != "" && !strings.Contains(strings.Join(r.Doubts, "|"), tt.doubt) {
			t.Errorf("%q: %s doubts %q, want one with %q", tt.query, call, r.Doubts, tt.doubt)
		}
		if plain, _ := e.Call(context.Background(), specNamed(t, tt.tool), tt.query); plain != call {
			t.Errorf("%q: Call gives %q, ReadCall %q", tt.query, plain, call)
		}
	}
}

// The examples: each calculator call is either right or read
// with a confidence under the gate, so that it is asked about rather
// than shown as fact.
func TestReadCallIssueExamples(t *testing.T) {
	t.Parallel()
	e := testEngine()
	spec := specNamed(t, "Calculator")
	for _, tt := range []struct {
		query string
		want  float64
	}{
		{"what's 5 feet 10 inches in cm", 177.8},
		{"what is 3 hours and 20 minutes in minutes", 200},
		{"how many days between march 3 and july 19", 138},
		{"what is the sum of 1 through 100", 5050},
		{"how much is 2 dozen eggs at 30 cents each", 7.2},
		{"Sam has 3 boxes with 4 pens each. He gives away 2 pens. How many pens are left?", 10},
	} {
		call, r, err := e.ReadCall(context.Background(), spec, tt.query)
		if err != nil {
			t.Fatal(err)
		}
		if call == "" {
			continue // refused: nothing is shown
		}
		expr := strings.TrimSuffix(strings.TrimPrefix(call, spec.Name+"("), ")")
		v, err := calc.Eval(expr)
		right := false
		if err == nil {
			got, perr := strconv.ParseFloat(v.String(), 64)
			right = perr == nil && math.Abs(got-tt.want) < 0.01
		}
		if !right && r.Confidence >= 0.8 {
			t.Errorf("%q: %s is wrong (want %v) at call confidence %.2f", tt.query, call, tt.want, r.Confidence)
		}
		if right && r.Confidence < 0.8 {
			t.Logf("%q: %s is right but read at %.2f (%q)", tt.query, call, r.Confidence, r.Doubts)
		}
	}
}

// Numbers taken by position: every number of the query, in the order the
// tool lists its parameters, is the natural reading (over the gate, one
// doubt); a number left over makes each a guess.
func TestReadCallNumbersByPosition(t *testing.T) {
	t.Parallel()
	e := testEngine()
	add := tools.Spec{Name: "add_numbers", Description: "Add two numbers and return the sum",
		Params: []tools.Param{{Name: "a", Type: tools.TypeNumber}, {Name: "b", Type: tools.TypeNumber}}}
	tests := []struct {
		query string
		high  bool
		doubt string
	}{
		{"add the numbers 2 and 3", true, "in the order of the tool's parameters"},
		{"add the numbers 2 and 3 for my 4 kids", false, "by its position"},
	}
	for _, tt := range tests {
		call, r, err := e.ReadCall(context.Background(), add, tt.query)
		if err != nil || !strings.HasPrefix(call, "add_numbers(2, 3") {
			t.Fatalf("%q: call %q (%v)", tt.query, call, err)
		}
		if got := r.Confidence >= 0.8; got != tt.high || !strings.Contains(strings.Join(r.Doubts, "|"), tt.doubt) {
			t.Errorf("%q: confidence %.2f doubts %q; want high %v and a doubt with %q", tt.query, r.Confidence, r.Doubts, tt.high, tt.doubt)
		}
	}
}

// A question's focus that is a clause — a verb of its own, or a
// preposition left without its object — is doubted as a thing's name;
// a name, a possessive or a phrase with a preposition inside is not.
func TestClauseReason(t *testing.T) {
	t.Parallel()
	for term, clause := range map[string]bool{
		"year is it": true, "song that's playing": true, "dow at": true, "day of the month is it": true,
		"capital of france": false, "newton's laws": false, "history of the roman empire": false, "the eiffel tower": false,
	} {
		if got := clauseReason(term) != ""; got != clause {
			t.Errorf("clauseReason(%q) = %q, want a clause %v", term, clauseReason(term), clause)
		}
	}
	spec := specNamed(t, "WikiSearch")
	e := New(Options{Tools: []tools.Spec{spec}})
	_, r, err := e.ReadCall(context.Background(), spec, "what year is it")
	if err != nil || r == nil || r.Confidence >= focusText || len(r.Doubts) == 0 || !strings.Contains(r.Doubts[0], "a clause") {
		t.Errorf("what year is it: reading %+v (%v), want a doubt that the term is a clause", r, err)
	}
	_, r, err = e.ReadCall(context.Background(), spec, "who was Ada Lovelace")
	if err != nil || r == nil || len(r.Doubts) != 0 {
		t.Errorf("who was Ada Lovelace: reading %+v (%v), want no doubt", r, err)
	}
}

// "two by two" is read as a product, and doubted: "by" may join a
// shape's sides; "by" with units or a verb is no such product.
func TestNumberByNumber(t *testing.T) {
	t.Parallel()
	spec := specNamed(t, "Calculator")
	e := New(Options{Tools: []tools.Spec{spec}})
	call, r, err := e.ReadCall(context.Background(), spec, "two by two")
	if err != nil || call != "Calculator(2 * 2)" || r == nil || r.Confidence >= 0.8 || len(r.Doubts) != 1 {
		t.Errorf("two by two: %s %+v %v, want Calculator(2 * 2) read under 0.8 with one doubt", call, r, err)
	}
	for q, want := range map[string]string{"divide 100 by 20": "100 / 20", "a garden is 12 m by 7.5 m": "", "two by two by two": ""} {
		if got := numberByNumber(lexemes(e.analysisOf(q))); got != "" {
			t.Errorf("numberByNumber(%q) = %q, want none (the expression is %q)", q, got, want)
		}
	}
}

// A span of clock time that passes midnight says so.
func TestClockSpanReading(t *testing.T) {
	t.Parallel()
	spec := specNamed(t, "Calculator")
	e := New(Options{Tools: []tools.Spec{spec}})
	_, r, err := e.ReadCall(context.Background(), spec, "how many hours from 10:30 pm to 6:15 am")
	if err != nil || r == nil || len(r.Doubts) != 1 || !strings.Contains(r.Doubts[0], "next day") {
		t.Errorf("overnight: reading %+v (%v), want the next-day doubt", r, err)
	}
	_, r, err = e.ReadCall(context.Background(), spec, "how many minutes from 7:45 to 16:15")
	if err != nil || r == nil || len(r.Doubts) != 0 || r.Confidence < 0.9 {
		t.Errorf("same day: reading %+v (%v), want no doubt", r, err)
	}
}
