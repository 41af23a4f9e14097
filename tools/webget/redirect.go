package webget

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
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

// redirectGuard carries a request to a public service and its redirects.
// The request goes where its URL says. A redirect — on the same host name,
// checkRedirect sees to that — is dialled only to an address that name
// resolves to when the redirect is followed, and never to an internal one
// (loopback, private, link-local, a metadata service): a public name that
// re-resolves into the machine or its network (DNS rebinding) is refused.
// The address checked is the address dialled, so the answer cannot change
// in between.
type redirectGuard struct {
	base   http.RoundTripper
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

func (g *redirectGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Response == nil { // not a redirect
		return g.base.RoundTrip(req)
	}
	host := req.URL.Hostname()
	if ip, err := netip.ParseAddr(host); err == nil {
		if internal(ip) {
			return nil, internalRedirect(host, ip)
		}
		return g.base.RoundTrip(req)
	}
	addrs, err := g.lookup(req.Context(), host)
	if err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	for _, a := range addrs {
		if internal(a) {
			return nil, internalRedirect(host, a)
		}
	}
	t, ok := g.base.(*http.Transport)
	if !ok || viaProxy(t, req) {
		// A transport gear cannot point at an address, or a proxy that
		// resolves the name itself: the check above is all there is.
		return g.base.RoundTrip(req)
	}
	pinned := t.Clone()
	// One connection for this redirect, closed after it: the shared
	// pool keeps only connections it dialled itself.
	pinned.DisableKeepAlives = true
	dial := t.DialContext
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}
	to := net.JoinHostPort(addrs[0].Unmap().String(), port(req.URL.Scheme, req.URL.Port()))
	pinned.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return dial(ctx, network, to)
	}
	pinned.DialTLSContext = nil
	return pinned.RoundTrip(req)
}

// viaProxy reports whether t sends req through a proxy.
func viaProxy(t *http.Transport, req *http.Request) bool {
	if t.Proxy == nil {
		return false
	}
	u, err := t.Proxy(req)
	return err != nil || u != nil
}

func internalRedirect(host string, ip netip.Addr) error {
	return &redirectError{fmt.Sprintf("it led to %s, which is an internal address (%s), and gear does not follow a public service into the machine or its network", host, ip)}
}

// sharedAddressSpace is 100.64.0.0/10, carrier-grade NAT's.
var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")

// internal reports whether ip is the machine, its network or a
// link-local service (a cloud's metadata address): not the public internet.
func internal(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsUnspecified() || ip.IsMulticast() || sharedAddressSpace.Contains(ip)
}

// publicOrigin reports whether a request's host is a public service's: a
// public IP address, or a host name that is not the machine's or a local
// network's by its form (localhost, one label, .local, .lan, .internal,
// .home.arpa). A service configured on the machine or the local network
// has its redirects followed as before (on its own host only).
func publicOrigin(host string) bool {
	if ip, err := netip.ParseAddr(host); err == nil {
		return !internal(ip)
	}
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "localhost" || !strings.Contains(h, ".") {
		return false
	}
	for _, local := range []string{".localhost", ".local", ".lan", ".internal", ".home.arpa", ".localdomain"} {
		if strings.HasSuffix(h, local) {
			return false
		}
	}
	return true
}

// transportOf is the transport a client sends with.
func transportOf(c *http.Client) http.RoundTripper {
	if c.Transport != nil {
		return c.Transport
	}
	return http.DefaultTransport
}
