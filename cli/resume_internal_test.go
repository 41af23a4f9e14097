package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The chat window resumes the last chat conversation,
// not a gear ask one-shot asked since.
func TestChatResumesTheLastChatNotAnAsk(t *testing.T) {
	t.Parallel()
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

// With the model server down, the chat window says so
// once at start-up and the calculator still answers, grounded offline.
func TestChatWithTheServerDown(t *testing.T) {
	t.Parallel()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	env := map[string]string{"OPENAI_BASE_URL": gone.URL + "/v1"}
	s := openChat(t, chatApp(t, env, gone, t.TempDir(), false))
	v := s.until("server unreachable (chat, grounding, embedding)")
	if strings.Count(v, "server unreachable") != 1 {
		t.Errorf("the server should be reported once:\n%s", v)
	}
	if !strings.Contains(v, "engine offline │") {
		t.Errorf("the status line should say the offline engine serves now:\n%s", v)
	}
	s.typeLine("what is 17 * 23")
	v = s.until("Calculator(17 * 23) → 391")
	if !strings.Contains(v, "grounding: offline engine") || strings.Contains(v, "grounding: grounding") {
		t.Errorf("the turn should name the offline engine:\n%s", v)
	}
	if strings.Count(v, "server unreachable") != 1 {
		t.Errorf("the server should still be reported once:\n%s", v)
	}
}
