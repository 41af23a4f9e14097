package termimg

import (
	"context"
	"os"
	"strconv"
	"strings"
	"time"
)

// backgroundQuery asks for the background colour (OSC 11) and then for the
// device attributes (DA1), which every terminal answers: the DA1 reply
// ends the read whether or not the terminal knew OSC 11.
const backgroundQuery = "\x1b]11;?\x1b\\" + "\x1b[c"

// BackgroundStdio is DarkBackground for this process's own terminal
// (through /dev/tty, as DetectStdio), with COLORFGBG as the fallback when
// the terminal does not answer; ok is false when neither says, or when
// stdin or stdout is not a terminal (nothing is asked then).
func BackgroundStdio(ctx context.Context, getenv func(string) string, isTerminal func(fd int) bool) (dark, ok bool) {
	if !isTerminal(int(os.Stdin.Fd())) || !isTerminal(int(os.Stdout.Fd())) {
		return false, false
	}
	if getenv("TERM") != "dumb" {
		if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
			defer tty.Close()
			if q := TTYQuery(tty); q != nil {
				if dark, ok := AskBackground(ctx, q); ok {
					return dark, true
				}
			}
		}
	}
	return darkFromColorFGBG(getenv("COLORFGBG"))
}

// AskBackground asks the terminal through query whether its background
// is dark, waiting at most QueryTimeout; ok is false when it did not say
// (no answer, or no OSC 11 reply in it).
func AskBackground(ctx context.Context, query func(ctx context.Context, q string, timeout time.Duration) (string, error)) (dark, ok bool) {
	answer, err := query(ctx, backgroundQuery, QueryTimeout)
	if err != nil {
		return false, false
	}
	return darkFromAnswer(answer)
}

// darkFromAnswer reads an OSC 11 reply, "ESC ] 11 ; rgb:RRRR/GGGG/BBBB"
// (one to four hex digits a channel), ended by ST or BEL.
func darkFromAnswer(a string) (dark, ok bool) {
	i := strings.Index(a, "]11;rgb:")
	if i < 0 {
		return false, false
	}
	rest := a[i+len("]11;rgb:"):]
	if j := strings.IndexAny(rest, "\x1b\a"); j >= 0 {
		rest = rest[:j]
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 3 {
		return false, false
	}
	var c [3]float64
	for k, p := range parts {
		if len(p) == 0 || len(p) > 4 {
			return false, false
		}
		v, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return false, false
		}
		c[k] = float64(v) / float64(uint64(1)<<(4*len(p))-1)
	}
	// HSL lightness, as termenv decides.
	return (max(c[0], c[1], c[2])+min(c[0], c[1], c[2]))/2 < 0.5, true
}

// darkFromColorFGBG reads COLORFGBG ("fg;bg", set by rxvt, Konsole and
// others): a background of 7 (light grey) or 15 (white) is light, any
// other colour index dark.
func darkFromColorFGBG(v string) (dark, ok bool) {
	i := strings.LastIndexByte(v, ';')
	if i < 0 {
		return false, false
	}
	bg, err := strconv.Atoi(v[i+1:])
	if err != nil {
		return false, false
	}
	return bg != 7 && bg != 15, true
}
