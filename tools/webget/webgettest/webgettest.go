// Package webgettest replays recorded HTTP bodies for the tests of gear's
// network tools. A Server answers only the requests it was told to expect,
// checks each one (path, query parameters, User-Agent) and fails the test
// on anything else, so a test can never quietly reach the internet or send
// a request the real service would not understand.
package webgettest

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Reply is one answer to a request.
type Reply struct {
	Status int // 0 means 200
	Body   []byte
	Header map[string]string
	// Stall makes the server send nothing until the client gives up.
	Stall bool
	// Chunked flushes the headers before the body, so the client sees no
	// Content-Length.
	Chunked bool
}

// Route is a request the server expects.
type Route struct {
	// Path is the request's escaped path, e.g. "/api/rest_v1/page/summary/AC%2FDC".
	Path string
	// Query lists every query parameter the request must carry, with its
	// value; a missing, different or extra parameter fails the test.
	Query map[string]string
	// Replies are served in order, one per request; a request beyond them
	// fails the test.
	Replies []Reply
}

// Server is a replay server.
type Server struct {
	*httptest.Server
	t         testing.TB
	userAgent string
	mu        sync.Mutex
	routes    []Route
	hits      []int
}

// NewServer starts a server expecting routes, each request carrying
// userAgent. It is closed when the test ends.
func NewServer(t testing.TB, userAgent string, routes ...Route) *Server {
	t.Helper()
	s := &Server{t: t, userAgent: userAgent, routes: routes, hits: make([]int, len(routes))}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Hits returns how many requests the route with path got.
func (s *Server) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for i, r := range s.routes {
		if r.Path == path {
			n += s.hits[i]
		}
	}
	return n
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	reply, ok := s.match(r)
	if !ok {
		http.Error(w, "unexpected request", http.StatusTeapot)
		return
	}
	if reply.Stall {
		<-r.Context().Done()
		return
	}
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	if reply.Chunked {
		w.(http.Flusher).Flush()
	}
	_, _ = w.Write(reply.Body)
}

func (s *Server) match(r *http.Request) (Reply, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Method != http.MethodGet {
		s.t.Errorf("unexpected %s %s", r.Method, r.URL)
		return Reply{}, false
	}
	if ua := r.Header.Get("User-Agent"); ua != s.userAgent {
		s.t.Errorf("request %s: User-Agent %q, want %q", r.URL, ua, s.userAgent)
	}
	for i, route := range s.routes {
		if route.Path != r.URL.EscapedPath() {
			continue
		}
		if diff := queryDiff(route.Query, r); diff != "" {
			s.t.Errorf("request %s: %s", r.URL, diff)
			return Reply{}, false
		}
		if s.hits[i] >= len(route.Replies) {
			s.t.Errorf("request %s: more requests than the %d expected", r.URL, len(route.Replies))
			return Reply{}, false
		}
		s.hits[i]++
		return route.Replies[s.hits[i]-1], true
	}
	s.t.Errorf("unexpected request %s", r.URL)
	return Reply{}, false
}

func queryDiff(want map[string]string, r *http.Request) string {
	got := r.URL.Query()
	var problems []string
	for k, v := range want {
		switch vs, ok := got[k]; {
		case !ok:
			problems = append(problems, "missing "+k)
		case len(vs) != 1 || vs[0] != v:
			problems = append(problems, k+"="+strings.Join(vs, ",")+", want "+v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			problems = append(problems, "unexpected parameter "+k)
		}
	}
	sort.Strings(problems)
	return strings.Join(problems, "; ")
}

// Down is a transport for a network that is down: every request fails to
// connect, with the error text it holds ("dial tcp: connect: network is
// unreachable").
type Down string

// RoundTrip fails.
func (d Down) RoundTrip(*http.Request) (*http.Response, error) { return nil, errors.New(string(d)) }

// Fixture reads testdata/<name> of the calling package's directory.
func Fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return b
}
