package webget

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// maxRedirects is how many redirects one request follows.
const maxRedirects = 5

// redirectError is a redirect gear did not follow.
type redirectError struct{ reason string }

func (e *redirectError) Error() string { return e.reason }

// checkRedirect follows a redirect only to the host (and port) the request
// was sent to: a tool's service cannot send gear on to another server —
// nor so, from a public address, to the machine itself, its network or a
// cloud's metadata service (loopback, private and link-local addresses).
func checkRedirect(req *http.Request, via []*http.Request) error {
	from, to := via[0].URL, req.URL
	switch {
	case len(via) >= maxRedirects:
		return &redirectError{fmt.Sprintf("it redirected more than %d times", maxRedirects)}
	case !strings.EqualFold(from.Hostname(), to.Hostname()) || port(from.Scheme, from.Port()) != port(to.Scheme, to.Port()):
		return &redirectError{"it pointed to another host (" + to.Host + "), and gear follows redirects only within the same host"}
	}
	return nil
}

// port is the URL's port, the scheme's default when none is written.
func port(scheme, p string) string {
	if p != "" {
		return p
	}
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// asRedirect finds a refused redirect in a transport error.
func asRedirect(err error) (*redirectError, bool) {
	var r *redirectError
	ok := errors.As(err, &r)
	return r, ok
}
