package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello, world", "hello, world"},
		{"unicode kept", "Zürich 北京 🌧", "Zürich 北京 🌧"},
		{"newline and tab kept", "a\n\tb", "a\n\tb"},
		{"crlf", "a\r\nb", "a\nb"},
		{"lone cr", "a\rb", "a\nb"},
		{"csi colour", "\x1b[31mred\x1b[0m", "red"},
		{"csi clear screen", "x\x1b[2J\x1b[Hy", "xy"},
		{"osc title bel", "\x1b]0;pwned\x07text", "text"},
		{"osc hyperlink st", "\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"dcs", "\x1bPq#0;2;0;0;0\x1b\\after", "after"},
		{"two byte esc", "\x1bcreset", "reset"},
		{"8-bit csi", "a\u009b31mb", "ab"},
		{"8-bit osc", "a\u009d0;t\u009cb", "ab"},
		{"bell and backspace", "a\x07b\x08c", "abc"},
		{"del", "a\x7fb", "ab"},
		{"bidi override", "abc\u202edcba", "abcdcba"},
		{"invalid utf8", "a\xffb", "a\ufffdb"},
		{"trailing esc", "abc\x1b", "abc"},
		{"unterminated osc", "abc\x1b]0;title", "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Fatalf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLine(t *testing.T) {
	if got := Line("a\nb\tc\x1b[1m"); got != "a b c" {
		t.Fatalf("got %q", got)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"\x1b[31mx", "\x1b]0;t\x07", "a\u009bb", "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Text(in)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", in)
		}
		for _, r := range out {
			if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || isBidiControl(r)) {
				t.Fatalf("control %U left in %q from %q", r, out, in)
			}
		}
		if strings.ContainsRune(out, 0x1b) {
			t.Fatalf("ESC left in %q", out)
		}
		if Text(out) != out {
			t.Fatalf("not idempotent on %q", in)
		}
	})
}
