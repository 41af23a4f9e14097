package offline

import "testing"

// TestSlipOfKnown: a swap inside a word of the thesaurus, or a letter
// left out of a unit's name, is read as that word; English words the
// thesaurus does not hold, and slips at the word's ends, are left alone.
func TestSlipOfKnown(t *testing.T) {
	t.Parallel()
	lx := newLexicon(builtinSpecs())
	tests := map[string]string{
		"precent":   "percent",
		"presidnet": "president",
		"galons":    "gallons",
		"reminder":  "", // a word of its own, not "remainder"
		"county":    "", // not "country"
		"coast":     "", // not "coats": the last letter stays
		"story":     "",
		"planet":    "",
		"stores":    "",
		"parking":   "",
	}
	for in, want := range tests {
		got := ""
		if !lx.known(in) {
			got, _ = lx.slipOfKnown(in)
		}
		if got != want {
			t.Errorf("slip of %q: %q, want %q", in, got, want)
		}
	}
}

// TestCorrectTyposLeavesTokensWithDigits: a token with digits or an
// apostrophe is never read as a slip.
func TestCorrectTyposLeavesTokensWithDigits(t *testing.T) {
	t.Parallel()
	lx := newLexicon(builtinSpecs())
	toks := tokenize("5'11 in cm, 3x4 precent")
	out, _ := lx.correctTypos(toks)
	for i := range toks {
		want := toks[i].text
		if toks[i].text == "precent" {
			want = "percent"
		}
		if out[i].text != want {
			t.Errorf("token %q read as %q, want %q", toks[i].text, out[i].text, want)
		}
	}
}
