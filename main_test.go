package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// buildGear builds the gear binary into a temporary directory.
func buildGear(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("builds the gear binary")
	}
	bin := filepath.Join(tb.TempDir(), "gear")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runOnSilentPTY runs gear with a pseudo-terminal as its stdin, stdout and
// stderr that never answers anything written to it, and returns all it
// wrote. It fails when gear is still running after a generous bound (a
// query waiting for its answer stalls for termenv's 5 s).
func runOnSilentPTY(tb testing.TB, bin, home string, args ...string) []byte {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"TERM=xterm-256color", "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "PATH=" + os.Getenv("PATH")}
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		tb.Fatal(err)
	}
	defer ptmx.Close()
	done := make(chan []byte, 1)
	go func() {
		var out bytes.Buffer
		_, err := io.Copy(&out, ptmx)
		// The pty's other side closed: Linux reports EIO, not EOF.
		if err != nil && !errors.Is(err, syscall.EIO) && !errors.Is(err, os.ErrClosed) {
			tb.Errorf("reading the pty: %v", err)
		}
		done <- out.Bytes()
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		// A failing command (exit status 1 or 2) is fine here: what it
		// wrote is what is checked.
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			tb.Errorf("gear %s: %v", strings.Join(args, " "), err)
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		tb.Fatalf("gear %s still running after 30 s on a terminal that does not answer", strings.Join(args, " "))
	}
	select {
	case out := <-done:
		return out
	case <-time.After(5 * time.Second):
		tb.Fatal("the pty stayed open after gear exited")
		return nil
	}
}

// queries are the beginnings of the escape sequences that ask a terminal
// something: OSC colour queries, cursor position (DSR), device attributes
// (DA1, DA2), the kitty graphics query.
var queries = []string{"\x1b]10;?", "\x1b]11;?", "\x1b[6n", "\x1b[c", "\x1b[>c", "\x1b[0c", "\x1b_G"}

// Only the chat window may ask the terminal anything: Bubble Tea's
// package init would otherwise ask for the background colour in every
// command and wait 5 s for a terminal that does not answer (see
// quiet_init.go).
func TestNoCommandButTheChatQueriesTheTerminal(t *testing.T) {
	t.Parallel()
	bin := buildGear(t)
	home := t.TempDir()
	db := filepath.Join(home, "history.db")
	for _, args := range [][]string{
		{"version"},
		{"--help"},
		{"help", "ask"},
		{"history", "--db", db},
		{"tools", "--offline"},
		{"tool", "--offline", "Calculator(17 * 23)"},
		{"config", "--offline"},
		{"ask", "--offline", "what is 17 * 23"},
		{"nosuchcommand"},
	} {
		out := runOnSilentPTY(t, bin, home, args...)
		for _, q := range queries {
			if bytes.Contains(out, []byte(q)) {
				t.Errorf("gear %s wrote the terminal query %q:\n%q", strings.Join(args, " "), q, out)
			}
		}
		if len(bytes.TrimSpace(out)) == 0 {
			t.Errorf("gear %s wrote nothing", strings.Join(args, " "))
		}
	}
}

// TERM is hidden from package initialisation only: gear, and what it
// starts, see the real value.
func TestRestoreTermGivesTheStartingValueBack(t *testing.T) {
	raw, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		t.Skip("no /proc/self/environ here")
	}
	want, found := "", false
	for _, kv := range strings.Split(string(raw), "\x00") {
		if v, ok := strings.CutPrefix(kv, "TERM="); ok {
			want, found = v, true
		}
	}
	if !found {
		t.Skip("the test runs without TERM")
	}
	t.Setenv("TERM", os.Getenv("TERM"))
	restoreTerm()
	if got := os.Getenv("TERM"); got != want {
		t.Fatalf("TERM = %q after restoreTerm, want %q", got, want)
	}
}

// BenchmarkVersionOnSilentPTY is gear version's whole run, process start
// to exit, on a terminal that answers nothing (target: 30 ms).
func BenchmarkVersionOnSilentPTY(b *testing.B) {
	bin := buildGear(b)
	home := b.TempDir()
	b.ResetTimer()
	for b.Loop() {
		runOnSilentPTY(b, bin, home, "version")
	}
}
