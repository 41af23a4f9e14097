package termimg

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	kittyproto "github.com/charmbracelet/x/ansi/kitty"
)

// Placed is an image shown through the kitty protocol's Unicode
// placeholders (https://sw.kovidgoyal.net/kitty/graphics-protocol/#unicode-placeholders):
// Transmit sends the image once, under its id, with a virtual placement
// of Cols×Rows cells; Lines are the placeholder cells that show it, one
// string a row. The cells are ordinary text — a private-use character
// whose foreground colour is the image's id and whose combining marks are
// the cell's row and column — so a program that redraws its lines (Bubble
// Tea's renderer, a scrolled viewport, tmux) redraws the image with them,
// and a terminal without the protocol shows blank-looking characters, not
// garbage.
type Placed struct {
	Transmit   string
	Lines      []string
	Cols, Rows int
}

// MaxImageID is the largest id Place takes: the 24 bits a true-colour
// foreground carries.
const MaxImageID = 1<<24 - 1

// Place prepares the image file data for placeholders: at most o.Cols
// columns and maxRows rows, its aspect kept with o's cell size. id must
// be in [1, MaxImageID] and unique among the images the terminal shows.
// Inside tmux the transmission goes through its passthrough; the cells
// need none.
func Place(c Caps, data []byte, id uint32, o Options, maxRows int) (Placed, error) {
	o = o.withDefaults()
	if id == 0 || id > MaxImageID {
		return Placed{}, fmt.Errorf("termimg: image id %d out of range", id)
	}
	img, err := decode(data)
	if err != nil {
		return Placed{}, err
	}
	cols, rows := cellsFor(img.Bounds(), o, maxRows)
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return Placed{}, err
		}
		data = buf.Bytes()
	}
	enc := base64.StdEncoding.EncodeToString(data)
	var t strings.Builder
	for i := 0; i < len(enc); i += kittyChunk {
		end := min(i+kittyChunk, len(enc))
		more := "m=1"
		if end == len(enc) {
			more = "m=0"
		}
		opts := []string{more}
		if i == 0 {
			// a=T with U=1: transmit and make the virtual placement the
			// placeholders show; q=2: no answer, which Bubble Tea would
			// read as keys.
			opts = []string{"a=T", "U=1", "f=100", "q=2", "i=" + strconv.FormatUint(uint64(id), 10),
				"c=" + strconv.Itoa(cols), "r=" + strconv.Itoa(rows), more}
		}
		t.WriteString(ansi.KittyGraphics([]byte(enc[i:end]), opts...))
	}
	transmit := t.String()
	if c.Tmux {
		transmit = ansi.TmuxPassthrough(transmit)
	}
	fg := fmt.Sprintf("\x1b[38;2;%d;%d;%dm", id>>16&0xff, id>>8&0xff, id&0xff)
	lines := make([]string, rows)
	for r := range rows {
		var b strings.Builder
		b.WriteString(fg)
		for col := range cols {
			b.WriteRune(kittyproto.Placeholder)
			b.WriteRune(kittyproto.Diacritic(r))
			b.WriteRune(kittyproto.Diacritic(col))
		}
		b.WriteString("\x1b[39m")
		lines[r] = b.String()
	}
	return Placed{Transmit: transmit, Lines: lines, Cols: cols, Rows: rows}, nil
}

// cellsFor is the cells an image of bounds b takes: o.Cols wide, as many
// rows as its aspect asks, both scaled down to fit maxRows.
func cellsFor(b image.Rectangle, o Options, maxRows int) (cols, rows int) {
	w, h := float64(b.Dx()), float64(b.Dy())
	cols = o.Cols
	rows = int(math.Round(float64(cols) * float64(o.CellWidth) * h / (w * float64(o.CellHeight))))
	if maxRows > 0 && rows > maxRows {
		rows = maxRows
		cols = int(math.Round(float64(rows) * float64(o.CellHeight) * w / (h * float64(o.CellWidth))))
	}
	return max(1, min(cols, o.Cols)), max(1, rows)
}
