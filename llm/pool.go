package llm

import (
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// IdleConnsPerHost is how many idle connections a Transports client keeps
// per endpoint: enough for a wave of grounding's concurrent requests
// (grounding.DefaultConcurrency and the embedding, routing and chat
// requests beside them) to find warm connections the next turn. Go's
// default keeps 2, so every turn would open — and, over TLS, handshake —
// most of its connections again.
const IdleConnsPerHost = 32

// Transports hands out one HTTP client per endpoint (scheme and host), each
// with its own keep-alive transport, so the roles served by one server
// share warm connections and a slow server cannot hold another's. It is
// safe for concurrent use; make one per process.
type Transports struct {
	mu      sync.Mutex
	clients map[string]*http.Client
}

// NewTransports makes an empty set.
func NewTransports() *Transports { return &Transports{clients: map[string]*http.Client{}} }

// For is the client for baseURL's endpoint.
func (t *Transports) For(baseURL string) *http.Client {
	key := baseURL
	if u, err := url.Parse(baseURL); err == nil && u.Host != "" {
		key = u.Scheme + "://" + u.Host
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.clients[key]; ok {
		return c
	}
	c := &http.Client{Transport: newTransport()}
	t.clients[key] = c
	return c
}

// CloseIdle closes every idle connection (at exit, or in tests).
func (t *Transports) CloseIdle() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.clients {
		c.CloseIdleConnections()
	}
}

func newTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          4 * IdleConnsPerHost,
		MaxIdleConnsPerHost:   IdleConnsPerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}
