package ui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestGolden checks the main views at 80×24 and 120×40 against
// testdata/TestGolden/*.golden; go test ./ui -run TestGolden -update
// writes them again. The clock, the colour profile (none), the background
// (dark) and Glamour's style are fixed, so the views are the same
// everywhere.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"welcome", "turns", "details", "streaming", "gate", "tools", "help", "picker", "history", "callgate", "callcard", "offer"} {
		for _, sz := range [][2]int{{60, 20}, {80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, sz[0], sz[1]), func(t *testing.T) {
				golden.RequireEqual(t, sceneModel(t, name, sz[0], sz[1]).View())
			})
		}
	}
}
