package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// callState is one call's state, handed by the client to the transport
// through a callDoer (go-openai sits between them): the JSON fields to merge into the request body
// (go-openai's request types have no extra-body field, and drop
// "temperature": 0 through omitempty), and what the transport saw.
type callState struct {
	// extra fields are set in the body, overriding go-openai's; drop names
	// fields to remove.
	extra map[string]any
	drop  []string

	// budget, when set, is shared with other calls (WithSharedBudget).
	budget *ResponseBudget

	attempts   int
	retryAfter time.Duration
	// raw is the last non-streamed response body.
	raw []byte
}

// callDoer is the HTTPDoer of one call's go-openai client: it sends
// through the shared transport with the call's state.
type callDoer struct {
	t  *transport
	st *callState
}

func (d callDoer) Do(req *http.Request) (*http.Response, error) { return d.t.do(req, d.st) }

// transport is the HTTPDoer go-openai sends through. Per attempt it applies
// the role's timeout (to the wait for the response and, for a stream, to
// every wait for the next bytes), reads non-streamed bodies whole so a cut
// body is caught here, and retries once on 429, 5xx or an attempt timeout,
// waiting as the server's Retry-After says.
type transport struct {
	next    *http.Client
	timeout time.Duration
	// backoff is the wait before the retry when the server names none;
	// maxWait is the longest Retry-After worth waiting for.
	backoff time.Duration
	maxWait time.Duration
	maxBody int64
	// maxLine caps one streamed line; maxBody also caps a whole stream.
	maxLine int
}

// Do sends a request that has no call state of its own (the probe).
func (t *transport) Do(req *http.Request) (*http.Response, error) { return t.do(req, &callState{}) }

func (t *transport) do(req *http.Request, st *callState) (*http.Response, error) {
	body, err := requestBody(req, st)
	if err != nil {
		return nil, err
	}
	stream := req.Header.Get("Accept") == "text/event-stream"
	for attempt := 1; ; attempt++ {
		st.attempts = attempt
		resp, err := t.attempt(req, body, stream, st)
		wait, retry := t.retryWait(req.Context(), resp, err, attempt, st)
		if !retry {
			return resp, err
		}
		if resp != nil {
			resp.Body.Close()
		}
		timer := time.NewTimer(wait)
		select {
		case <-req.Context().Done():
			timer.Stop()
			return nil, req.Context().Err()
		case <-timer.C:
		}
	}
}

// requestBody reads go-openai's JSON body and merges the call's extra fields.
func requestBody(req *http.Request, st *callState) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil || (len(st.extra) == 0 && len(st.drop) == 0) {
		return body, err
	}
	return mergeJSON(body, st.extra, st.drop)
}

// mergeJSON sets extra's fields in the JSON object body and removes drop's.
func mergeJSON(body []byte, extra map[string]any, drop []string) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return nil, fmt.Errorf("request body is not a JSON object: %w", err)
	}
	for _, k := range drop {
		delete(fields, k)
	}
	for k, v := range extra {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("request field %s: %w", k, err)
		}
		fields[k] = raw
	}
	return json.Marshal(fields)
}

func (t *transport) attempt(req *http.Request, body []byte, stream bool, st *callState) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	w := newWatchdog(t.timeout, cancel)
	r := req.Clone(ctx)
	if body != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := t.next.Do(r)
	if err != nil {
		w.stop()
		if w.fired.Load() {
			return nil, &timeoutError{phase: "waiting for the response", after: t.timeout}
		}
		return nil, err
	}
	if stream && resp.StatusCode < 400 {
		resp.Body = newSSEBody(&idleBody{rc: resp.Body, w: w, timeout: t.timeout}, t.maxLine, t.maxBody)
		return resp, nil
	}
	var src io.Reader = resp.Body
	if st.budget != nil {
		src = budgetReader{r: resp.Body, b: st.budget}
	}
	data, err := io.ReadAll(io.LimitReader(src, t.maxBody+1))
	resp.Body.Close()
	w.stop()
	var over *BudgetError
	switch {
	case err != nil && req.Context().Err() != nil:
		return nil, req.Context().Err()
	case errors.As(err, &over):
		return nil, over
	case err != nil && w.fired.Load():
		return nil, &timeoutError{phase: "reading the response", after: t.timeout}
	case err != nil:
		return nil, fmt.Errorf("reading the response body: %w", io.ErrUnexpectedEOF)
	case int64(len(data)) > t.maxBody:
		return nil, fmt.Errorf("response body larger than %d bytes: %w", t.maxBody, io.ErrUnexpectedEOF)
	}
	st.raw = data
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp, nil
}

// retryWait decides whether a failed attempt is tried once more, and after
// how long: 429 and 5xx wait as Retry-After (or retry-after-ms) says, else
// the backoff; an attempt timeout is retried after the backoff. Nothing is
// retried when the wait would outlast the caller's deadline or maxWait, or
// when the 429 says the quota is spent.
func (t *transport) retryWait(ctx context.Context, resp *http.Response, err error, attempt int, st *callState) (time.Duration, bool) {
	wait := t.backoff
	switch {
	case err != nil:
		var tmo *timeoutError
		if !asTimeout(err, &tmo) {
			return 0, false
		}
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		if d, ok := retryAfter(resp.Header, time.Now()); ok {
			wait = d
			st.retryAfter = d
		}
		if resp.StatusCode == http.StatusTooManyRequests && bytes.Contains(st.raw, []byte("insufficient_quota")) {
			return 0, false
		}
	default:
		return 0, false
	}
	if attempt >= 2 || ctx.Err() != nil || wait > t.maxWait {
		return 0, false
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
		return 0, false
	}
	return wait, true
}

func asTimeout(err error, target **timeoutError) bool {
	t, ok := err.(*timeoutError)
	if ok {
		*target = t
	}
	return ok
}

// retryAfter reads OpenAI's retry-after-ms, then the standard Retry-After
// (seconds or an HTTP date).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if at, err := http.ParseTime(v); err == nil {
		if d := at.Sub(now); d > 0 {
			return d, true
		}
		return 0, true
	}
	return 0, false
}

// watchdog cancels an attempt when its timer runs out; a stream resets the
// timer on every read, so it measures silence, not total length.
type watchdog struct {
	mu     sync.Mutex
	timer  *time.Timer
	cancel context.CancelFunc
	fired  atomic.Bool
}

func newWatchdog(d time.Duration, cancel context.CancelFunc) *watchdog {
	w := &watchdog{cancel: cancel}
	w.timer = time.AfterFunc(d, func() {
		w.fired.Store(true)
		cancel()
	})
	return w
}

func (w *watchdog) reset(d time.Duration) {
	w.mu.Lock()
	if !w.fired.Load() {
		w.timer.Reset(d)
	}
	w.mu.Unlock()
}

func (w *watchdog) stop() {
	w.mu.Lock()
	w.timer.Stop()
	w.mu.Unlock()
	w.cancel()
}

// idleBody is a streamed body whose reads keep the watchdog from firing.
type idleBody struct {
	rc      io.ReadCloser
	w       *watchdog
	timeout time.Duration
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.w.reset(b.timeout)
	}
	if err != nil && err != io.EOF && b.w.fired.Load() {
		err = &timeoutError{phase: "waiting for the next streamed chunk", after: b.timeout}
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.w.stop()
	return b.rc.Close()
}
