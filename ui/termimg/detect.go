package termimg

import (
	"context"
	"io"
	"os"
	"strings"
	"time"
)

// Env is what Detect reads: the environment, and the terminal when there
// is one.
type Env struct {
	Getenv func(string) string
	// Terminal says stdin and stdout are both a terminal; only then is
	// anything drawn, and only then is the terminal queried.
	Terminal bool
	// Query asks the terminal (writes q, reads its answer until DA1's
	// reply or the timeout); nil means no query (Windows, tests).
	Query func(ctx context.Context, q string, timeout time.Duration) (string, error)
	// Host names file:// links; empty means os.Hostname.
	Host string
}

// QueryTimeout bounds the wait for a terminal's answer: a terminal that
// answers does so within a few milliseconds, even over ssh.
const QueryTimeout = 250 * time.Millisecond

// query asks kitty's graphics question (a 1×1 image that is never
// stored, a=q) and then Primary Device Attributes, which every terminal
// answers: an answer to the first means kitty graphics; attribute 4 in
// the second means sixel.
const query = "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\" + "\x1b[c"

// Detect decides once how this terminal shows images: from environment
// hints first (KITTY_WINDOW_ID, TERM_PROGRAM, LC_TERMINAL, WT_SESSION,
// TERM), then, for a terminal no hint names, from its answers to a query.
func Detect(ctx context.Context, env Env) Caps {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	c := Caps{Protocol: None, Host: env.Host, By: "not a terminal"}
	if !env.Terminal {
		return c
	}
	if c.Host == "" {
		c.Host, _ = os.Hostname()
	}
	c.Tmux = getenv("TMUX") != "" || getenv("TERM_PROGRAM") == "tmux"
	if p, by := fromEnv(getenv); p != "" {
		c.Protocol, c.By = p, by
		// Unicode placeholders came with kitty 0.28; ghostty has them,
		// WezTerm does not.
		c.Placeholders = p == Kitty && by != "WezTerm"
		return c
	}
	if getenv("TERM") == "dumb" {
		c.Protocol, c.By = None, "TERM=dumb"
		return c
	}
	if env.Query != nil {
		if answer, err := env.Query(ctx, query, QueryTimeout); err == nil {
			if p := fromAnswer(answer); p != "" {
				c.Protocol, c.By = p, "query"
				return c
			}
		}
	}
	c.Protocol, c.By = Link, "default"
	if ct := getenv("COLORTERM"); ct == "truecolor" || ct == "24bit" {
		c.Protocol, c.By = HalfBlock, "COLORTERM="+ct
	}
	return c
}

// fromEnv reads the hints terminals set about themselves.
func fromEnv(getenv func(string) string) (Protocol, string) {
	term, prog := getenv("TERM"), getenv("TERM_PROGRAM")
	switch {
	case getenv("KITTY_WINDOW_ID") != "":
		return Kitty, "KITTY_WINDOW_ID"
	case term == "xterm-kitty":
		return Kitty, "TERM=" + term
	case prog == "ghostty" || term == "xterm-ghostty":
		return Kitty, "ghostty"
	case prog == "WezTerm" || getenv("WEZTERM_EXECUTABLE") != "":
		return Kitty, "WezTerm"
	case prog == "iTerm.app" || getenv("LC_TERMINAL") == "iTerm2":
		return ITerm2, "iTerm2"
	case getenv("WT_SESSION") != "":
		return Sixel, "WT_SESSION"
	case strings.HasPrefix(term, "foot"):
		return Sixel, "TERM=" + term
	case strings.HasPrefix(term, "mlterm") || prog == "mlterm" || getenv("MLTERM") != "":
		return Sixel, "mlterm"
	}
	return "", ""
}

// fromAnswer reads a terminal's answers to query.
func fromAnswer(a string) Protocol {
	if strings.Contains(a, "\x1b_Gi=31;OK") {
		return Kitty
	}
	// DA1: ESC [ ? 6 2 ; 4 ; 2 2 c — attribute 4 is sixel.
	if i := strings.Index(a, "\x1b[?"); i >= 0 {
		rest := a[i+3:]
		if j := strings.IndexByte(rest, 'c'); j >= 0 {
			for _, attr := range strings.Split(rest[:j], ";") {
				if attr == "4" {
					return Sixel
				}
			}
		}
	}
	return ""
}

// readUntil reads r until DA1's reply ends ("c" after ESC [ ?) or max
// bytes, for the platform query functions.
func readUntil(r io.Reader, max int) string {
	var b strings.Builder
	buf := make([]byte, 256)
	for b.Len() < max {
		n, err := r.Read(buf)
		b.Write(buf[:n])
		s := b.String()
		if i := strings.Index(s, "\x1b[?"); i >= 0 && strings.IndexByte(s[i:], 'c') >= 0 {
			break
		}
		if err != nil || n == 0 {
			break
		}
	}
	return b.String()
}

// DetectStdio detects for this process's own terminal: it queries only
// when stdin and stdout are both terminals, through /dev/tty where the
// platform has it, and restores the terminal before it returns. Call it
// before Bubble Tea takes the terminal.
func DetectStdio(ctx context.Context, getenv func(string) string, isTerminal func(fd int) bool) Caps {
	env := Env{Getenv: getenv, Terminal: isTerminal(int(os.Stdin.Fd())) && isTerminal(int(os.Stdout.Fd()))}
	if env.Terminal {
		if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
			defer tty.Close()
			env.Query = TTYQuery(tty)
		}
	}
	return Detect(ctx, env)
}
