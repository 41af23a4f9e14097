package offline

import "testing"

// TestWordLexemeSpans pins how many words an operator or function phrase
// takes, with and without its optional last word.
func TestWordLexemeSpans(t *testing.T) {
	tests := []struct {
		phrase string
		kind   lexKind
		text   string
		width  int
	}{
		{"multiplied by 4", lexOp, "*", 2},
		{"multiplied 4", lexOp, "*", 1},
		{"multiply 3 by 4", lexVerb, "*", 1},
		{"divided by 2", lexOp, "/", 2},
		{"divided 2", lexOp, "/", 1},
		{"to the power of 10", lexOp, "^", 4},
		{"to the power 10", lexOp, "^", 3},
		{"to 10", lexTo, "to", 1},
		{"raised to the power of 3", lexOp, "^", 5},
		{"raised to 3", lexOp, "^", 2},
		{"square root of 9", lexFunc, "sqrt", 3},
		{"square roots 9", lexFunc, "sqrt", 2},
		{"cube root of 27", lexFunc, "cbrt", 3},
		{"cube root 27", lexFunc, "cbrt", 2},
		{"square of 4", lexFunc, "sq", 2},
		{"sqrt of 16", lexFunc, "sqrt", 2},
		{"root 16", lexFunc, "sqrt", 1},
		{"log of 100", lexFunc, "log", 2},
		{"logarithm 100", lexFunc, "log", 1},
		{"log10 100", lexFunc, "log", 1},
		{"natural log of 5", lexFunc, "ln", 3},
		{"natural logarithm 5", lexFunc, "ln", 2},
		{"absolute value of -3", lexFunc, "abs", 3},
		{"factorial of 5", lexFunc, "factorial", 2},
		{"factorial", lexPostfix, "!", 1},
		{"per cent", lexPostfix, "%", 2},
		{"divisible by 8", lexOp, "mod", 2},
		{"natural", lexOther, "natural", 1},
	}
	for _, tt := range tests {
		l, n := wordLexeme(tokenize(tt.phrase), 0)
		if l.text == "" {
			l.text = tokenize(tt.phrase)[0].text // as lexemes() fills it
		}
		if l.kind != tt.kind || l.text != tt.text || n != tt.width {
			t.Errorf("%q: kind %d %q width %d, want kind %d %q width %d", tt.phrase, l.kind, l.text, n, tt.kind, tt.text, tt.width)
		}
	}
}
