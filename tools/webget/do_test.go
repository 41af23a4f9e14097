package webget

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestDo sends a method, headers and a body, and never retries a method
// that could do its work twice.
func TestDo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		method   string
		status   int
		wantHits int32
		wantErr  string
	}{
		{name: "POST succeeds", method: http.MethodPost, status: 200, wantHits: 1},
		{name: "POST 503 is not retried", method: http.MethodPost, status: 503, wantHits: 1, wantErr: "answered HTTP 503"},
		{name: "GET 503 is retried", method: "", status: 503, wantHits: 2, wantErr: "(2 attempts)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var hits atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				want := tc.method
				if want == "" {
					want = http.MethodGet
				}
				body, _ := io.ReadAll(r.Body)
				if r.Method != want || r.URL.Path != "/v1/items" || r.Header.Get("X-Api-Key") != "k" ||
					r.Header.Get("Accept") != "text/plain" || r.Header.Get("User-Agent") != testUA {
					t.Errorf("unexpected request %s %s %v", r.Method, r.URL, r.Header)
				}
				if want == http.MethodPost && string(body) != `{"a":1}` {
					t.Errorf("body %q", body)
				}
				w.WriteHeader(tc.status)
				io.WriteString(w, "done")
			}))
			defer srv.Close()
			c := New(Options{HTTP: srv.Client(), UserAgent: testUA, Backoff: time.Millisecond})
			req := Request{Method: tc.method, URL: srv.URL + "/v1/items",
				Header: http.Header{"x-api-key": {"k"}, "Accept": {"text/plain"}}}
			if tc.method == http.MethodPost {
				req.Body = []byte(`{"a":1}`)
			}
			body, err := c.Do(context.Background(), Service{Name: "Items"}, req)
			if got := hits.Load(); got != tc.wantHits {
				t.Errorf("hits = %d, want %d", got, tc.wantHits)
			}
			if tc.wantErr == "" {
				if err != nil || string(body) != "done" {
					t.Fatalf("Do = %q, %v", body, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// TestLimitKeysInErrors: a service that sets its own limits is told where.
func TestLimitKeysInErrors(t *testing.T) {
	t.Parallel()
	e := &Error{Service: Service{Name: "tool X", TimeoutKey: "timeout in x.yaml", SizeKey: "max_bytes in x.yaml"}, Kind: KindTooLarge, Limit: 10}
	if got := e.Error(); !strings.Contains(got, "raise max_bytes in x.yaml") {
		t.Errorf("too large: %s", got)
	}
	e = &Error{Service: e.Service, Kind: KindTimeout, Timeout: time.Second}
	if got := e.Error(); !strings.Contains(got, "raise timeout in x.yaml") {
		t.Errorf("timeout: %s", got)
	}
}
