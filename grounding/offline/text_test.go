package offline

import (
	"math"
	"strings"
	"testing"
)

func TestStem(t *testing.T) {
	// Examples from Porter's paper and the reference vocabulary.
	tests := map[string]string{
		"caresses": "caress", "ponies": "poni", "ties": "ti", "caress": "caress", "cats": "cat",
		"feed": "feed", "agreed": "agre", "plastered": "plaster", "bled": "bled", "motoring": "motor", "sing": "sing",
		"conflated": "conflat", "troubled": "troubl", "sized": "size", "hopping": "hop", "tanned": "tan",
		"falling": "fall", "hissing": "hiss", "fizzed": "fizz", "failing": "fail", "filing": "file",
		"happy": "happi", "sky": "sky", "relational": "relat", "conditional": "condit", "rational": "ration",
		"valenci": "valenc", "digitizer": "digit", "conformabli": "conform", "radicalli": "radic",
		"differentli": "differ", "vileli": "vile", "analogousli": "analog", "vietnamization": "vietnam",
		"predication": "predic", "operator": "oper", "feudalism": "feudal", "decisiveness": "decis",
		"hopefulness": "hope", "callousness": "callous", "formaliti": "formal", "sensitiviti": "sensit",
		"sensibiliti": "sensibl", "triplicate": "triplic", "formative": "form", "formalize": "formal",
		"electriciti": "electr", "electrical": "electr", "hopeful": "hope", "goodness": "good",
		"revival": "reviv", "allowance": "allow", "inference": "infer", "airliner": "airlin",
		"adjustable": "adjust", "defensible": "defens", "irritant": "irrit", "replacement": "replac",
		"adjustment": "adjust", "dependent": "depend", "adoption": "adopt", "homologou": "homolog",
		"communism": "commun", "activate": "activ", "angulariti": "angular", "homologous": "homolog",
		"effective": "effect", "bowdlerize": "bowdler", "probate": "probat", "rate": "rate", "cease": "ceas",
		"controll": "control", "roll": "roll", "weather": "weather", "rainy": "raini", "raining": "rain",
		"temperatures": "temperatur", "a": "a", "Tokyo": "Tokyo", "x2": "x2",
	}
	for in, want := range tests {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTokenize(t *testing.T) {
	toks := tokenize("What's 1,134.5 + Ølberg's don't-stop?")
	var words []string
	for _, tk := range toks {
		words = append(words, tk.text)
	}
	if got := strings.Join(words, "|"); got != "what's|1,134.5|ølberg's|don't|stop" {
		t.Errorf("tokens %q", got)
	}
	if toks[1].start != 7 || toks[1].end != 14 {
		t.Errorf("span of 1,134.5: %d..%d", toks[1].start, toks[1].end)
	}
}

// An operator word glued between two numbers is a word of its own;
// anything else glued to a number is read as before (a unit glued on).
func TestTokenizeGluedOperator(t *testing.T) {
	for in, want := range map[string]string{
		"3x4": "3|x|4", "what is 2.5x10": "what|is|2.5|x|10", "0xff": "0|xff", "4x": "4|x", "x4": "x4",
		"3xy4": "3xy4", "10km": "10|km", "3x4x5": "3x4x5",
	} {
		var words []string
		for _, tk := range tokenize(in) {
			if in[tk.start:tk.end] != tk.text {
				t.Errorf("%q: token %q spans %q", in, tk.text, in[tk.start:tk.end])
			}
			words = append(words, tk.text)
		}
		if got := strings.Join(words, "|"); got != want {
			t.Errorf("tokenize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFindNumbers(t *testing.T) {
	tests := []struct {
		text string
		want []float64
	}{
		{"48 multiplied by 4 divided by 2", []float64{48, 4, 2}},
		{"one hundred and fifty bucks", []float64{150}},
		{"thirty-five pictures and fourteen pics", []float64{35, 14}},
		{"three hundred ninety-six students", []float64{396}},
		{"two-thirds of the way", []float64{2.0 / 3}},
		{"a dozen eggs and a half", []float64{12, 0.5}},
		{"a thousand and one nights", []float64{1001}},
		{"$85.00 left and 1,134 miles", []float64{85, 1134}},
		{"two, three", []float64{2, 3}},
		{"no numbers here", nil},
	}
	for _, tt := range tests {
		got := findNumbers(tt.text, tokenize(tt.text))
		if len(got) != len(tt.want) {
			t.Errorf("%q: %d numbers, want %v", tt.text, len(got), tt.want)
			continue
		}
		for i, n := range got {
			if math.Abs(n.value-tt.want[i]) > 1e-9 {
				t.Errorf("%q: number %d is %v, want %v", tt.text, i, n.value, tt.want[i])
			}
		}
	}
}
