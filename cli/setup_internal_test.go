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

	"github.com/gear-chat/gear/agent"
)

// Ctrl+c leaves the setup form and writes nothing.
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

// Gear ask's confirm prompt offers "no tool"
// only when that can answer, reads through ctrl+c, and shows whole
// percentages.
func TestAskConfirmPrompt(t *testing.T) {
	t.Parallel()
	conf := agent.Confirmation{Threshold: 0.5, Candidates: []agent.Candidate{
		{Tool: "CurrentTime", Confidence: 0.483}, {Tool: "WikiSearch", Confidence: 0.2}}}
	ask := func(input string, canAnswer bool) (string, string, error) {
		var prompt bytes.Buffer
		a := newApp(Deps{Stdin: strings.NewReader(input), Stderr: &prompt, IsTerminal: true, StdinIsTerminal: true})
		choice, err := a.confirmTool(context.Background(), conf, canAnswer)
		return choice, prompt.String(), err
	}
	if choice, prompt, err := ask("n\n", false); !errors.Is(err, errPromptCancelled) || !strings.Contains(prompt, "n cancels") ||
		strings.Contains(prompt, "without a tool") || !strings.Contains(prompt, "only 48% sure") || choice != "" {
		t.Errorf("without a chat model: %q, %q, %v", choice, prompt, err)
	}
	if choice, prompt, err := ask("n\n", true); err != nil || choice != agent.NoTool || !strings.Contains(prompt, "n answers without a tool") {
		t.Errorf("with a chat model: %q, %q, %v", choice, prompt, err)
	}
	if choice, _, err := ask("2\n", false); err != nil || choice != "WikiSearch" {
		t.Errorf("2 picks the second: %q, %v", choice, err)
	}
}
