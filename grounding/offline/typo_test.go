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

// TestSlipOfFrameWord: slips of the closed classes of question and
// arithmetic words (grammar/slip-words.txt), and the words they leave.
func TestSlipOfFrameWord(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query, word, want string
	}{
		{"wat is the capital of peru", "wat", "what"},
		{"wich planet is largest", "wich", "which"},
		{"how meny moons", "meny", "many"},
		{"45 divded by 3", "divded", "divided"},
		{"Isle of Man", "man", "man"},              // a name; and "many" keeps its last letter
		{"the quiet man", "man", "man"},            // the last letter is no slip
		{"which way is north", "way", "way"},       // three letters: no changed letter
		{"tell me about Angkor Wat", "wat", "wat"}, // a capitalised name
		{"which witch is which", "witch", "witch"}, // two letters from "which"
		{"whos the author", "whos", "who's"},       // the contraction, its apostrophe left out
	}
	lx := newLexicon(builtinSpecs())
	for _, tt := range tests {
		toks := tokenize(tt.query)
		out, _ := lx.correctTypos(toks)
		for i := range toks {
			if toks[i].text == tt.word && out[i].text != tt.want {
				t.Errorf("%q: %q read as %q, want %q", tt.query, tt.word, out[i].text, tt.want)
			}
		}
	}
}

// TestStateSlips: a slip of a long state of a subject ("moring") is read
// as it; short states are no targets.
func TestStateSlips(t *testing.T) {
	t.Parallel()
	lx := newLexicon(builtinSpecs())
	for in, want := range map[string]string{"moring": "morning", "midnigth": "midnight", "darkk": ""} {
		got := ""
		if !lx.known(in) {
			got, _ = lx.typoOf(in)
		}
		if got != want {
			t.Errorf("typo of %q: %q, want %q", in, got, want)
		}
	}
}
