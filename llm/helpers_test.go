package llm

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gear-chat/gear/config"
)

// step is one expected request and the answer the test server gives.
type step struct {
	path   string // expected method and path, e.g. "POST /v1/chat/completions"
	status int
	header map[string]string
	body   []byte
	// sse writes body line by line, flushing each event.
	sse bool
	// handle replaces the canned answer (stalls, partial streams).
	handle func(w http.ResponseWriter, r *http.Request)
}

// replay is an httptest server that answers a fixed script of requests and
// fails the test on any request it does not expect, or on steps left over.
type replay struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	steps  []step
	next   int
	bodies []map[string]any
	heads  []http.Header
}

func newReplay(t *testing.T, steps ...step) *replay {
	t.Helper()
	r := &replay{t: t, steps: steps}
	r.srv = httptest.NewServer(r)
	t.Cleanup(func() {
		r.srv.CloseClientConnections()
		r.srv.Close()
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.next != len(r.steps) {
			t.Errorf("test server: %d of %d expected requests arrived", r.next, len(r.steps))
		}
	})
	return r
}

func (r *replay) url() string { return r.srv.URL + "/v1" }

func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	raw, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	if r.next >= len(r.steps) {
		r.mu.Unlock()
		r.t.Errorf("test server: unexpected request %s %s %s", req.Method, req.URL.Path, raw)
		http.Error(w, "unexpected request", http.StatusTeapot)
		return
	}
	s := r.steps[r.next]
	r.next++
	var body map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &body); err != nil {
			r.t.Errorf("test server: request body is not JSON: %v: %s", err, raw)
		}
	}
	r.bodies = append(r.bodies, body)
	r.heads = append(r.heads, req.Header.Clone())
	r.mu.Unlock()
	if got := req.Method + " " + req.URL.Path; got != s.path {
		r.t.Errorf("test server: got %s, want %s", got, s.path)
	}
	if s.handle != nil {
		s.handle(w, req)
		return
	}
	for k, v := range s.header {
		w.Header().Set(k, v)
	}
	if s.sse {
		w.Header().Set("Content-Type", "text/event-stream")
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	status := s.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	if !s.sse {
		w.Write(s.body)
		return
	}
	for _, event := range strings.SplitAfter(string(s.body), "\n\n") {
		io.WriteString(w, event)
		w.(http.Flusher).Flush()
	}
}

// body is the JSON body of the i-th request.
func (r *replay) body(i int) map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i >= len(r.bodies) {
		r.t.Fatalf("only %d requests arrived", len(r.bodies))
	}
	return r.bodies[i]
}

func (r *replay) header(i int) http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.heads[i]
}

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const testKey = "sk-test-DO-NOT-PRINT-1234567890"

// endpoint is a resolved endpoint for a test server of the given kind.
func endpoint(role Role, baseURL string, kind ServerKind) Endpoint {
	return Endpoint{Role: role, Server: kind, ServerFrom: "configured", BaseURL: baseURL, Model: "test-model",
		APIKey: config.Secret(testKey), KeyFrom: "GEAR_CHAT_API_KEY", API: "chat", Timeout: 5 * time.Second,
		MaxTokens: 256, BatchSize: 64}
}

func newClient(t testing.TB, ep Endpoint, opts ...Option) *Client {
	t.Helper()
	opts = append([]Option{WithRetryBackoff(time.Millisecond)}, opts...)
	c, err := New(ep, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// at walks a decoded JSON body: at(b, "response_format", "json_schema", "strict").
func at(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func has(v map[string]any, key string) bool {
	_, ok := v[key]
	return ok
}
