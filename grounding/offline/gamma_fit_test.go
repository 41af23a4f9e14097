package offline_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gear-chat/gear/grounding"
)

// TestFitGammaArguments fits grounding.DefaultGammaArguments, the γ of
// tools scored by their arguments (pattern_arguments.go), on the tool
// libraries' dev sets: every tool item is grounded once with the default
// options, and its first tools by S are re-ranked by f = γS + (1−γ)P for
// each γ of a grid (P does not depend on γ). It prints each set's ranked
// top-1 per γ, the γ with the best mean over the sets (each set weighing
// alike; a tie goes to the larger γ, the one leaning least on P), and,
// leaving each set out in turn, the γ the other two choose and the
// left-out set's top-1 with it. Run with GEAR_BENCHMARKS=DIR (the sets'
// library.json and dev.jsonl under DIR/SET).
func TestFitGammaArguments(t *testing.T) {
	dir := benchmarksDir(t)
	places, err := loadPlaces()
	if err != nil {
		t.Fatal(err)
	}
	sets := []string{"metatool", "bfcl", "sealtools"}
	scored := map[string][][]scoredTool{}
	for _, set := range sets {
		lib := keepParsable(t, loadScaleLibrary(t, filepath.Join(dir, set, "library.json")))
		qs := loadScaleQueries(t, filepath.Join(dir, set, "dev.jsonl"))
		scored[set] = measureScale(t, lib, qs, places).scored
	}
	var grid []float64
	for g := 50; g <= 100; g += 5 {
		grid = append(grid, float64(g)/100)
	}
	top1 := func(set string, gamma float64) float64 {
		right := 0
		for _, item := range scored[set] {
			best, bestF := -1, 0.0
			for i, st := range item {
				f := gamma*st.S + (1-gamma)*st.P
				if best < 0 || f > bestF {
					best, bestF = i, f
				}
			}
			if best >= 0 && item[best].Right {
				right++
			}
		}
		return ratio(right, len(scored[set]))
	}
	choose := func(on []string) float64 {
		bestG, bestM := 0.0, -1.0
		for _, g := range grid {
			m := 0.0
			for _, s := range on {
				m += top1(s, g)
			}
			m /= float64(len(on))
			if m >= bestM-1e-12 {
				bestG, bestM = g, m
			}
		}
		return bestG
	}
	var b strings.Builder
	fmt.Fprintf(&b, "γ     %s\n", strings.Join(sets, "  "))
	for _, g := range grid {
		fmt.Fprintf(&b, "%.2f ", g)
		for _, s := range sets {
			fmt.Fprintf(&b, " %.3f", top1(s, g))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "chosen on all sets: γ = %.2f (shipped %.2f)\n", choose(sets), grounding.DefaultGammaArguments)
	for _, out := range sets {
		var on []string
		for _, s := range sets {
			if s != out {
				on = append(on, s)
			}
		}
		g := choose(on)
		fmt.Fprintf(&b, "leave out %s: γ = %.2f, its top-1 %.3f (γ = 1: %.3f)\n", out, g, top1(out, g), top1(out, 1))
	}
	for _, set := range sets {
		fmt.Fprintf(&b, "%s: %s\n", set, informative(scored[set], grounding.DefaultGammaArguments))
	}
	t.Log("\n" + b.String())
}

// informative says what P contributes on a set's items at γ: how often it
// differs among the first five tools by S (and between the first two),
// and, where the best f is not the best S, which of the two is right.
func informative(items [][]scoredTool, gamma float64) string {
	var differs5, differs2, fRight, sRight, neither int
	for _, item := range items {
		seen := map[float64]bool{}
		for i, st := range item {
			if i == 5 {
				break
			}
			seen[st.P] = true
		}
		if len(seen) > 1 {
			differs5++
		}
		if len(item) > 1 && item[0].P != item[1].P {
			differs2++
		}
		bestF, f := 0, -1.0
		for i, st := range item {
			if v := gamma*st.S + (1-gamma)*st.P; v > f {
				bestF, f = i, v
			}
		}
		if bestF == 0 {
			continue // item is sorted by S: the best S is first
		}
		switch {
		case item[bestF].Right:
			fRight++
		case item[0].Right:
			sRight++
		default:
			neither++
		}
	}
	return fmt.Sprintf("P differs among the first 5 by S on %.3f of items (first 2: %.3f); f overrides S on %d items: f right %d, S right %d, neither %d",
		ratio(differs5, len(items)), ratio(differs2, len(items)), fRight+sRight+neither, fRight, sRight, neither)
}

// scoredTool is one tool's S and P for an item, and whether it is right.
type scoredTool struct {
	S, P  float64
	Right bool
}

// firstBySemantic are r's first 20 tools by S.
func firstBySemantic(r *grounding.Result, right map[string]bool) []scoredTool {
	ts := append([]grounding.ToolScore(nil), r.Tools...)
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].S > ts[j].S })
	out := make([]scoredTool, 0, 20)
	for i, t := range ts {
		if i == 20 {
			break
		}
		out = append(out, scoredTool{S: t.S, P: t.P, Right: right[t.Tool]})
	}
	return out
}
