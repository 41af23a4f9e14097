package ui

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/ui/termimg"
)

// An image answer shows a half-block preview on a terminal that shows
// images, and the saved path on one that does not.
func TestImageAnswerShowsPreviewOrPath(t *testing.T) {
	t.Parallel()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	png.Encode(&buf, img)
	path := filepath.Join(t.TempDir(), "fox.png")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		caps termimg.Caps
		want string
	}{
		{"kitty terminal gets the preview", termimg.Caps{Protocol: termimg.Kitty, Host: "box"}, "▀▀▀▀▀▀▀▀"},
		{"no graphics gets the path", termimg.Caps{}, path},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := agent.Record{Status: "done", Tool: "ImageGeneration", Answer: "Here is your fox.",
				Call: &agent.ToolRun{Tool: "ImageGeneration", Call: `ImageGeneration("a fox")`, Response: "Image saved: " + path + "\n(8x8 PNG, m)"}}
			turn := newFakeTurn([]agent.Event{agent.Done{Record: rec}}, nil)
			mod, err := New(context.Background(), Options{Agent: newFakeAgent(t, turn), Renderer: testRenderer(), Now: testNow, Location: time.UTC, Images: tc.caps})
			if err != nil {
				t.Fatal(err)
			}
			mod.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
			m := &harness{Model: mod, late: make(chan tea.Msg, 64)}
			m.typeText("paint a fox")
			m.drive(press(tea.KeyEnter))
			if v := m.plain(); !strings.Contains(v, tc.want) {
				t.Errorf("view lacks %q:\n%s", tc.want, v)
			}
		})
	}
}
