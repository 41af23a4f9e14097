//go:build linux || darwin || freebsd || netbsd || openbsd

package termimg

import (
	"context"
	"strings"
	"testing"

	"github.com/creack/pty"
)

func TestDarkFromAnswer(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		answer   string
		dark, ok bool
	}{
		{"\x1b]11;rgb:0000/0000/0000\x1b\\\x1b[?62;22c", true, true},
		{"\x1b]11;rgb:ffff/ffff/ffff\a\x1b[?62c", false, true},
		{"\x1b]11;rgb:1e/1e/2e\x1b\\", true, true},
		{"\x1b]11;rgb:fdf6/e3e3/cccc\x1b\\", false, true}, // solarized light
		{"\x1b[?62;22c", false, false},                    // DA1 only: OSC 11 unknown
		{"\x1b]11;rgb:zz/00/00\x1b\\", false, false},
		{"\x1b]11;rgb:00/00\x1b\\", false, false},
		{"", false, false},
	} {
		dark, ok := darkFromAnswer(tt.answer)
		if dark != tt.dark || ok != tt.ok {
			t.Errorf("darkFromAnswer(%q) = %v, %v; want %v, %v", tt.answer, dark, ok, tt.dark, tt.ok)
		}
	}
}

func TestDarkFromColorFGBG(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		v        string
		dark, ok bool
	}{{"15;0", true, true}, {"0;15", false, true}, {"0;default;7", false, true}, {"", false, false}, {"15;x", false, false}} {
		if dark, ok := darkFromColorFGBG(tt.v); dark != tt.dark || ok != tt.ok {
			t.Errorf("darkFromColorFGBG(%q) = %v, %v; want %v, %v", tt.v, dark, ok, tt.dark, tt.ok)
		}
	}
}

// A terminal that answers nothing: the chat window's question gives up
// after QueryTimeout and says it does not know, rather than stalling.
func TestAskBackgroundOnASilentTerminal(t *testing.T) {
	t.Parallel()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skip("no pty:", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	go drain(ptmx, nil)
	if dark, ok := AskBackground(context.Background(), TTYQuery(tty)); ok {
		t.Fatalf("AskBackground = %v, true on a terminal that answered nothing", dark)
	}
}

// A terminal that answers OSC 11 with a light background.
func TestAskBackgroundReadsTheAnswer(t *testing.T) {
	t.Parallel()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skip("no pty:", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	go drain(ptmx, func(asked string) string {
		if strings.Contains(asked, "\x1b[c") {
			return "\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c"
		}
		return ""
	})
	dark, ok := AskBackground(context.Background(), TTYQuery(tty))
	if !ok || dark {
		t.Fatalf("AskBackground = %v, %v; want light (false, true)", dark, ok)
	}
}

// drain reads what is written to the terminal and, when answer gives a
// reply for what was read so far, writes it back as the terminal would.
func drain(ptmx interface {
	Read([]byte) (int, error)
	Write([]byte) (int, error)
}, answer func(asked string) string) {
	var asked strings.Builder
	buf := make([]byte, 256)
	for {
		n, err := ptmx.Read(buf)
		if err != nil {
			return
		}
		asked.Write(buf[:n])
		if answer != nil {
			if reply := answer(asked.String()); reply != "" {
				_, _ = ptmx.Write([]byte(reply))
				asked.Reset()
			}
		}
	}
}
