package offline

import (
	"testing"

	"github.com/gear-chat/gear/tools"
)

// Ranges and date differences are read as templates of the tool's
// operations.
func TestOperationReading(t *testing.T) {
	t.Parallel()
	e := testEngine()
	for _, tt := range []struct {
		query, want string
	}{
		{"what is the sum of 1 through 100", "{range_sum}(1, 100)"},
		{"sum of the first 10 odd numbers", "{range_sum}(1, 2 * 10 - 1, 2)"},
		{"add up all the even numbers from 1 to 50", "{range_sum}(2, 50, 2)"},
		{"total of multiples of 3 between 1 and 30", "{range_sum}(3, 30, 3)"},
		{"what is 4 + 8 + 12 + ... + 40", "{range_sum}(4, 40, 4)"},
		{"the product of 1 through 8", "{range_product}(1, 8)"},
		{"how many days between march 3 and july 19", "{days_between}({date}(2025, 3, 3), {date}(2025, 7, 19))"},
		{"how many days from november 20 to february 2", "{days_between}({date}(2025, 11, 20), {date}(2026, 2, 2))"},
		{"weeks between 5 jan 2025 and 30 march 2025", "{days_between}({date}(2025, 1, 5), {date}(2025, 3, 30)) * 86400 / 604800"},
		{"days from 2023-11-01 to 2024-03-01", "{days_between}({date}(2023, 11, 1), {date}(2024, 3, 1))"},
		{"what date is 90 days after march 3 2025", "{calendar_date}({date}(2025, 3, 3) + 90)"},
		{"the date 6 weeks before 2026-01-10", "{calendar_date}({date}(2026, 1, 10) - 6 * 7)"},
		{"a fortnight is 2 weeks; 3 fortnights prior to 1 may 2026", "{calendar_date}({date}(2026, 5, 1) - 3 * 14)"},
		{"ninety days after the 3rd of march 2025", ""}, // "the" between: not a phrase of date-shifts.txt
		{"90 days after march 3", ""},       // no year: a date of which year?
		{"3 months after march 3 2025", ""}, // months vary in length
		{"2 days after march 3 2025 and before july 4 2025", ""},
		{"1.5 days after march 3 2025", ""},
		{"how many days in 2024", "{days_between}({date}(2024, 1, 1), {date}(2025, 1, 1))"},
		{"how many hours in february 2028", "{days_between}({date}(2028, 2, 1), {date}(2028, 3, 1)) * 86400 / 3600"},
		{"how many days in december 2025", "{days_between}({date}(2025, 12, 1), {date}(2026, 1, 1))"},
		{"how many weeks in 2024", ""},           // not a whole number of weeks
		{"how many days in 2024 were sunny", ""}, // the year does not end it
		{"how many hours from 10:30 pm to 6:15 am", "((6 * 60 + 15) - (22 * 60 + 30) + 24 * 60) / 60"},
		{"how many minutes from 7:45 to 16:15", "(16 * 60 + 15) - (7 * 60 + 45)"},
		{"how many hours between 9am in London and 5pm in Adelaide", ""}, // a time zone's question
		{"how many hours between 9 and 5", ""},                           // bare numbers are no times
		// No operation: a total, other terms, arithmetic, a list.
		{"three consecutive numbers add up to 72", ""},
		{"sum of the squares from 1 to 10", ""},
		{"sum of the numbers 1 through 5 squared", ""},
		{"add 5 and 89", ""},
		{"the sum of 3, 4 and 5", ""},
		{"how many months between march 3 and july 19", ""},
		{"sin 30", "{sin}(30 * pi / 180)"},
		{"what is the cosine of 60 degrees", "{cos}(60 * pi / 180)"},
		{"tan 0.5 radians", "{tan}(0.5)"},
		{"get a tan in 3 days", ""},
	} {
		a := e.analysisOf(tt.query)
		if a.opExpr != tt.want {
			t.Errorf("%q: operation %q, want %q", tt.query, a.opExpr, tt.want)
		}
	}
}

// A tool's hints name the functions the templates are written with; a
// tool that names none gets the plain reading, with a low confidence.
func TestOperationNeedsHints(t *testing.T) {
	t.Parallel()
	hint := tools.ParamHint{Functions: map[tools.Operation]string{tools.OpRangeSum: "series"}}
	if got := opExpression("{range_sum}(1, 100)", hint); got != "series(1, 100)" {
		t.Errorf("opExpression = %q", got)
	}
	if got := opExpression("{days_between}({date}(2025, 3, 3), {date}(2025, 7, 19))", hint); got != "" {
		t.Errorf("opExpression without date functions = %q, want none", got)
	}
	spec := specNamed(t, "Calculator")
	spec.Hints.Params = nil
	e := New(Options{Tools: []tools.Spec{spec}})
	call, reading := e.extractRead(e.analysisOf("what is the sum of 1 through 100"), spec)
	if call != "" && reading.reading().Confidence >= 0.8 {
		t.Errorf("%s without the range function read at %.2f", call, reading.reading().Confidence)
	}
}

// Amounts of one dimension written side by side are one amount.
func TestMixedAmounts(t *testing.T) {
	t.Parallel()
	e := testEngine()
	for _, tt := range []struct {
		query, want string
	}{
		{"what's 5 feet 10 inches in cm", "(5 * 0.3048 + 10 * 0.0254) / 0.01"},
		{"what is 3 hours and 20 minutes in minutes", "(3 * 3600 + 20 * 60) / 60"},
		{"how many seconds in 1 hour 15 minutes 30 seconds", "((1 * 3600 + 15 * 60) + 30 * 1)"},
		{"2 lb 3 oz in grams", "(2 * 453.59237 + 3 * 28.349523125)"},
		{"a cyclist rides 42 km in 1 hour 24 minutes, speed in km/h", "(42 * 1000) / ((1 * 3600 + 24 * 60)) / (1000 / 3600)"},
		{"convert 5 ft 11 in to metres", "(5 * 0.3048 + 11 * 0.0254)"},
		{"1 m 75 cm in inches", "(1 * 1 + 75 * 0.01) / 0.0254"},
		{"5 km 350 m in metres", "(5 * 1000 + 350 * 1)"},
		{"five foot three in cm", "(5 * 0.3048 + 3 * 0.0254) / 0.01"},
		{"11 stone 4 pounds in kg", "(11 * 6350.29318 + 4 * 453.59237) / 1000"},
		{"6 foot 2 in cm", "(6 * 0.3048 + 2 * 0.0254) / 0.01"},
		{"add 2 ft 8 in and 3 ft 7 in, how many inches total", "((2 * 0.3048 + 8 * 0.0254) / 0.0254) + ((3 * 0.3048 + 7 * 0.0254) / 0.0254)"},
		{"how many seconds in a day and a half", "(1 + (1 / 2)) * 86400"},
		{"how many minutes in 3 and a quarter hours", "(13 / 4) * 3600 / 60"},
		// "in" alone is no inch, nor is a number after feet that has a unit.
		{"how many inches in 3 feet", "3 * 0.3048 / 0.0254"},
		// The smaller unit first is no mixed amount.
		{"10 inches 5 feet in cm", "10 * 0.0254 / 0.01"},
	} {
		if got := e.analysisOf(tt.query).expr; got != tt.want {
			t.Errorf("%q: expression %q, want %q", tt.query, got, tt.want)
		}
	}
}

// A story problem whose every number finds a shape is read; one that
// cannot be read completely is left to the word problem's guess.
func TestStoryProblem(t *testing.T) {
	t.Parallel()
	e := testEngine()
	for _, tt := range []struct {
		query, want string
	}{
		{"Sam has 3 boxes with 4 pens each. He gives away 2 pens. How many pens are left?", "3 * 4 - 2"},
		{"how much is 2 dozen eggs at 30 cents each", "(2 * 12) * 30 / 100"},
		{"a shelf has 5 rows of 12 books and 7 are taken, then she buys 4 more. how many books are there", "5 * 12 - 7 + 4"},
		{"a shelf has 5 rows of 12 books and 7 are lent out. how many books are there", ""},
		{"3 crates of 20 bottles plus 6 bottles, how many bottles in total", "3 * 20 + 6"},
		{"tom has 5 apples and buys 3 more bags of 6 apples each. how many apples", "5 + 3 * 6"},
		// Not read completely: left to the guess.
		{"Sam has 3 boxes with 4 pens each. He gives away 2 boxes. How many pens are left?", ""},
		{"she had 20 cookies and ate 5 of 10 biscuits, how many cookies are left", ""},
		{"a farmer has 17 sheep, all but 9 run away, how many are left", ""},
		{"Tom had 12 apples and ate some. Jo gave him 7 more. How many does he have?", ""},
	} {
		a := e.analysisOf(tt.query)
		if got := storyProblem(a); got != tt.want {
			t.Errorf("%q: story %q, want %q", tt.query, got, tt.want)
		}
	}
}

// Arithmetic over amounts in units is read in the unit asked.
func TestQuantityArithmetic(t *testing.T) {
	t.Parallel()
	e := testEngine()
	for _, tt := range []struct {
		query, want string
	}{
		{"5 hours 30 min minus 2 hours 50 min in minutes", "((5 * 3600 + 30 * 60) / 60) - ((2 * 3600 + 50 * 60) / 60)"},
		{"20% of 3 hours 30 minutes, in minutes", "20% of ((3 * 3600 + 30 * 60) / 60)"},
		{"half a mile plus 220 yards in metres", "((1 / 2) * 1609.344) + (220 * 0.9144)"},
		// One plain amount is a conversion.
		{"42.195 km in miles", "42.195 * 1000 / 1609.344"},
	} {
		if got := e.analysisOf(tt.query).expr; got != tt.want {
			t.Errorf("%q: expression %q, want %q", tt.query, got, tt.want)
		}
	}
}

// A rate applied to an amount, or an amount over a rate.
func TestRateReading(t *testing.T) {
	t.Parallel()
	e := testEngine()
	for _, tt := range []struct {
		query, want string
	}{
		{"a machine makes 240 parts per hour, how many in 3 hours 40 minutes", "240 * ((3 * 3600 + 40 * 60)) / 3600"},
		{"walking at 5 km/h, how many minutes to walk 3.5 km", "((3.5 * 1000) / (5 * 1000) * 3600) / 60"},
		{"a snail moves 3 cm per minute. how many metres in 2 hours 30 minutes", "(3 * 0.01 * ((2 * 3600 + 30 * 60)) / 60)"},
		{"typing 65 words per minute, how long in minutes for 2,600 words", "2600 / 65"},
		{"typing 65 words per minute, how many hours for 7,800 words", "(7800 / 65) * 60 / 3600"},
		{"Maria reads 35 pages a day. how many days to finish a 420 page book", "420 / 35"},
		{"lisa saves $15 a week. how many weeks to save $240", "240 / 15"},
		// A rate is said in one phrase.
		{"a bag of 3 kg rice costs 7.50. price per kg", ""},
	} {
		got, _ := rateReading(e.analysisOf(tt.query))
		if got != tt.want {
			t.Errorf("%q: rate reading %q, want %q", tt.query, got, tt.want)
		}
	}
}

// A counted amount is written as its count times the counting word's
// number, and asked alone it is the answer.
func TestCountOf(t *testing.T) {
	t.Parallel()
	e := testEngine()
	for _, tt := range []struct {
		query, want string
	}{
		{"how many eggs in 7 dozen", "7 * 12"},
		{"how many is 3 dozen and a half", "3.5 * 12"},
		{"10% of 2 dozen eggs", "10% of (2 * 12)"},
		{"how many eggs in a dozen", ""},
		{"how many gloves in 2 dozen pairs", ""},
		{"i need 150 cupcakes, how many dozen is that", "150 / 12"},
	} {
		if got := e.analysisOf(tt.query).expr; got != tt.want {
			t.Errorf("%q: expression %q, want %q", tt.query, got, tt.want)
		}
	}
}
