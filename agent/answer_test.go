package agent

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gear-chat/gear/sanitize"
)

// Whatever way a stream splits its text — through an escape sequence, a
// CRLF or a UTF-8 character — the deltas handed out join up to the
// sanitised whole, and never hold a control sequence.
func TestStreamSanitizer(t *testing.T) {
	t.Parallel()
	texts := []string{
		"plain answer",
		"red \x1b[31mwarning\x1b[0m done",
		"title \x1b]0;pwned\x07 and \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ end",
		"a\r\nb\rc",
		"héllo wörld — 日本 🙂",
		"\xc3",
		"bidi \u202eevil\u202c text",
	}
	for _, text := range texts {
		for cut := 0; cut <= len(text); cut++ {
			for cut2 := cut; cut2 <= len(text); cut2 += 3 {
				checkSplit(t, text, []string{text[:cut], text[cut:cut2], text[cut2:]})
			}
		}
	}
}

func checkSplit(t *testing.T, text string, pieces []string) {
	t.Helper()
	var s streamSanitizer
	var out strings.Builder
	for _, p := range pieces {
		d := s.add(p)
		if strings.IndexFunc(d, func(r rune) bool { return r == 0x1b || r == 0x07 || r == 0x9b || r == 0x202e }) >= 0 {
			t.Fatalf("%q split %q: delta %q holds a control", text, pieces, d)
		}
		out.WriteString(d)
	}
	out.WriteString(s.flush())
	if want := sanitize.Text(text); out.String() != want || s.text() != want {
		t.Fatalf("%q split %q: got %q, want %q", text, pieces, out.String(), want)
	}
	if !utf8.ValidString(out.String()) {
		t.Fatalf("%q: invalid UTF-8 out", text)
	}
}

func FuzzStreamSanitizer(f *testing.F) {
	f.Add("red \x1b[31mwarning\x1b[0m", 3, 9)
	f.Add("héllo 🙂\r\n", 2, 8)
	f.Add("\x1b]0;x\x07y", 1, 4)
	f.Fuzz(func(t *testing.T, text string, a, b int) {
		if len(text) == 0 {
			return
		}
		n := uint(len(text) + 1)
		a, b = int(uint(a)%n), int(uint(b)%n)
		if a > b {
			a, b = b, a
		}
		checkSplit(t, text, []string{text[:a], text[a:b], text[b:]})
	})
}
