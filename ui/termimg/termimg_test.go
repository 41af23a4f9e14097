package termimg

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi/sixel"
	"github.com/charmbracelet/x/exp/golden"
)

// small is a 4×4 PNG: red, green, blue and white quarters.
func small(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for y := 0; y < 4; y++ {
		for x := 0; x < 4; x++ {
			c := []color.RGBA{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}}[y/2*2+x/2]
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRenderGolden(t *testing.T) {
	t.Parallel()
	data := small(t)
	for _, tc := range []struct {
		name string
		caps Caps
	}{
		{"kitty", Caps{Protocol: Kitty, Host: "box"}},
		{"kitty_tmux", Caps{Protocol: Kitty, Tmux: true, Host: "box"}},
		{"iterm2", Caps{Protocol: ITerm2, Host: "box"}},
		{"sixel", Caps{Protocol: Sixel, Host: "box"}},
		{"halfblock", Caps{Protocol: HalfBlock, Host: "box"}},
		{"link", Caps{Protocol: Link, Host: "box"}},
		{"none", Caps{Protocol: None}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Render(tc.caps, data, "/data/images/fox.png", Options{Cols: 4})
			if err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}

func TestNoneWritesNoEscapes(t *testing.T) {
	t.Parallel()
	out, _ := Render(Caps{Protocol: None}, small(t), "/x/fox.png", Options{})
	if out != "/x/fox.png\n" || strings.ContainsRune(out, 0x1b) {
		t.Errorf("%q", out)
	}
}

func TestKittyReEncodesOtherFormatsAsPNG(t *testing.T) {
	t.Parallel()
	img, _ := png.Decode(bytes.NewReader(small(t)))
	var jp bytes.Buffer
	if err := jpeg.Encode(&jp, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	out, err := Render(Caps{Protocol: Kitty}, jp.Bytes(), "a.jpg", Options{Cols: 4})
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(out, ";") + 1
	end := strings.Index(out, "\x1b\\")
	raw, err := base64.StdEncoding.DecodeString(out[start:end])
	if err != nil {
		t.Fatal(err)
	}
	back, err := png.Decode(bytes.NewReader(raw))
	if err != nil || back.Bounds().Dx() != 4 {
		t.Fatalf("kitty payload is not the image as PNG: %v", err)
	}
}

func TestKittyChunksLargeImages(t *testing.T) {
	t.Parallel()
	img := image.NewRGBA(image.Rect(0, 0, 128, 128))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(r.UintN(256))
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	out, err := Render(Caps{Protocol: Kitty}, buf.Bytes(), "a.png", Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(out, "\x1b_G")
	if n < 3 || !strings.HasPrefix(out, "\x1b_Ga=T,f=100,q=2,c=40,m=1;") || strings.Count(out, "m=0") != 1 {
		t.Errorf("%d chunks, starts %q", n, out[:40])
	}
}

func TestHostileImages(t *testing.T) {
	t.Parallel()
	// Not an image: the path is shown, with the reason.
	out, err := Render(Caps{Protocol: Sixel}, []byte("<html>nope</html>"), "/x/a.png", Options{})
	if err == nil || !strings.Contains(out, "/x/a.png") || strings.Contains(out, "\x1bP") {
		t.Errorf("%q %v", out, err)
	}
	// A PNG header claiming 100000×100000 pixels is not decoded.
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1)))
	b := buf.Bytes()
	copy(b[16:24], []byte{0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0})
	binary.BigEndian.PutUint32(b[29:33], crc32.ChecksumIEEE(b[12:29]))
	if _, err := Render(Caps{Protocol: HalfBlock}, b, "/x/a.png", Options{}); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("huge canvas: %v", err)
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	answer := func(a string) func(context.Context, string, time.Duration) (string, error) {
		return func(_ context.Context, q string, _ time.Duration) (string, error) {
			if !strings.HasSuffix(q, "\x1b[c") {
				t.Errorf("query %q", q)
			}
			return a, nil
		}
	}
	noQuery := func(context.Context, string, time.Duration) (string, error) {
		t.Error("queried although a hint named the terminal")
		return "", nil
	}
	for _, tc := range []struct {
		name     string
		env      Env
		want     Protocol
		wantTmux bool
	}{
		{"not a terminal never draws", Env{Getenv: env("KITTY_WINDOW_ID", "1")}, None, false},
		{"kitty", Env{Terminal: true, Getenv: env("KITTY_WINDOW_ID", "1"), Query: noQuery}, Kitty, false},
		{"ghostty", Env{Terminal: true, Getenv: env("TERM_PROGRAM", "ghostty"), Query: noQuery}, Kitty, false},
		{"wezterm", Env{Terminal: true, Getenv: env("TERM_PROGRAM", "WezTerm"), Query: noQuery}, Kitty, false},
		{"iterm2 in tmux", Env{Terminal: true, Getenv: env("LC_TERMINAL", "iTerm2", "TMUX", "/tmp/tmux-0/default,1,0", "TERM_PROGRAM", "tmux"), Query: noQuery}, ITerm2, true},
		{"windows terminal", Env{Terminal: true, Getenv: env("WT_SESSION", "x"), Query: noQuery}, Sixel, false},
		{"foot", Env{Terminal: true, Getenv: env("TERM", "foot"), Query: noQuery}, Sixel, false},
		{"xterm with sixel answers DA1 with 4", Env{Terminal: true, Getenv: env("TERM", "xterm-256color"), Query: answer("\x1b[?63;1;2;4;6;9;15;22c")}, Sixel, false},
		{"a kitty-protocol terminal answers the graphics query", Env{Terminal: true, Getenv: env("TERM", "xterm-256color"), Query: answer("\x1b_Gi=31;OK\x1b\\\x1b[?62;22c")}, Kitty, false},
		{"xterm without sixel, true colour", Env{Terminal: true, Getenv: env("TERM", "xterm-256color", "COLORTERM", "truecolor"), Query: answer("\x1b[?62;22c")}, HalfBlock, false},
		{"plain terminal gets a link", Env{Terminal: true, Getenv: env("TERM", "xterm"), Query: answer("")}, Link, false},
		{"dumb", Env{Terminal: true, Getenv: env("TERM", "dumb"), Query: noQuery}, None, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.env.Host = "box"
			c := Detect(context.Background(), tc.env)
			if c.Protocol != tc.want || c.Tmux != tc.wantTmux {
				t.Errorf("got %+v, want %s (tmux %v)", c, tc.want, tc.wantTmux)
			}
			// Only kitty and ghostty, known by name, draw placeholders.
			if want := tc.name == "kitty" || tc.name == "ghostty"; c.Placeholders != want {
				t.Errorf("placeholders %v, want %v", c.Placeholders, want)
			}
		})
	}
}

func FuzzFromAnswer(f *testing.F) {
	for _, s := range []string{"\x1b[?62;4c", "\x1b_Gi=31;OK\x1b\\", "", "\x1b[?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := fromAnswer(s)
		if p != "" && p != Kitty && p != Sixel {
			t.Fatalf("%q", p)
		}
	})
}

// The sixel payload decodes (with charmbracelet's decoder) to the image.
func TestSixelDecodesBack(t *testing.T) {
	t.Parallel()
	out, err := Render(Caps{Protocol: Sixel}, small(t), "a.png", Options{Cols: 4})
	if err != nil {
		t.Fatal(err)
	}
	start, end := strings.Index(out, "q")+1, strings.Index(out, "\x1b\\")
	img, err := (&sixel.Decoder{}).Decode(strings.NewReader(out[start:end]))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := png.Decode(bytes.NewReader(small(t)))
	for _, p := range []image.Point{{0, 0}, {3, 0}, {0, 3}, {3, 3}} {
		r1, g1, b1, _ := img.At(p.X, p.Y).RGBA()
		r2, g2, b2, _ := want.At(p.X, p.Y).RGBA()
		if r1>>8 != r2>>8 || g1>>8 != g2>>8 || b1>>8 != b2>>8 {
			t.Errorf("pixel %v: %v, want %v", p, img.At(p.X, p.Y), want.At(p.X, p.Y))
		}
	}
}
