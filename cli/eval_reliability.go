package cli

import (
	"fmt"
	"io"

	"github.com/gear-chat/gear/grounding"
)

// writeReliability prints the reliability diagram of gear eval
// --reliability as a Markdown table (BENCHMARKS.md keeps them), with the
// share of wrong choices made at high confidence.
func writeReliability(w io.Writer, preds []grounding.Prediction) {
	fmt.Fprintf(w, "\nreliability (confidence bin, choices, mean confidence, accuracy):\n\n")
	fmt.Fprintf(w, "| confidence | n | mean confidence | accuracy |\n|---|---:|---:|---:|\n")
	for _, b := range grounding.Reliability(preds) {
		if b.N == 0 {
			fmt.Fprintf(w, "| %.1f–%.1f | 0 | | |\n", b.Lo, b.Hi)
			continue
		}
		fmt.Fprintf(w, "| %.1f–%.1f | %d | %.3f | %.3f |\n", b.Lo, b.Hi, b.N, b.MeanConfidence, b.Accuracy)
	}
	at90, wrong := grounding.WrongAtOrAbove(preds, 0.9)
	at99, _ := grounding.WrongAtOrAbove(preds, 0.99)
	share := func(k int) float64 {
		if wrong == 0 {
			return 0
		}
		return 100 * float64(k) / float64(wrong)
	}
	fmt.Fprintf(w, "\nwrong choices: %d; at confidence ≥ 0.9: %d (%.0f%%); ≥ 0.99: %d (%.0f%%)\n",
		wrong, at90, share(at90), at99, share(at99))
}
