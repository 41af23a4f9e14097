package llm

import (
	"context"
	"net/http"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Client calls one role's model. It is safe for concurrent use.
type Client struct {
	ep Endpoint
	// cfg is go-openai's configuration; each call gets its own go-openai
	// client sending through a callDoer, so the call's state reaches the
	// transport as a value rather than through the request's context.
	cfg openai.ClientConfig
	// oa sends the calls that have no state of their own (the probe).
	oa *openai.Client
	tr *transport

	probeOnce sync.Once
	mu        sync.Mutex
	kind      ServerKind
}

type options struct {
	http    *http.Client
	backoff time.Duration
	maxWait time.Duration
	maxBody int64
	maxLine int
}

// Option adjusts a Client.
type Option func(*options)

// WithHTTPClient sends every request through hc (tests replace its
// transport; gear passes its shared client).
func WithHTTPClient(hc *http.Client) Option { return func(o *options) { o.http = hc } }

// WithRetryBackoff sets the wait before the one retry when the server names
// none in Retry-After (default 500ms).
func WithRetryBackoff(d time.Duration) Option { return func(o *options) { o.backoff = d } }

// WithMaxRetryWait sets the longest Retry-After worth waiting for before the
// retry (default 30s); a longer one fails at once with ErrRateLimited.
func WithMaxRetryWait(d time.Duration) Option { return func(o *options) { o.maxWait = d } }

// WithStreamLimits sets the longest streamed line (default 1 MiB) and the
// longest response, streamed or not (default 64 MiB).
func WithStreamLimits(line int, total int64) Option {
	return func(o *options) { o.maxLine, o.maxBody = line, total }
}

// New makes a client for a resolved endpoint. An offline endpoint has no
// server to call: New refuses it with ErrOffline.
func New(ep Endpoint, opts ...Option) (*Client, error) {
	if ep.Offline {
		return nil, &Error{Kind: ErrOffline, Role: ep.Role, Detail: ep.OfflineReason}
	}
	o := options{http: &http.Client{}, backoff: 500 * time.Millisecond, maxWait: 30 * time.Second, maxBody: 64 << 20, maxLine: defaultMaxStreamLine}
	for _, opt := range opts {
		opt(&o)
	}
	if ep.Timeout <= 0 {
		ep.Timeout = 60 * time.Second
	}
	if ep.BatchSize <= 0 {
		ep.BatchSize = 64
	}
	if ep.API == "" {
		ep.API = "chat"
	}
	if ep.Server == "" {
		ep.Server, ep.ServerFrom = DetectServer(ep.BaseURL)
	}
	tr := &transport{next: o.http, timeout: ep.Timeout, backoff: o.backoff, maxWait: o.maxWait, maxBody: o.maxBody, maxLine: o.maxLine}
	cfg := openai.DefaultConfig(ep.APIKey.Reveal())
	cfg.BaseURL = ep.BaseURL
	cfg.HTTPClient = tr
	return &Client{ep: ep, cfg: cfg, oa: openai.NewClientWithConfig(cfg), tr: tr, kind: ep.Server}, nil
}

// Endpoint is the client's endpoint (its key stays redacted when printed).
func (c *Client) Endpoint() Endpoint { return c.ep }

// Capabilities is what gear uses on this client's server; when the kind was
// not known from the configuration or the base URL, the first call probes
// GET /v1/models once.
func (c *Client) Capabilities(ctx context.Context) Capabilities {
	return CapabilitiesOf(c.serverFor(ctx, true))
}

func (c *Client) server() ServerKind {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kind
}

// serverFor gives the server kind, probing once when a call depends on it
// and neither the configuration nor the base URL said.
func (c *Client) serverFor(ctx context.Context, needed bool) ServerKind {
	if needed && c.ep.ServerFrom == "unknown" {
		c.probeOnce.Do(func() { c.probe(ctx) })
	}
	return c.server()
}

// probe reads /v1/models: llama.cpp's server and vLLM name themselves in
// owned_by ("llamacpp", "vllm"); anything else stays generic.
func (c *Client) probe(ctx context.Context) {
	d := c.ep.Timeout
	if d > 5*time.Second {
		d = 5 * time.Second
	}
	pctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	models, err := c.oa.ListModels(pctx)
	if err != nil {
		return
	}
	for _, m := range models.Models {
		kind := ServerGeneric
		switch m.OwnedBy {
		case "llamacpp":
			kind = ServerLlamaCpp
		case "vllm":
			kind = ServerVLLM
		}
		if kind != ServerGeneric {
			c.mu.Lock()
			c.kind = kind
			c.mu.Unlock()
			return
		}
	}
}

// call is one request's bookkeeping.
type call struct {
	// oa sends this call's requests through a callDoer holding st.
	oa    *openai.Client
	st    *callState
	start time.Time
	name  string
}

// begin starts a call's bookkeeping: extra and drop adjust its JSON body,
// budget (when set) is shared with other calls.
func (c *Client) begin(name string, budget *ResponseBudget, extra map[string]any, drop ...string) *call {
	st := &callState{extra: extra, drop: drop, budget: budget}
	cfg := c.cfg
	cfg.HTTPClient = callDoer{t: c.tr, st: st}
	return &call{oa: openai.NewClientWithConfig(cfg), st: st, start: time.Now(), name: name}
}

// usage fills in what every call's Usage has; tokens come from the caller.
func (c *Client) usage(k *call) Usage {
	return Usage{Role: c.ep.Role, Call: k.name, Server: c.server(), Model: c.ep.Model,
		Latency: time.Since(k.start), Attempts: k.st.attempts}
}

// fail records a failed call and builds its error.
func (c *Client) fail(ctx context.Context, k *call, err error, u Usage) error {
	u.Failed = true
	if u.Latency == 0 {
		u.Latency = time.Since(k.start)
	}
	record(ctx, u)
	return c.newError(ctx, err, k.st)
}

// unsupported is the error for a feature this server does not have; no
// request is sent.
func (c *Client) unsupported(feature string) error {
	return &Error{Kind: ErrUnsupported, Role: c.ep.Role, Server: c.server(), BaseURL: c.ep.BaseURL, Model: c.ep.Model,
		Detail: feature, Hint: "see the capability table in docs/models.md; set models." + string(c.ep.Role) + ".server if the kind is wrong"}
}
