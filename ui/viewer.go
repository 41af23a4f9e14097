package ui

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/ui/termimg"
)

// The image viewer (ctrl+o). On iTerm2, sixel terminals and WezTerm the
// transcript can only hold a preview (images.go says why), so the key
// hands the terminal over: tea.Exec releases it, imageViewer draws the
// latest image answer full size on a screen of its own, waits for one
// key, and Bubble Tea takes the terminal back and redraws. No process is
// started: imageViewer is a Go tea.ExecCommand.

// Cell size assumed when sizing the image; termimg's sixel encoder
// assumes the same.
const (
	viewerCellWidth  = 10
	viewerCellHeight = 20
)

// imageViewedMsg says the viewer returned, with its error if any.
type imageViewedMsg struct{ err error }

// showImage is ctrl+o: the images of the image answer in view (the
// latest one unless the transcript is scrolled up to another) on a
// terminal that draws them, else a note that this one does not, with the
// path.
func (m *Model) showImage() tea.Cmd {
	paths := m.conv.imagePathsInView(m.paint, m.contentWidth(), m.convHeight())
	if len(paths) == 0 {
		m.flash = "No image answer to show yet."
		return nil
	}
	if !m.images.Graphics() {
		m.flash = "This terminal shows no images; the image is saved at " + cleanLine(paths[len(paths)-1]) + "."
		return nil
	}
	v := &imageViewer{caps: m.images, paths: paths, cols: m.width, rows: m.height}
	return tea.Exec(v, func(err error) tea.Msg { return imageViewedMsg{err: err} })
}

// onImageViewed says why the viewer could not show the image, if it
// could not.
func (m *Model) onImageViewed(msg imageViewedMsg) {
	if msg.err != nil {
		m.flash = "Could not show the image: " + sanitize.Line(msg.err.Error())
	}
}

// imagePathsInView is the files of the image answer the user is looking
// at: when the transcript is scrolled up, the lowest one on screen; else,
// or when none is on screen, the latest.
func (c *conversation) imagePathsInView(p *painter, width, height int) []string {
	if !c.follow {
		var shown []string
		n := -c.skip
		for i := c.top; i < len(c.entries) && n < height; i++ {
			if paths := c.entries[i].imagePaths; len(paths) > 0 {
				shown = paths
			}
			n += len(p.lines(c.entries[i], width))
		}
		if shown != nil {
			return shown
		}
	}
	return c.lastImagePaths()
}

// lastImagePaths is the files of the latest entry that has images.
func (c *conversation) lastImagePaths() []string {
	for i := len(c.entries) - 1; i >= 0; i-- {
		if p := c.entries[i].imagePaths; len(p) > 0 {
			return p
		}
	}
	return nil
}

// errNotTerminal: the viewer never draws into a non-terminal.
var errNotTerminal = errors.New("the output is not a terminal")

// imageViewer is the tea.ExecCommand that draws images full size.
type imageViewer struct {
	caps       termimg.Caps
	paths      []string
	cols, rows int

	stdin          io.Reader
	stdout, stderr io.Writer
}

func (v *imageViewer) SetStdin(r io.Reader)  { v.stdin = r }
func (v *imageViewer) SetStdout(w io.Writer) { v.stdout = w }
func (v *imageViewer) SetStderr(w io.Writer) { v.stderr = w }

// Run draws the images on the alternate screen (the shell's screen under
// it is left as it was), waits for a key and leaves the alternate screen;
// Bubble Tea then enters its own again and redraws.
func (v *imageViewer) Run() error {
	if v.stdout == nil || !isTerminal(v.stdout) {
		return errNotTerminal
	}
	if f, ok := v.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		// Bubble Tea gave the terminal back in its cooked mode: one key,
		// not a line, returns.
		if st, err := term.MakeRaw(int(f.Fd())); err == nil {
			defer term.Restore(int(f.Fd()), st) //nolint:errcheck // nothing to do about it
		}
	}
	var b strings.Builder
	b.WriteString(ansi.SetModeAltScreenSaveCursor + ansi.HideCursor + ansi.EraseEntireScreen + ansi.CursorHomePosition)
	b.WriteString(v.draw())
	b.WriteString("\r\nAny key returns to the chat.")
	if _, err := io.WriteString(v.stdout, b.String()); err != nil {
		return err
	}
	if v.stdin != nil {
		var key [64]byte
		if _, err := v.stdin.Read(key[:]); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
	}
	_, err := io.WriteString(v.stdout, ansi.EraseEntireScreen+ansi.ResetModeAltScreenSaveCursor+ansi.ShowCursor)
	return err
}

// draw is every image, each under the screen's share of rows, in raw
// mode's line endings.
func (v *imageViewer) draw() string {
	rows := max((v.rows-1)/len(v.paths)-1, 1)
	var b strings.Builder
	for _, path := range v.paths {
		out, err := v.one(path, rows)
		if err != nil {
			out += "(" + sanitize.Line(err.Error()) + ")\n"
		}
		b.WriteString(strings.ReplaceAll(out, "\n", "\r\n"))
	}
	return b.String()
}

// one is an image sized to the terminal: as wide as it fits in cols and,
// keeping its aspect, in rows (one of them for the path under it), but
// never wider than its own pixels.
func (v *imageViewer) one(path string, rows int) (string, error) {
	link := termimg.Caps{Protocol: termimg.Link, Host: v.caps.Host}
	fi, err := os.Stat(path)
	if err != nil {
		return termimg.Render(link, nil, path, termimg.Options{})
	}
	if fi.Size() > maxPreviewBytes {
		out, _ := termimg.Render(link, nil, path, termimg.Options{})
		return out, fmt.Errorf("the image is larger than %d MB", maxPreviewBytes>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", path, err)
	}
	cols := max(v.cols-1, 1)
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil && cfg.Width > 0 && cfg.Height > 0 {
		fit := max(rows-1, 1) * viewerCellHeight * cfg.Width / (cfg.Height * viewerCellWidth)
		own := (cfg.Width + viewerCellWidth - 1) / viewerCellWidth
		cols = max(min(cols, fit, own), 1)
	}
	return termimg.Render(v.caps, data, path, termimg.Options{Cols: cols, CellWidth: viewerCellWidth, CellHeight: viewerCellHeight})
}

// isTerminal is false for a file that is not a terminal. Bubble Tea's
// output is the terminal itself or, in tests, a buffer.
func isTerminal(w io.Writer) bool {
	if f, ok := w.(*os.File); ok {
		return term.IsTerminal(int(f.Fd()))
	}
	return true
}
