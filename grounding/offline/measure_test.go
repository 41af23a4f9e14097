package offline

import (
	"testing"

	"github.com/gear-chat/gear/tools"
)

// The example sentences here are written for these tests; none comes from
// an evaluation file.

func TestConversionsAndPhrasedArithmetic(t *testing.T) {
	tests := []struct{ query, want string }{
		// Units as a search box gets them: letters, glued numbers,
		// compounds, powers, US customary and imperial measures.
		{"30 c to f", "30 * 9 / 5 + 32"},
		{"98.6f in c", "(98.6 - 32) * 5 / 9"},
		{"12km in miles", "12 * 1000 / 1609.344"},
		{"60 mph to km/h", "60 * 0.44704 / (1000 / 3600)"},
		{"what is 10 m/s in km per hour", "10 * (1 / 1) / (1000 / 3600)"},
		{"250 sq ft in square meters", "250 * (0.3048 ^ 2) / (1 ^ 2)"},
		{"40 m² to sq ft", "40 * (1 ^ 2) / (0.3048 ^ 2)"},
		{"how many square feet in an acre", "4046.8564224 / (0.3048 ^ 2)"},
		{"2 liters in cups", "2 * 1 / 0.2365882365"},
		{"teaspoons in a tablespoon", "0.01478676478125 / 0.00492892159375"},
		{"4 fl oz to ml", "4 * 0.0295735295625 / 0.001"},
		// Ounces of a volume are fluid ounces; of a mass, ounces.
		{"how many ounces in a cup", "0.2365882365 / 0.0295735295625"},
		{"8 ounces in cups", "8 * 0.0295735295625 / 0.2365882365"},
		{"16 oz in grams", "16 * 28.349523125"},
		{"3 imperial gallons in litres", "3 * 4.54609"},
		{"20 knots in mph", "20 * (1852/3600) / 0.44704"},
		// A price per one unit asked per another.
		{"diesel costs 1.65 per litre, how much is that per gallon", "1.65 * 3.785411784 / 1"},
		// Pace and speed from a distance and a time.
		{"I walked 5 km in 50 minutes, what was my pace", "50 / 5"},
		{"a cyclist rides 42 miles in 3 hours, what is her average speed", "42 / 3"},
		// Percentages named by a phrase.
		{"sales went from 200 to 260, what percent increase is that", "(260 - 200) / 200 * 100"},
		{"visitors fell from 5,000 to 4,200; what is the percentage drop", "(5000 - 4200) / 5000 * 100"},
		{"the rent went down from 900 to 810 and then rose, what percent change", "(810 - 900) / 900 * 100"},
		{"what percentage of 250 is 40", "40 / 250 * 100"},
		// A share whose sharers come first; amounts joined by "plus" are
		// added before sharing.
		{"five roommates split a $2,300 rent plus $180 for power equally", "(2300 + 180) / 5"},
		{"4 of us share 30 dollars", "30 / 4"},
		{"six of us split a $240 meal and a 10% tip", ""}, // a percentage is not an amount to add
		{"two kids split 15 sweets 3 ways", "15 / 3"},     // the ways named after the amount win
		{"18 is what percent of 72", "18 / 72 * 100"},
		{"a $120 coat is reduced by 15%, what does it cost now", "120 - 15% of 120"},
		{"a salary of 40,000 raised by 3 percent", "40000 + 3% of 40000"},
		// School geometry.
		{"the area of a circle with a radius of 3 cm", "pi * 3 ^ 2"},
		{"circumference of a circle whose diameter is 10", "2 * pi * (10 / 2)"},
		{"what is the volume of a sphere of radius 2", "4 / 3 * pi * 2 ^ 3"},
		{"perimeter of a rectangle 4 by 7", "2 * (4 + 7)"},
		// Logarithms by base, lists without commas, other languages.
		{"log10 of 250", "log(250)"},
		{"log2 1024", "log(2, 1024)"},
		{"sum up 4 9 and 16", "4 + 9 + 16"},
		{"combien font 7 fois 8", "7 * 8"},
		{"cuánto es 100 dividido entre 4", "100 / 4"},
		{"was ist 9 mal 6", "9 * 6"},
		{"quanto fa 15 più 27", "15 + 27"},
		// Not arithmetic.
		{"add 3 dozen roses to the order", ""},
		{"remind me at 5 pm to call mum", ""},
		{"2 cups of tea please", ""},
		{"a c in chemistry", ""},
		{"pour 2 cups of flour into a bowl", ""},
	}
	e := testEngine()
	for _, tt := range tests {
		a := e.analyze(tt.query)
		if a.expr != tt.want || tt.want != "" && !a.explicit {
			t.Errorf("%q: expression %q (explicit %v), want %q", tt.query, a.expr, a.explicit, tt.want)
		}
		if a.expr != "" {
			if ok, _, msg := tools.CheckExpression(a.expr); !ok {
				t.Errorf("%q: %q is not an expression: %s", tt.query, a.expr, msg)
			}
		}
	}
}

func TestGluedUnitsTokenize(t *testing.T) {
	tests := map[string]string{
		"10km":  "10|km",
		"72F":   "72|f",
		"14h30": "14h30",
		"16th":  "16th",
		"90s":   "90s",
		"8pm":   "8pm",
		"m2":    "m2",
		"mp3":   "mp3",
	}
	for in, want := range tests {
		var words []string
		for _, tk := range tokenize(in) {
			words = append(words, tk.text)
		}
		if got := joinWords(words); got != want {
			t.Errorf("tokenize(%q) = %q, want %q", in, got, want)
		}
	}
}

func joinWords(words []string) string {
	out := ""
	for i, w := range words {
		if i > 0 {
			out += "|"
		}
		out += w
	}
	return out
}

// "US" and "UK" before a unit they qualify are a measure, not a place.
func TestUnitQualifierIsNoPlace(t *testing.T) {
	e := testEngine()
	for q, want := range map[string]string{
		"how many litres is 5 US gallons":  "5 * 3.785411784",
		"how many US gallons is 50 litres": "50 * 1 / 3.785411784",
	} {
		a := e.analysisOf(q)
		if a.expr != want || len(a.places) != 0 {
			t.Errorf("%q: expression %q, places %v; want %q and no place", q, a.expr, a.places, want)
		}
	}
	if a := e.analysisOf("weather in the US"); len(a.places) != 1 {
		t.Errorf("weather in the US: places %v, want the country", a.places)
	}
}
