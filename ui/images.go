package ui

import (
	"fmt"
	"os"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/ui/termimg"
)

// previewCols is the width of an image's preview in the transcript.
const previewCols = 32

// maxPreviewBytes bounds an image file read for a preview.
const maxPreviewBytes = 64 << 20

// imagesLoadedMsg carries the preview of the images a turn's tool saved,
// made in loadImagesCmd.
type imagesLoadedMsg struct {
	e     *entry
	lines []string
}

// loadImagesCmd reads the files a finished turn's tool saved (an image
// answer) and renders them for the transcript: a half-block preview on a
// terminal that shows colour images, else the path as a link (or plain).
// The pixel protocols (kitty, iTerm2, sixel) draw outside Bubble Tea's
// renderer, which would redraw over them, so the chat shows the preview
// with a link to the file; gear ask --show draws the real image.
func loadImagesCmd(caps termimg.Caps, e *entry, rec agent.Record) tea.Cmd {
	if rec.Call == nil || rec.Call.Error != "" {
		return nil
	}
	paths := tools.SavedFiles(rec.Call.Response)
	if len(paths) == 0 {
		return nil
	}
	preview := caps
	if caps.Graphics() {
		preview.Protocol = termimg.HalfBlock
	}
	return func() tea.Msg {
		var lines []string
		for _, p := range paths {
			out, err := renderFile(preview, p)
			if err != nil {
				lines = append(lines, "("+sanitize.Line(err.Error())+")")
			}
			lines = append(lines, strings.Split(strings.TrimRight(out, "\n"), "\n")...)
		}
		return imagesLoadedMsg{e: e, lines: lines}
	}
}

func renderFile(caps termimg.Caps, path string) (string, error) {
	if caps.Protocol == termimg.None || caps.Protocol == termimg.Link {
		return termimg.Render(caps, nil, path, termimg.Options{})
	}
	fi, err := os.Stat(path)
	if err != nil {
		return termimg.Render(termimg.Caps{Protocol: termimg.Link, Host: caps.Host}, nil, path, termimg.Options{})
	}
	if fi.Size() > maxPreviewBytes {
		return termimg.Render(termimg.Caps{Protocol: termimg.Link, Host: caps.Host}, nil, path, termimg.Options{})
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", path, err)
	}
	return termimg.Render(caps, data, path, termimg.Options{Cols: previewCols})
}

// onImagesLoaded puts a preview under its turn.
func (m *Model) onImagesLoaded(msg imagesLoadedMsg) {
	msg.e.images = msg.lines
	msg.e.invalidate()
}
