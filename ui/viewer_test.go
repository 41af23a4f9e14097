package ui

import (
	"context"
	"fmt"
	"io"
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

// countingReader is a fake stdin that holds one key and counts reads.
type countingReader struct {
	key   string
	reads int
}

func (r *countingReader) Read(p []byte) (int, error) {
	r.reads++
	if r.key == "" {
		return 0, io.EOF
	}
	n := copy(p, r.key)
	r.key = r.key[n:]
	return n, nil
}

// The viewer draws a real PNG full size on its own screen with the
// terminal's protocol, waits for one key and gives the screen back; the
// golden files are the bytes written.
func TestImageViewerGolden(t *testing.T) {
	t.Parallel()
	path, err := filepath.Abs(filepath.Join("testdata", "dalle2-24x16.png"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		caps termimg.Caps
	}{
		{"iterm2", termimg.Caps{Protocol: termimg.ITerm2, Host: "box"}},
		{"sixel", termimg.Caps{Protocol: termimg.Sixel, Host: "box"}},
		{"sixel_tmux", termimg.Caps{Protocol: termimg.Sixel, Tmux: true, Host: "box"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := &countingReader{key: "q"}
			var out strings.Builder
			v := &imageViewer{caps: tc.caps, paths: []string{path}, cols: 80, rows: 24}
			v.SetStdin(in)
			v.SetStdout(&out)
			v.SetStderr(io.Discard)
			if err := v.Run(); err != nil {
				t.Fatal(err)
			}
			if in.reads != 1 {
				t.Errorf("read stdin %d times, want once (one key)", in.reads)
			}
			got := out.String()
			if !strings.HasSuffix(got, "\x1b[?1049l\x1b[?25h") {
				t.Errorf("the viewer does not leave its screen at the end: %q", got[max(len(got)-40, 0):])
			}
			golden.RequireEqual(t, []byte(strings.ReplaceAll(got, filepath.Dir(path), "/DIR")))
		})
	}
}

// The image is as wide as the terminal allows, keeping its aspect within
// the rows, and never wider than its own pixels.
func TestImageViewerSizesToTerminal(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "dalle2-24x16.png") // 24×16 px: 3 cells wide at most
	for _, tc := range []struct {
		name       string
		cols, rows int
		want       string
	}{
		{"own size on a big screen", 200, 60, "width=3;"},
		{"narrow screen", 2, 60, "width=1;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v := &imageViewer{caps: termimg.Caps{Protocol: termimg.ITerm2}, paths: []string{path}, cols: tc.cols, rows: tc.rows}
			out, err := v.one(path, tc.rows)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("want %q in %q", tc.want, out[:min(len(out), 120)])
			}
		})
	}
}

// A missing file is said, never drawn; a non-terminal output is refused
// before anything is written.
func TestImageViewerRefuses(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	v := &imageViewer{caps: termimg.Caps{Protocol: termimg.Sixel}, paths: []string{filepath.Join(t.TempDir(), "gone.png")}, cols: 80, rows: 24}
	v.SetStdin(&countingReader{key: "x"})
	v.SetStdout(&out)
	if err := v.Run(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "gone.png") || strings.Contains(out.String(), "\x1bP") {
		t.Errorf("a missing image should show its path and no sixel: %q", out.String())
	}

	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v = &imageViewer{caps: termimg.Caps{Protocol: termimg.Sixel}, paths: []string{"testdata/dalle2-24x16.png"}, cols: 80, rows: 24}
	v.SetStdin(&countingReader{key: "x"})
	v.SetStdout(f)
	if err := v.Run(); err != errNotTerminal {
		t.Fatalf("Run to a file = %v, want errNotTerminal", err)
	}
	if fi, _ := f.Stat(); fi.Size() != 0 {
		t.Errorf("wrote %d bytes to a non-terminal", fi.Size())
	}
}

// ctrl+o: on a terminal that draws images the preview says so and the
// key hands the terminal to the viewer; elsewhere the key only says,
// on the status line, that the terminal shows no images and where the
// image is.
func TestImageKey(t *testing.T) {
	t.Parallel()
	path, err := filepath.Abs(filepath.Join("testdata", "dalle2-24x16.png"))
	if err != nil {
		t.Fatal(err)
	}
	ctrlO := tea.KeyMsg{Type: tea.KeyCtrlO}
	for _, tc := range []struct {
		name     string
		caps     termimg.Caps
		exec     bool
		wantView string
	}{
		{"iterm2", termimg.Caps{Protocol: termimg.ITerm2}, true, "ctrl+o shows the image"},
		{"sixel", termimg.Caps{Protocol: termimg.Sixel}, true, "ctrl+o shows the image"},
		{"kitty protocol without placeholders (WezTerm)", termimg.Caps{Protocol: termimg.Kitty}, true, "ctrl+o shows the image"},
		{"no graphics", termimg.Caps{Protocol: termimg.HalfBlock}, false, "This terminal shows no images"},
		{"not a terminal", termimg.Caps{Protocol: termimg.None}, false, "This terminal shows no images"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := agent.Record{Status: "done", Tool: "ImageGeneration", Answer: "Here it is.",
				Call: &agent.ToolRun{Tool: "ImageGeneration", Call: `ImageGeneration("a fox")`, Response: "Image saved: " + path + "\n(24x16 PNG, m)"}}
			turn := newFakeTurn([]agent.Event{agent.Done{Record: rec}}, nil)
			mod, err := New(context.Background(), Options{Agent: newFakeAgent(t, turn), Renderer: testRenderer(), Now: testNow, Location: time.UTC, Images: tc.caps})
			if err != nil {
				t.Fatal(err)
			}
			mod.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
			m := newHarness(t, mod)

			if _, cmd := m.Update(ctrlO); cmd != nil {
				t.Fatal("ctrl+o before any image answer returned a command")
			}
			if !strings.Contains(m.plain(), "No image answer") {
				t.Errorf("ctrl+o before any image answer does not say so:\n%s", m.plain())
			}

			m.typeText("paint a fox")
			m.drive(press(tea.KeyEnter))
			if hint := strings.Contains(m.plain(), "ctrl+o shows the image"); hint != tc.exec {
				t.Errorf("hint under the preview: %v, want %v:\n%s", hint, tc.exec, m.plain())
			}
			_, cmd := m.Update(ctrlO)
			if tc.exec {
				if cmd == nil {
					t.Fatal("ctrl+o returned no command")
				}
				if got := fmt.Sprintf("%T", cmd()); got != "tea.execMsg" {
					t.Fatalf("ctrl+o's command gives %s, want tea.Exec's message", got)
				}
				// The viewer's failure reaches the status line.
				m.Update(imageViewedMsg{err: errNotTerminal})
				if !strings.Contains(m.plain(), "Could not show the image: the output is not a terminal") {
					t.Errorf("the viewer's error is not shown:\n%s", m.plain())
				}
				return
			}
			if cmd != nil {
				t.Fatalf("ctrl+o without graphics returned a command (%T)", cmd())
			}
			if v := m.plain(); !strings.Contains(v, tc.wantView) || !strings.Contains(strings.Join(strings.Fields(v), ""), "dalle2-24x16.png") {
				t.Errorf("the status line lacks %q and the path:\n%s", tc.wantView, v)
			}
		})
	}
}

// ctrl+o shows the image answer in view: the latest, or, with the
// transcript scrolled up to an earlier one, that one.
func TestImageKeyPicksTheAnswerInView(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", "dalle2-24x16.png"))
	if err != nil {
		t.Fatal(err)
	}
	first, second := filepath.Join(dir, "first.png"), filepath.Join(dir, "second.png")
	for _, p := range []string{first, second} {
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	imageTurn := func(path, answer string) *fakeTurn {
		rec := agent.Record{Status: "done", Tool: "ImageGeneration", Answer: answer,
			Call: &agent.ToolRun{Tool: "ImageGeneration", Call: `ImageGeneration("a fox")`, Response: "Image saved: " + path + "\n(24x16 PNG, m)"}}
		return newFakeTurn([]agent.Event{agent.Done{Record: rec}}, nil)
	}
	long := strings.Repeat("A long caption line.\n\n", 30)
	mod, err := New(context.Background(), Options{Agent: newFakeAgent(t, imageTurn(first, "The first."), imageTurn(second, long)),
		Renderer: testRenderer(), Now: testNow, Location: time.UTC, Images: termimg.Caps{Protocol: termimg.Sixel}})
	if err != nil {
		t.Fatal(err)
	}
	mod.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m := newHarness(t, mod)
	for _, q := range []string{"paint a fox", "paint another"} {
		m.typeText(q)
		m.drive(press(tea.KeyEnter))
	}
	inView := func() []string { return m.conv.imagePathsInView(m.paint, m.contentWidth(), m.convHeight()) }
	if got := inView(); len(got) != 1 || got[0] != second {
		t.Fatalf("at the bottom ctrl+o shows %v, want the latest (%s)", got, second)
	}
	for range 10 {
		m.Update(press(tea.KeyPgUp))
	}
	if !strings.Contains(m.plain(), "The first.") {
		t.Fatalf("scrolling up does not reach the first answer:\n%s", m.plain())
	}
	if got := inView(); len(got) != 1 || got[0] != first {
		t.Errorf("scrolled up to the first answer, ctrl+o shows %v, want %s", got, first)
	}
}
