// Package termimg draws an image inline in a terminal that can: the kitty
// graphics protocol (kitty, ghostty, WezTerm), iTerm2's inline images
// (iTerm2), sixel (xterm built with it, foot, mlterm, Windows Terminal),
// inside tmux through its passthrough where allowed; otherwise a
// half-block preview in true colour, or the saved path as an OSC 8 link.
// What the terminal can do is decided once, before Bubble Tea takes the
// terminal (Detect), and nothing is ever drawn into a non-terminal.
package termimg

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color/palette"
	"image/draw"
	"image/png"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/iterm2"
	xdraw "golang.org/x/image/draw"

	_ "golang.org/x/image/webp"
	_ "image/gif"  // decoders for the images gear saves
	_ "image/jpeg" // decoders for the images gear saves
)

// Protocol is how a terminal shows an image.
type Protocol string

const (
	// None: not a terminal; only the path is written, with no escapes.
	None Protocol = "none"
	// Link: a terminal without graphics or true colour: the path as an
	// OSC 8 hyperlink.
	Link Protocol = "link"
	// HalfBlock: a preview of coloured "▀" cells in true colour.
	HalfBlock Protocol = "halfblock"
	Kitty     Protocol = "kitty"
	ITerm2    Protocol = "iterm2"
	Sixel     Protocol = "sixel"
)

// Caps is what Detect found.
type Caps struct {
	Protocol Protocol
	// Tmux: the terminal is tmux; graphics go through its passthrough
	// (set -g allow-passthrough on).
	Tmux bool
	// Placeholders: the terminal draws the kitty protocol's Unicode
	// placeholders (kitty, ghostty; not WezTerm, nor a terminal found by
	// the query alone), which an application that redraws its lines
	// needs (Place).
	Placeholders bool
	// Host names file:// links.
	Host string
	// By says how the protocol was found ("KITTY_WINDOW_ID", "query",
	// "default"), for `gear doctor`-like messages and tests.
	By string
}

// Graphics reports whether the terminal draws real pixels.
func (c Caps) Graphics() bool {
	return c.Protocol == Kitty || c.Protocol == ITerm2 || c.Protocol == Sixel
}

// Options size the drawing.
type Options struct {
	// Cols is the most terminal columns the image may take (0: 40).
	Cols int
	// CellWidth and CellHeight are a cell's size in pixels (0: 10×20),
	// for sixel, which draws in pixels.
	CellWidth, CellHeight int
}

func (o Options) withDefaults() Options {
	if o.Cols <= 0 {
		o.Cols = 40
	}
	if o.CellWidth <= 0 {
		o.CellWidth = 10
	}
	if o.CellHeight <= 0 {
		o.CellHeight = 20
	}
	return o
}

// MaxPixels bounds an image's width × height before it is decoded.
const MaxPixels = 64 << 20

// Render returns what to write to the terminal to show the image file
// data saved at path: the drawing followed by a newline and the path
// (as a link where the terminal has them). An image that cannot be
// decoded shows as its path alone, with the reason.
func Render(c Caps, data []byte, path string, o Options) (string, error) {
	o = o.withDefaults()
	link := pathLink(c, path)
	if c.Protocol == None {
		return path + "\n", nil
	}
	if c.Protocol == Link {
		return link + "\n", nil
	}
	var seq string
	var err error
	switch c.Protocol {
	case Kitty:
		seq, err = kitty(data, o)
	case ITerm2:
		seq = iterm(data, path, o)
	case Sixel:
		seq, err = sixelImage(data, o)
	case HalfBlock:
		seq, err = halfBlock(data, o)
	default:
		return link + "\n", fmt.Errorf("termimg: unknown protocol %q", c.Protocol)
	}
	if err != nil {
		return link + "\n", err
	}
	if c.Tmux && c.Graphics() {
		seq = ansi.TmuxPassthrough(seq)
	}
	return seq + "\n" + link + "\n", nil
}

// pathLink is path as an OSC 8 link to its file:// URL.
func pathLink(c Caps, path string) string {
	if c.Protocol == None {
		return path
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	u := url.URL{Scheme: "file", Host: c.Host, Path: filepath.ToSlash(abs)}
	return ansi.SetHyperlink(u.String()) + path + ansi.ResetHyperlink()
}

// decode reads an image, refusing one whose header claims a canvas
// too large to decode.
func decode(data []byte) (image.Image, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("termimg: not an image gear can draw: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return nil, fmt.Errorf("termimg: an image of %dx%d pixels is too large to draw", cfg.Width, cfg.Height)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("termimg: not an image gear can draw: %w", err)
	}
	return img, nil
}

// fit scales img to at most w×h pixels, keeping its aspect ratio; it
// never enlarges.
func fit(img image.Image, w, h int) image.Image {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	scale := min(float64(w)/float64(sw), float64(h)/float64(sh), 1)
	dw, dh := max(1, int(float64(sw)*scale)), max(1, int(float64(sh)*scale))
	if dw == sw && dh == sh {
		return img
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, xdraw.Over, nil)
	return dst
}

// kittyChunk is the kitty protocol's largest payload per escape.
const kittyChunk = 4096

// kitty transmits the image as PNG (f=100), placed at the cursor over
// o.Cols columns, with q=2 so the terminal sends no answer that Bubble
// Tea would read as keys.
func kitty(data []byte, o Options) (string, error) {
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		img, err := decode(data)
		if err != nil {
			return "", err
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return "", err
		}
		data = buf.Bytes()
	} else if _, err := decode(data); err != nil {
		return "", err
	}
	enc := base64.StdEncoding.EncodeToString(data)
	var b strings.Builder
	for i := 0; i < len(enc); i += kittyChunk {
		end := min(i+kittyChunk, len(enc))
		more := "m=1"
		if end == len(enc) {
			more = "m=0"
		}
		opts := []string{more}
		if i == 0 {
			opts = []string{"a=T", "f=100", "q=2", "c=" + strconv.Itoa(o.Cols), more}
		}
		b.WriteString(ansi.KittyGraphics([]byte(enc[i:end]), opts...))
	}
	return b.String(), nil
}

// iterm sends the file as it is; the terminal decodes and scales it.
func iterm(data []byte, path string, o Options) string {
	return ansi.ITerm2(iterm2.File{
		Name:    base64.StdEncoding.EncodeToString([]byte(filepath.Base(path))),
		Size:    int64(len(data)),
		Width:   iterm2.Cells(o.Cols),
		Inline:  true,
		Content: []byte(base64.StdEncoding.EncodeToString(data)),
	})
}

// sixelImage draws the image scaled to o.Cols columns (and as many rows
// as wide), dithered to the 216 web-safe colours: a fixed palette keeps
// the output the same from run to run, and every sixel terminal has at
// least 256 registers.
func sixelImage(data []byte, o Options) (string, error) {
	img, err := decode(data)
	if err != nil {
		return "", err
	}
	img = fit(img, o.Cols*o.CellWidth, o.Cols*o.CellWidth)
	b := img.Bounds()
	pal := image.NewPaletted(image.Rect(0, 0, b.Dx(), b.Dy()), palette.WebSafe)
	draw.FloydSteinberg.Draw(pal, pal.Bounds(), img, b.Min)
	return ansi.SixelGraphics(0, 1, 0, encodeSixel(pal)), nil
}

// encodeSixel writes the raster attributes, the colours used, and then
// each band of six rows colour by colour, runs of one sixel compressed
// with "!n".
func encodeSixel(p *image.Paletted) []byte {
	w, h := p.Rect.Dx(), p.Rect.Dy()
	var out bytes.Buffer
	fmt.Fprintf(&out, "\"1;1;%d;%d", w, h)
	used := make([]bool, len(p.Palette))
	for _, ix := range p.Pix {
		used[ix] = true
	}
	for i, c := range p.Palette {
		if used[i] {
			r, g, bl, _ := c.RGBA()
			fmt.Fprintf(&out, "#%d;2;%d;%d;%d", i, r*100/0xffff, g*100/0xffff, bl*100/0xffff)
		}
	}
	row := make([]byte, w)
	for y0 := 0; y0 < h; y0 += 6 {
		first := true
		for ci := range p.Palette {
			any := false
			for x := 0; x < w; x++ {
				var bits byte
				for dy := 0; dy < 6 && y0+dy < h; dy++ {
					if int(p.Pix[(y0+dy)*p.Stride+x]) == ci {
						bits |= 1 << dy
					}
				}
				row[x] = 63 + bits
				any = any || bits != 0
			}
			if !any {
				continue
			}
			if !first {
				out.WriteByte('$')
			}
			first = false
			fmt.Fprintf(&out, "#%d", ci)
			for x := 0; x < w; {
				n := 1
				for x+n < w && row[x+n] == row[x] {
					n++
				}
				if n > 3 {
					fmt.Fprintf(&out, "!%d%c", n, row[x])
				} else {
					out.Write(bytes.Repeat([]byte{row[x]}, n))
				}
				x += n
			}
		}
		out.WriteByte('-')
	}
	return out.Bytes()
}
