package webget

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
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

// A public service's redirect on its own host name is dialled only to a
// public address that name resolves to when the redirect is followed: a
// name that re-resolves to a private, loopback or metadata address (DNS
// rebinding) is refused in one line, and the address checked is the
// address dialled. A service on the machine keeps its redirects.
func TestRedirectNeverReResolvesInside(t *testing.T) {
	t.Parallel()
	var here atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/here", http.StatusFound)
		case "/here":
			here.Add(1)
			w.Write([]byte(`{"ok":true}`))
		default:
			t.Errorf("unexpected request %s", r.URL)
		}
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	// Every connection, whatever address it is for, reaches the test
	// server; the addresses asked for are recorded.
	var mu sync.Mutex
	var dialled []string
	transport := srv.Client().Transport.(*http.Transport).Clone()
	transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		dialled = append(dialled, addr)
		mu.Unlock()
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	svc := Service{Name: "Wikipedia", URLKey: "tools.wiki.base_url"}
	for _, tc := range []struct {
		name, host, resolves string
		want                 string // "" follows
		wantDial             string
	}{
		{"a public name that re-resolves to a private address", "wiki.example.org", "10.0.0.5", "internal address (10.0.0.5)", ""},
		{"to loopback", "wiki.example.org", "127.0.0.1", "internal address (127.0.0.1)", ""},
		{"to the metadata service", "wiki.example.org", "169.254.169.254", "internal address (169.254.169.254)", ""},
		{"to a mapped loopback", "wiki.example.org", "::ffff:127.0.0.1", "internal address", ""},
		{"a public address", "wiki.example.org", "93.184.216.34", "", "93.184.216.34:" + port},
		{"a local name keeps its redirects", "translate.lan", "192.168.1.20", "", "translate.lan:" + port},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			dialled = nil
			mu.Unlock()
			before := here.Load()
			c := New(Options{HTTP: &http.Client{Transport: transport}, UserAgent: testUA})
			c.lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
				if host != tc.host {
					t.Errorf("looked up %q", host)
				}
				return []netip.Addr{netip.MustParseAddr(tc.resolves)}, nil
			}
			_, err := c.Get(context.Background(), svc, "http://"+tc.host+":"+port+"/moved")
			if tc.want != "" {
				var werr *Error
				if !errors.As(err, &werr) || werr.Kind != KindRedirect || !strings.Contains(err.Error(), tc.want) ||
					!strings.Contains(err.Error(), "check tools.wiki.base_url") || strings.Contains(err.Error(), "\n") {
					t.Fatalf("err = %v, want a redirect error saying %q", err, tc.want)
				}
				if here.Load() != before {
					t.Error("the redirect was followed")
				}
				return
			}
			if err != nil || here.Load() != before+1 {
				t.Fatalf("err = %v, followed %d", err, here.Load()-before)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(dialled) == 0 || dialled[len(dialled)-1] != tc.wantDial {
				t.Errorf("dialled %v; the redirect should go to %s", dialled, tc.wantDial)
			}
		})
	}
}

func TestPublicOriginAndInternal(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]bool{
		"en.wikipedia.org": true, "api.open-meteo.com.": true, "93.184.216.34": true,
		"localhost": false, "127.0.0.1": false, "10.1.2.3": false, "::1": false, "printer": false,
		"translate.lan": false, "nas.local": false, "svc.internal": false, "a.home.arpa": false, "x.localhost": false,
		"100.64.0.1": false, "169.254.169.254": false, "fd00::1": false,
	} {
		if got := publicOrigin(host); got != want {
			t.Errorf("publicOrigin(%q) = %v, want %v", host, got, want)
		}
	}
}
