package grounding

import (
	"testing"

	"github.com/gear-chat/gear/tools"
)

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

// A tool scored by its arguments can reach γ_a·S + (1−γ_a) whatever GEAR's
// bound, so the late calls never prune it below what its fit could give.
func TestReachOfToolsScoredByArguments(t *testing.T) {
	t.Parallel()
	g := &Grounder{opts: DefaultOptions()}
	run := tools.Spec{Name: "run", Effect: tools.EffectReadOnly}
	lib := tools.Spec{Name: "lib", Effect: tools.EffectWrites}
	const s, bound = 0.5, 0.2
	if got, want := g.reach(s, bound, run), DefaultGamma*s+(1-DefaultGamma)*bound; got != want {
		t.Errorf("run: reach %v, want %v", got, want)
	}
	if got, want := g.reach(s, bound, lib), DefaultGammaArguments*s+(1-DefaultGammaArguments); got != want {
		t.Errorf("lib: reach %v, want %v", got, want)
	}
}
