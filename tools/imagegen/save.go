package imagegen

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // decoders Identify knows
	_ "image/jpeg" // decoders Identify knows
	_ "image/png"  // decoders Identify knows
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	_ "golang.org/x/image/webp" // sd-server and gpt-image-1 may send WebP
)

// Info is what Identify read from an image's header.
type Info struct {
	Format        string // png, jpeg, gif, webp
	Ext           string // .png …
	Width, Height int
}

// MaxPixels bounds an image's width × height: a small file may claim a
// huge canvas that would take gigabytes to decode.
const MaxPixels = 64 << 20

// Identify checks that data is an image gear can show and save: its
// header decodes as PNG, JPEG, GIF or WebP with a sane size. The error
// says what the data looks like instead.
func Identify(data []byte) (Info, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		kind := http.DetectContentType(data)
		if len(data) == 0 {
			kind = "nothing"
		}
		return Info{}, fmt.Errorf("something that is not an image (%s, %d bytes)", strings.TrimSuffix(kind, "; charset=utf-8"), len(data))
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return Info{}, fmt.Errorf("an image of %dx%d pixels, which gear will not decode", cfg.Width, cfg.Height)
	}
	ext := "." + format
	if format == "jpeg" {
		ext = ".jpg"
	}
	return Info{Format: format, Ext: ext, Width: cfg.Width, Height: cfg.Height}, nil
}

// save writes data under dir as TIME-PROMPT.EXT, never over a file that
// is there.
func save(dir string, now time.Time, prompt, ext string, data []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	base := now.UTC().Format("20060102-150405") + "-" + slug(prompt)
	for i := 1; i < 100; i++ {
		name := base + ext
		if i > 1 {
			name = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			os.Remove(path)
			return "", err
		}
		if err := f.Close(); err != nil {
			os.Remove(path)
			return "", err
		}
		return path, nil
	}
	return "", fmt.Errorf("%s: too many images of this name", base)
}

// slug is the prompt's first words as a file name: lower-case ASCII
// letters and digits, words joined by hyphens, whole words up to 48
// bytes; "image" when none are left.
func slug(prompt string) string {
	words := strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return r >= unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r))
	})
	var b strings.Builder
	for _, w := range words {
		if b.Len() > 0 && b.Len()+1+len(w) > 48 {
			break
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		if len(w) > 48 {
			w = w[:48]
		}
		b.WriteString(w)
	}
	if b.Len() == 0 {
		return "image"
	}
	return b.String()
}
