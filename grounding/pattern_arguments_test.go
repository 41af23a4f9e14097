package grounding

import "testing"

func TestArgumentFitScore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		fit  ArgumentFit
		want float64
	}{
		{"no parameters", ArgumentFit{}, 1},
		{"only strings, filled", ArgumentFit{Required: 2, Filled: 2}, 1},
		{"a string unfilled", ArgumentFit{Required: 2, Filled: 1}, 1},
		{"shaped, filled", ArgumentFit{Required: 1, Filled: 1, Typed: 1, TypedFilled: 1}, 1},
		{"shaped, missing", ArgumentFit{Required: 1, Typed: 1}, 0},
		{"one of two numbers", ArgumentFit{Required: 2, Filled: 1, Typed: 2, TypedFilled: 1}, 0.5},
		{"enum unfilled", ArgumentFit{Required: 1, Enums: 1}, 1},
	}
	for _, tt := range tests {
		if got := tt.fit.Score(); got != tt.want {
			t.Errorf("%s: Score() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
