package cli

import (
	"context"
	"io"
	"strings"
	"testing"
)

// Issue 16, item 8: the chat window resumes the last chat conversation,
// not a gear ask one-shot asked since.
func TestChatResumesTheLastChatNotAnAsk(t *testing.T) {
	dir := t.TempDir()
	s := openChat(t, chatApp(t, map[string]string{}, nil, dir, true))
	s.until("engine offline")
	s.typeLine("what is 17 * 23")
	s.until("Calculator(17 * 23) → 391")

	a := chatApp(t, map[string]string{}, nil, dir, true)
	a.deps.Stdout, a.deps.Stderr = io.Discard, io.Discard
	if err := a.ask(context.Background(), askOptions{text: "what is 5 + 5"}); err != nil {
		t.Fatal(err)
	}

	s = openChat(t, chatApp(t, map[string]string{}, nil, dir, true))
	v := s.until("Resumed conversation #1")
	if !strings.Contains(v, "what is 17 * 23") || strings.Contains(v, "what is 5 + 5") {
		t.Errorf("the chat should reopen the chat conversation, not the ask:\n%s", v)
	}
}
