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
	"github.com/charmbracelet/x/exp/golden"

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
			m := newHarness(t, mod)
			m.typeText("paint a fox")
			m.drive(press(tea.KeyEnter))
			if v := m.plain(); !strings.Contains(v, tc.want) {
				t.Errorf("view lacks %q:\n%s", tc.want, v)
			}
		})
	}
}

// On a kitty terminal the chat sends the image once to the terminal,
// beside the renderer, and the transcript holds the placeholder cells
// that show it (images.go says why); the golden files are the bytes sent
// and the transcript's lines. Any other terminal gets nothing written
// beside the renderer: iTerm2 and sixel a half-block preview, a
// non-terminal the path.
func TestImageAnswerInlineOnKitty(t *testing.T) {
	t.Parallel()
	img := image.NewRGBA(image.Rect(0, 0, 8, 4))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var png8 bytes.Buffer
	png.Encode(&png8, img)
	dir := t.TempDir()
	path := filepath.Join(dir, "fox.png")
	if err := os.WriteFile(path, png8.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		caps       termimg.Caps
		sent       bool
		wantInView string
	}{
		{"kitty", termimg.Caps{Protocol: termimg.Kitty, Placeholders: true, Host: "box"}, true, "\U0010EEEE"},
		{"kitty_tmux", termimg.Caps{Protocol: termimg.Kitty, Placeholders: true, Tmux: true, Host: "box"}, true, "\U0010EEEE"},
		{"kitty protocol without placeholders (WezTerm)", termimg.Caps{Protocol: termimg.Kitty, Host: "box"}, false, "▀▀▀▀"},
		{"iterm2", termimg.Caps{Protocol: termimg.ITerm2, Host: "box"}, false, "▀▀▀▀"},
		{"sixel", termimg.Caps{Protocol: termimg.Sixel, Host: "box"}, false, "▀▀▀▀"},
		{"none", termimg.Caps{Protocol: termimg.None}, false, path},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := agent.Record{Status: "done", Tool: "ImageGeneration", Answer: "Here is your fox.",
				Call: &agent.ToolRun{Tool: "ImageGeneration", Call: `ImageGeneration("a fox")`, Response: "Image saved: " + path + "\n(8x4 PNG, m)"}}
			turn := newFakeTurn([]agent.Event{agent.Done{Record: rec}}, nil)
			var terminal bytes.Buffer
			mod, err := New(context.Background(), Options{Agent: newFakeAgent(t, turn), Renderer: testRenderer(), Now: testNow, Location: time.UTC,
				Images: tc.caps, Graphics: &terminal})
			if err != nil {
				t.Fatal(err)
			}
			mod.pictures.base = 0x0a0b00 // the process's part of the ids, fixed
			mod.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
			m := newHarness(t, mod)
			m.typeText("paint a fox")
			m.drive(press(tea.KeyEnter))
			if !strings.Contains(m.plain(), tc.wantInView) {
				t.Errorf("view lacks %q:\n%s", tc.wantInView, m.plain())
			}
			if got := terminal.Len() > 0; got != tc.sent {
				t.Fatalf("sent to the terminal: %v, want %v (%q)", got, tc.sent, terminal.String())
			}
			if !tc.sent {
				return
			}
			var lines []string
			for _, e := range m.conv.entries {
				lines = append(lines, e.images...)
			}
			out := terminal.String() + "\n---\n" + strings.Join(lines, "\n") + "\n"
			golden.RequireEqual(t, []byte(strings.ReplaceAll(out, dir, "/DIR")))
		})
	}
}
