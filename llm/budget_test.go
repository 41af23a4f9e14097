package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Calls that share a response budget read at most the budget between them
// (grounding's concurrent requests each allowed 64 MiB).
// Eight concurrent calls to a server answering 1 MiB each, under a 3 MiB
// budget: at most three succeed, the rest fail with the budget named, and
// less than the budget plus one read buffer per call is read.
func TestSharedResponseBudget(t *testing.T) {
	t.Parallel()
	body := chatCompletionBody(t, strings.Repeat("x", 1<<20))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	c := newClient(t, endpoint(RoleGrounding, srv.URL+"/v1", ServerOpenAI))
	const size = 3 << 20
	complete := c.WithSharedBudget(size)
	var ok, cut atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := complete(context.Background(), "hello")
			var e *Error
			switch {
			case err == nil:
				ok.Add(1)
			case errors.As(err, &e) && e.Kind == ErrBadResponse && strings.Contains(err.Error(), "shared 3145728-byte budget"):
				cut.Add(1)
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}()
	}
	wg.Wait()
	if ok.Load() > 3 || ok.Load()+cut.Load() != 8 || cut.Load() == 0 {
		t.Errorf("%d answered and %d cut under a budget of three answers", ok.Load(), cut.Load())
	}
	// Without a shared budget every call is allowed its own limit.
	if _, err := c.Complete(context.Background(), "hello"); err != nil {
		t.Errorf("a call outside the budget: %v", err)
	}
}

func chatCompletionBody(t *testing.T, content string) []byte {
	b, err := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
		"usage":   map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
