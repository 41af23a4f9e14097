package termimg

import (
	"image"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// The kitty transmission and the placeholder cells of a small image, with
// and without tmux.
func TestPlaceGolden(t *testing.T) {
	t.Parallel()
	data := small(t)
	for _, tc := range []struct {
		name string
		caps Caps
	}{
		{"kitty", Caps{Protocol: Kitty}},
		{"kitty_tmux", Caps{Protocol: Kitty, Tmux: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Place(tc.caps, data, 0x0a0b0c, Options{Cols: 4}, 8)
			if err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, []byte(p.Transmit+"\n"+strings.Join(p.Lines, "\n")+"\n"))
		})
	}
}

// The cells are text one column each, whatever measures them (lipgloss
// and Bubble Tea's renderer use ansi.StringWidth), and they carry the
// image's id as their colour and each cell's row and column.
func TestPlaceholderCells(t *testing.T) {
	t.Parallel()
	p, err := Place(Caps{Protocol: Kitty}, small(t), 0x010203, Options{Cols: 6}, 8)
	if err != nil {
		t.Fatal(err)
	}
	if p.Cols != 6 || p.Rows != 3 || len(p.Lines) != 3 {
		t.Fatalf("%d×%d, %d lines; want a 4×4 image in 6 columns of 10×20 cells: 6×3", p.Cols, p.Rows, len(p.Lines))
	}
	for _, l := range p.Lines {
		if w := ansi.StringWidth(l); w != 6 {
			t.Errorf("line width %d, want 6", w)
		}
		if !strings.HasPrefix(l, "\x1b[38;2;1;2;3m") {
			t.Errorf("line %q does not carry id 0x010203", l)
		}
	}
	if !strings.Contains(p.Transmit, "a=T,U=1,f=100,q=2,i=66051,c=6,r=3") {
		t.Errorf("transmit %.80q", p.Transmit)
	}
	if _, err := Place(Caps{Protocol: Kitty}, small(t), 0, Options{}, 8); err == nil {
		t.Error("id 0 taken")
	}
	if _, err := Place(Caps{Protocol: Kitty}, []byte("not an image"), 1, Options{}, 8); err == nil {
		t.Error("not an image placed")
	}
}

func TestCellsForKeepsTheAspect(t *testing.T) {
	t.Parallel()
	o := Options{Cols: 32}.withDefaults()
	for _, tc := range []struct {
		w, h, maxRows, cols, rows int
	}{
		{1024, 1024, 16, 32, 16},
		{1024, 512, 16, 32, 8},
		{512, 1024, 16, 16, 16},
		{4000, 10, 16, 32, 1},
	} {
		c, r := cellsFor(image.Rect(0, 0, tc.w, tc.h), o, tc.maxRows)
		if c != tc.cols || r != tc.rows {
			t.Errorf("%dx%d: %d×%d cells, want %d×%d", tc.w, tc.h, c, r, tc.cols, tc.rows)
		}
	}
}
