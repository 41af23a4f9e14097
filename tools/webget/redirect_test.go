package webget

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// A service's redirect is followed within its own host only; one to another
// host or an internal address fails with one line naming it.
func TestRedirectsStayOnTheSameHost(t *testing.T) {
	t.Parallel()
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		t.Errorf("the redirect to another host was followed: %s", r.URL)
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/here", http.StatusMovedPermanently)
		case "/here":
			w.Write([]byte(`{"ok":true}`))
		case "/other-host":
			http.Redirect(w, r, other.URL+"/steal", http.StatusFound)
		case "/metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		default:
			t.Errorf("unexpected request %s", r.URL)
		}
	}))
	defer srv.Close()
	c := New(Options{HTTP: srv.Client(), UserAgent: testUA})
	svc := Service{Name: "Wikipedia", URLKey: "tools.wiki.base_url"}

	var v struct{ OK bool }
	if err := c.GetJSON(context.Background(), svc, srv.URL+"/moved", &v); err != nil || !v.OK {
		t.Fatalf("a redirect within the host: %v, %+v", err, v)
	}
	for path, want := range map[string]string{
		"/other-host": "Wikipedia's redirect was not followed: it pointed to another host (" + strings.TrimPrefix(other.URL, "http://") + ")",
		"/metadata":   "pointed to another host (169.254.169.254)",
		"/loop":       "redirected more than 5 times",
	} {
		_, err := c.Get(context.Background(), svc, srv.URL+path)
		var werr *Error
		if !errors.As(err, &werr) || werr.Kind != KindRedirect || !strings.Contains(err.Error(), want) ||
			!strings.Contains(err.Error(), "check tools.wiki.base_url") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want a redirect error saying %q", path, err, want)
		}
	}
	if elsewhere.Load() != 0 {
		t.Errorf("another host got %d requests", elsewhere.Load())
	}
}

func TestCheckRedirect(t *testing.T) {
	t.Parallel()
	req := func(u string) *http.Request {
		parsed, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		return &http.Request{URL: parsed}
	}
	cases := []struct {
		from, to string
		ok       bool
	}{
		{"https://en.wikipedia.org/w/api.php", "https://en.wikipedia.org/wiki/X", true},
		{"https://en.wikipedia.org/a", "https://EN.wikipedia.org:443/b", true},
		{"http://en.wikipedia.org/a", "https://en.wikipedia.org/b", false}, // another port
		{"https://en.wikipedia.org/a", "https://evil.example/b", false},
		{"https://api.open-meteo.com/v1", "http://169.254.169.254/latest", false},
		{"http://93.184.216.34/a", "http://[::ffff:127.0.0.1]/b", false},
		{"http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b", true},
	}
	for _, c := range cases {
		err := checkRedirect(req(c.to), []*http.Request{req(c.from)})
		if (err == nil) != c.ok {
			t.Errorf("%s → %s: err = %v, want ok %v", c.from, c.to, err, c.ok)
		}
	}
}
