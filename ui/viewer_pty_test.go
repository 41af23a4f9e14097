//go:build linux || darwin || freebsd || netbsd || openbsd

package ui

import (
	"bytes"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"

	"github.com/gear-chat/gear/ui/termimg"
)

// On a real terminal in its cooked mode (as Bubble Tea leaves it for
// tea.Exec) one key, with no enter after it, returns from the viewer, and
// the terminal's mode is restored afterwards.
func TestImageViewerOnATerminalReturnsOnOneKey(t *testing.T) {
	t.Parallel()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skip("no pty:", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	before, err := term.GetState(int(tty.Fd()))
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var screen bytes.Buffer
	drew := make(chan struct{})
	go func() {
		buf := make([]byte, 4096)
		signalled := false
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			full := bytes.Contains(screen.Bytes(), []byte("Any key returns"))
			mu.Unlock()
			if full && !signalled {
				signalled = true
				close(drew)
			}
			if err != nil {
				return
			}
		}
	}()

	v := &imageViewer{caps: termimg.Caps{Protocol: termimg.Sixel}, paths: []string{"testdata/dalle2-24x16.png"}, cols: 80, rows: 24}
	v.SetStdin(tty)
	v.SetStdout(tty)
	v.SetStderr(io.Discard)
	done := make(chan error, 1)
	go func() { done <- v.Run() }()
	select {
	case <-drew:
	case <-time.After(20 * time.Second):
		t.Fatal("the viewer drew nothing")
	}
	if _, err := ptmx.Write([]byte("q")); err != nil { // one key, no enter
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("one key did not return from the viewer (the terminal is not in raw mode)")
	}
	after, err := term.GetState(int(tty.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	if *after != *before {
		t.Error("the terminal's mode was not restored")
	}
	mu.Lock()
	defer mu.Unlock()
	if !bytes.Contains(screen.Bytes(), []byte("\x1bP0;1q")) {
		t.Errorf("no sixel image on the terminal: %q", screen.String()[:min(screen.Len(), 200)])
	}
}
