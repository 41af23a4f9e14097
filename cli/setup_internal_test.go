package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 16, item 12: ctrl+c leaves the setup form and writes nothing.
func TestSetupFormCtrlCWritesNothing(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	var out bytes.Buffer
	a := newApp(Deps{Stdin: strings.NewReader("\x03"), Stdout: &out, Stderr: io.Discard, IsTerminal: true, StdinIsTerminal: true,
		Getenv: func(k string) string { return map[string]string{"HOME": home}[k] }})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _, err := a.setupForm(ctx, filepath.Join(home, "config.yaml"))
	if !errors.Is(err, errSetupCancelled) {
		t.Fatalf("ctrl+c in the form: %v, want %v", err, errSetupCancelled)
	}
	if _, err := os.Stat(filepath.Join(home, "config.yaml")); err == nil {
		t.Error("a cancelled setup wrote the file")
	}
}

// A prompt waiting for a line gives up when the context ends (ctrl+c),
// instead of blocking on a read that ignores it.
func TestReadAnswerCancels(t *testing.T) {
	t.Parallel()
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := readAnswer(ctx, r)
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, errPromptCancelled) {
			t.Errorf("got %v, want %v", err, errPromptCancelled)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the prompt ignored the cancellation")
	}
	if got, err := readAnswer(context.Background(), strings.NewReader(" 2 \n")); got != "2" || err != nil {
		t.Errorf("a typed answer: %q, %v", got, err)
	}
}
