package ui

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/ui/termimg"
)

// How an image answer is drawn in the chat window.
//
// Bubble Tea v1's renderer owns the alternate screen: every frame it
// rewrites the lines that changed (erasing each to its end) and tea.Println
// prints nothing while the alternate screen is on. Pixels drawn at the
// cursor — iTerm2's inline images, sixel, a kitty placement — live outside
// the lines the renderer knows, so its next frame, a scroll of the
// transcript or a resize erases or tears them. The kitty protocol's
// Unicode placeholders avoid that: the image is sent to the terminal once
// (beside the renderer, to the same terminal, in one write — os.File
// writes never interleave) with a virtual placement, and the transcript
// holds ordinary text cells that show it (termimg.Place). The renderer
// redraws those cells like any text, so the image scrolls with the
// transcript, survives resizes and works inside tmux. iTerm2 and sixel
// have no such cells: there the chat shows a half-block preview with the
// saved path as a link, gear ask --show draws the real image, and the
// chat's ctrl+o (viewer.go) draws it full size on a screen of its own.

// previewCols is the width of an image in the transcript, and
// previewRows its most rows.
const (
	previewCols = 32
	previewRows = 16
)

// maxPreviewBytes bounds an image file read for a preview.
const maxPreviewBytes = 64 << 20

// pictures draws the images of image answers: how the terminal shows
// them, where the kitty protocol's data goes, and the next image id.
type pictures struct {
	caps termimg.Caps
	// out is the terminal, when Detect found the kitty protocol with
	// Unicode placeholders on it; nil otherwise (then nothing is written
	// but the transcript).
	out io.Writer
	// next numbers the images sent to the terminal; shared by the
	// commands that send them, which run concurrently.
	next *atomic.Uint32
	base uint32
	// hint, under a preview on a terminal that draws images, says which
	// key shows the real image (viewer.go).
	hint string
}

func newPictures(caps termimg.Caps, out io.Writer) pictures {
	p := pictures{caps: caps, next: &atomic.Uint32{}}
	if caps.Protocol == termimg.Kitty && caps.Placeholders && out != nil {
		p.out = out
		// Ids of this process's images: another program's (or an earlier
		// gear's) images on the same terminal keep theirs.
		p.base = uint32(os.Getpid()%0xfff) << 12
	}
	return p
}

// imagesLoadedMsg carries the lines that show the images a turn's tool
// saved, made in pictures.load.
type imagesLoadedMsg struct {
	e     *entry
	lines []string
	paths []string
	hint  string
}

// load reads the files a finished turn's tool saved (an image answer) and
// renders them for the transcript: through kitty placeholders, as a
// half-block preview on a terminal that shows colour, else as the path (a
// link where the terminal has them).
func (p pictures) load(e *entry, rec agent.Record) tea.Cmd {
	if rec.Call == nil || rec.Call.Error != "" {
		return nil
	}
	paths := tools.SavedFiles(rec.Call.Response)
	if len(paths) == 0 {
		return nil
	}
	return func() tea.Msg {
		var lines []string
		for _, path := range paths {
			out, err := p.render(path)
			if err != nil {
				lines = append(lines, "("+sanitize.Line(err.Error())+")")
			}
			lines = append(lines, strings.Split(strings.TrimRight(out, "\n"), "\n")...)
		}
		msg := imagesLoadedMsg{e: e, lines: lines, paths: paths}
		if p.caps.Graphics() && p.out == nil {
			// Only a preview fits in the transcript here; the viewer draws
			// the real image.
			msg.hint = p.hint
		}
		return msg
	}
}

// render is the transcript's lines for one saved image; with the kitty
// protocol it sends the image to the terminal first.
func (p pictures) render(path string) (string, error) {
	link := termimg.Caps{Protocol: termimg.Link, Host: p.caps.Host}
	if p.caps.Protocol == termimg.None || p.caps.Protocol == termimg.Link {
		return termimg.Render(p.caps, nil, path, termimg.Options{})
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() > maxPreviewBytes {
		return termimg.Render(link, nil, path, termimg.Options{})
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", path, err)
	}
	if p.out != nil {
		id := p.base + (p.next.Add(1)-1)%0xfff + 1
		placed, err := termimg.Place(p.caps, data, id, termimg.Options{Cols: previewCols}, previewRows)
		if err == nil {
			if _, err = io.WriteString(p.out, placed.Transmit); err == nil {
				path, _ := termimg.Render(link, nil, path, termimg.Options{})
				return strings.Join(placed.Lines, "\n") + "\n" + path, nil
			}
		}
		// An image the terminal cannot take shows as the preview does.
	}
	preview := p.caps
	if preview.Graphics() {
		preview.Protocol = termimg.HalfBlock
	}
	return termimg.Render(preview, data, path, termimg.Options{Cols: previewCols})
}

// onImagesLoaded puts the images under their turn.
func (m *Model) onImagesLoaded(msg imagesLoadedMsg) {
	msg.e.images = msg.lines
	msg.e.imagePaths = msg.paths
	msg.e.imageHint = msg.hint
	msg.e.invalidate()
}
