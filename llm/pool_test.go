package llm

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// One transport per endpoint, and connections reused: two waves of 16
// concurrent requests open at most 16 connections, where Go's default
// transport (2 idle per host) opens new ones for most of the second wave.
func TestTransportsReuseConnections(t *testing.T) {
	t.Parallel()
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)

	ts := NewTransports()
	a, b := ts.For(srv.URL+"/v1"), ts.For(srv.URL+"/other")
	if a != b {
		t.Error("two base URLs of one server got different clients")
	}
	if other := ts.For("http://example.invalid/v1"); other == a {
		t.Error("two servers share a client")
	}
	wave := func() {
		var wg sync.WaitGroup
		for i := 0; i < 16; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL, nil)
				resp, err := a.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}()
		}
		wg.Wait()
	}
	wave()
	first := conns.Load()
	wave()
	// The second wave may need more connections than the first opened
	// (requests of the first overlap less), so the bound is on the total:
	// a pooled transport never needs more than the 16 a wave runs at once,
	// plus a few Go drops instead of pooling when its write loop has not
	// confirmed the request within 50 ms on a loaded machine. Go's default
	// transport keeps 2 idle a host and opens at least 14 anew: 23 or more.
	if n := conns.Load(); first > 16 || n > 20 {
		t.Errorf("%d connections after the first wave, %d after the second: want at most 20 in all", first, n)
	}
	ts.CloseIdle()
}
