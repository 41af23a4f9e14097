package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// errPromptCancelled is a prompt left with ctrl+c (the context ended).
var errPromptCancelled = errors.New("cancelled: no answer was given")

// readAnswer reads one line from in, or gives up when ctx ends: ctrl+c
// cancels gear's context, and a read that ignored it would leave the
// person stuck at the prompt. The read itself cannot be interrupted, so a
// cancelled prompt leaves its goroutine waiting until in yields a line or
// closes; gear exits right after.
func readAnswer(ctx context.Context, in io.Reader) (string, error) {
	type read struct {
		line string
		err  error
	}
	got := make(chan read, 1)
	go func() {
		line, err := bufio.NewReader(in).ReadString('\n')
		got <- read{line, err}
	}()
	select {
	case <-ctx.Done():
		return "", errPromptCancelled
	case r := <-got:
		if r.err != nil && r.line == "" {
			if errors.Is(r.err, io.EOF) {
				return "", nil
			}
			return "", r.err
		}
		return strings.TrimSpace(r.line), nil
	}
}

// promptLine writes the prompt (a format and its arguments) to stderr and
// reads the answer; when the read fails or is cancelled, it ends the
// prompt's line first, so what gear prints next starts on a line of its
// own.
func (a *app) promptLine(ctx context.Context, format string, args ...any) (string, error) {
	fmt.Fprintf(a.deps.Stderr, format, args...)
	line, err := readAnswer(ctx, a.deps.Stdin)
	if err != nil {
		fmt.Fprintln(a.deps.Stderr)
	}
	return line, err
}
