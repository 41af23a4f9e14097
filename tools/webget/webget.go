// Package webget is the one way gear's tools fetch from the web: every
// request has a deadline, a response size cap and gear's User-Agent, is
// retried once after a timeout or a server error, and fails with an error
// that says which service failed and what the user can do about it.
package webget

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Defaults used when an Options field is zero.
const (
	DefaultTimeout       = 10 * time.Second
	DefaultMaxBytes      = 2 << 20
	DefaultBackoff       = 500 * time.Millisecond
	DefaultMaxRetryAfter = 5 * time.Second
)

// attempts is how many times a request is tried: once, plus one retry.
const attempts = 2

// Options configure a Client. The zero value of each field means its default.
type Options struct {
	// HTTP sends the requests; tests pass an httptest server's client.
	HTTP *http.Client
	// UserAgent names the program and its version (Wikipedia requires one).
	UserAgent string
	// Timeout bounds each attempt, from sending the request to reading the
	// last byte of the body. With the one retry a request gives up after at
	// most about 2×Timeout plus the backoff.
	Timeout time.Duration
	// MaxBytes caps a response body; a longer body is an error.
	MaxBytes int64
	// Backoff is the wait before the retry when the server gives no
	// Retry-After.
	Backoff time.Duration
	// MaxRetryAfter caps a server's Retry-After: a server asking for a longer
	// wait gets no retry, and the error says when to try again.
	MaxRetryAfter time.Duration
}

// Service names what a request talks to, for error messages.
type Service struct {
	// Name is the service as users know it: "Open-Meteo", "Wikipedia".
	Name string
	// URLKey is the configuration key holding the service's base URL,
	// named in errors that a wrong URL could cause.
	URLKey string
	// Reason, when set, reads the service's own explanation out of an
	// error body ("reason" for Open-Meteo, "detail" for Wikipedia REST).
	Reason func(body []byte) string
	// TimeoutKey and SizeKey name where the deadline and the size cap are
	// set, for the errors that suggest raising them; empty means gear's
	// config keys tools.timeout and tools.max_response_bytes.
	TimeoutKey, SizeKey string
}

// Client fetches URLs under its Options. It holds no state between calls
// and is safe for concurrent use.
type Client struct {
	opts Options
	// lookup resolves a host name for a redirect's guard (redirect.go);
	// tests give their own.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

// New returns a client with opts, defaults filled in.
func New(opts Options) *Client {
	if opts.HTTP == nil {
		opts.HTTP = &http.Client{}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Backoff <= 0 {
		opts.Backoff = DefaultBackoff
	}
	if opts.MaxRetryAfter <= 0 {
		opts.MaxRetryAfter = DefaultMaxRetryAfter
	}
	return &Client{opts: opts, lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}}
}

// GetJSON fetches rawURL and decodes its JSON body into v. Any failure is
// an *Error.
func (c *Client) GetJSON(ctx context.Context, svc Service, rawURL string, v any) error {
	body, err := c.Get(ctx, svc, rawURL)
	if err != nil {
		return err
	}
	return DecodeJSON(svc, body, v)
}

// DecodeJSON decodes body into v; a body that is not the JSON v expects is
// a KindMalformed *Error.
func DecodeJSON(svc Service, body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return &Error{Service: svc, Kind: KindMalformed, Err: err}
	}
	return nil
}

// Get fetches rawURL and returns the body of a 2xx answer. Any failure is
// an *Error; a non-2xx answer is a KindStatus *Error carrying the status
// and body, so callers can treat a 404 as "not found".
func (c *Client) Get(ctx context.Context, svc Service, rawURL string) ([]byte, error) {
	return c.Do(ctx, svc, Request{URL: rawURL})
}

// Request is one request Do sends: a GET of URL unless Method says
// otherwise, with headers and a body (for the built-in tools that POST and
// for tools declared in files that talk to any HTTP API).
type Request struct {
	// Method is the HTTP method; "" means GET.
	Method string
	URL    string
	// ContentType is Body's type ("application/x-www-form-urlencoded").
	ContentType string
	// Body is sent as it is; nil sends none.
	Body []byte
	// Header holds extra headers (an Authorization), never logged. It is
	// set after gear's own User-Agent, Accept and Content-Type, so it may
	// replace them.
	Header http.Header
	// Accept is the Accept header; empty means application/json.
	Accept string
	// MaxBytes caps this response when larger than 0 (an image may be
	// larger than any JSON answer); 0 means the client's cap.
	MaxBytes int64
}

// Do sends req under the client's deadline, size cap and User-Agent and
// returns the body of a 2xx answer, failing as Get does. Only a GET or
// HEAD is retried: repeating any other method could do its work twice.
func (c *Client) Do(ctx context.Context, svc Service, req Request) ([]byte, error) {
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	tries := attempts
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		tries = 1
	}
	for attempt := 1; ; attempt++ {
		body, wait, err := c.try(ctx, svc, req)
		if err == nil {
			return body, nil
		}
		err.Attempts = attempt
		if !err.retryable() || attempt == tries {
			return nil, err
		}
		if wait < 0 {
			wait = c.opts.Backoff
		} else if wait > c.opts.MaxRetryAfter {
			err.RetryAfter = wait
			return nil, err
		}
		if cerr := sleep(ctx, wait); cerr != nil {
			if errors.Is(cerr, context.DeadlineExceeded) {
				return nil, &Error{Service: svc, Kind: KindTimeout, Attempts: attempt, Err: cerr, callerDeadline: true}
			}
			return nil, &Error{Service: svc, Kind: KindCanceled, Attempts: attempt, Err: cerr}
		}
	}
}

// try makes one attempt. wait is the server's Retry-After, or -1 when it
// gave none.
func (c *Client) try(ctx context.Context, svc Service, r Request) (body []byte, wait time.Duration, e *Error) {
	wait = -1
	if err := ctx.Err(); err != nil {
		return nil, wait, &Error{Service: svc, Kind: KindCanceled, Err: err}
	}
	actx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	var reqBody io.Reader
	if r.Body != nil {
		reqBody = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(actx, r.Method, r.URL, reqBody)
	if err != nil {
		return nil, wait, &Error{Service: svc, Kind: KindUnreachable, Err: err}
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	accept := r.Accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	if r.ContentType != "" {
		req.Header.Set("Content-Type", r.ContentType)
	}
	for k, vs := range r.Header {
		req.Header[http.CanonicalHeaderKey(k)] = vs
	}
	limit := c.opts.MaxBytes
	if r.MaxBytes > 0 {
		limit = r.MaxBytes
	}
	// The caller's client is shared; its redirect policy is replaced for
	// this request only.
	hc := *c.opts.HTTP
	hc.CheckRedirect = checkRedirect
	if publicOrigin(req.URL.Hostname()) {
		hc.Transport = &redirectGuard{base: transportOf(c.opts.HTTP), lookup: c.lookup}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, wait, c.transportError(ctx, actx, svc, err)
	}
	defer resp.Body.Close()
	if resp.ContentLength > limit {
		return nil, wait, &Error{Service: svc, Kind: KindTooLarge, Limit: limit}
	}
	body, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, wait, c.transportError(ctx, actx, svc, err)
	}
	if int64(len(body)) > limit {
		return nil, wait, &Error{Service: svc, Kind: KindTooLarge, Limit: limit}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := &Error{Service: svc, Kind: KindStatus, Status: resp.StatusCode, Body: body}
		if svc.Reason != nil {
			e.Reason = clip(svc.Reason(body), maxReasonLen)
		}
		if d, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			wait = d
		}
		return nil, wait, e
	}
	return body, wait, nil
}

// transportError classifies a failure to get an answer: the caller gave up
// (cancelled, or its own deadline passed), this attempt's deadline passed,
// or the service could not be reached.
func (c *Client) transportError(ctx, attemptCtx context.Context, svc Service, err error) *Error {
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return &Error{Service: svc, Kind: KindCanceled, Err: ctx.Err()}
	case ctx.Err() != nil:
		// The caller's own deadline: no time is left for a retry.
		return &Error{Service: svc, Kind: KindTimeout, Err: ctx.Err(), callerDeadline: true}
	case attemptCtx.Err() != nil || isTimeout(err):
		return &Error{Service: svc, Kind: KindTimeout, Timeout: c.opts.Timeout, Err: context.DeadlineExceeded}
	}
	if r, ok := asRedirect(err); ok {
		return &Error{Service: svc, Kind: KindRedirect, Err: r}
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	return &Error{Service: svc, Kind: KindUnreachable, Err: err}
}

func isTimeout(err error) bool {
	var nerr net.Error
	return errors.As(err, &nerr) && nerr.Timeout()
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(h string, now time.Time) (time.Duration, bool) {
	if h == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(h, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(24*time.Hour/time.Second) {
			secs = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(h)
	if err != nil {
		return 0, false
	}
	d := t.Sub(now)
	if d < 0 {
		d = 0
	}
	return d, true
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

const maxReasonLen = 200

// clip shortens s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// JSONReason returns a Service.Reason that reads the string field key of
// a JSON object body.
func JSONReason(key string) func([]byte) string {
	return func(body []byte) string {
		var m map[string]json.RawMessage
		if json.Unmarshal(body, &m) != nil {
			return ""
		}
		var s string
		if json.Unmarshal(m[key], &s) != nil {
			return ""
		}
		return s
	}
}

// describe spells a duration the way errors show it: "10s", "250ms".
func describe(d time.Duration) string {
	if d >= time.Second && d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}
