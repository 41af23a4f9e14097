package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gear-chat/gear/sanitize"
)

// Defaults of Options.
const (
	DefaultConnectTimeout = 20 * time.Second
	DefaultCallTimeout    = 30 * time.Second
	DefaultMaxResultBytes = 1 << 20
)

// Options bound and equip every connection.
type Options struct {
	// ConnectTimeout bounds starting a server, the handshake and the first
	// listing.
	ConnectTimeout time.Duration
	// CallTimeout bounds every tool call.
	CallTimeout time.Duration
	// MaxResultBytes caps a result's text (and each saved image).
	MaxResultBytes int
	// DataDir is where images and other binary results are saved (in its
	// mcp/ folder); empty means they are described, not saved.
	DataDir string
	// Getenv expands ${NAME} in headers and env values.
	Getenv Getenv
	// HTTP is the client for HTTP servers; nil means a new one.
	HTTP *http.Client
	// Version is gear's version, sent in the handshake.
	Version string
}

func (o Options) withDefaults() Options {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.MaxResultBytes <= 0 {
		o.MaxResultBytes = DefaultMaxResultBytes
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	return o
}

// Conn is one live session with a server.
type Conn struct {
	server  Server
	opts    Options
	session *sdk.ClientSession
	stderr  *tailBuffer
}

// Connect starts (or dials) the server and completes the MCP handshake
// within Options.ConnectTimeout. A stdio server is stopped when ctx ends. onToolsChanged, when not nil, is called
// (from the SDK's goroutine) when the server sends
// notifications/tools/list_changed.
func Connect(ctx context.Context, s Server, opts Options, onToolsChanged func()) (*Conn, error) {
	opts = opts.withDefaults()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	c := &Conn{server: s, opts: opts}
	transport, err := c.transport(ctx)
	if err != nil {
		return nil, &ConnectError{Server: s.Name, Err: err}
	}
	copts := &sdk.ClientOptions{}
	if onToolsChanged != nil {
		copts.ToolListChangedHandler = func(context.Context, *sdk.ToolListChangedRequest) { onToolsChanged() }
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "gear", Version: opts.Version}, copts)
	cctx, cancel := context.WithTimeout(ctx, opts.ConnectTimeout)
	defer cancel()
	session, err := client.Connect(cctx, transport, nil)
	if err != nil {
		return nil, c.connectError(cctx, err)
	}
	c.session = session
	return c, nil
}

// transport makes the way to the server; a stdio server lives as long as
// ctx (the session's, not the handshake's).
func (c *Conn) transport(ctx context.Context) (sdk.Transport, error) {
	s := c.server
	if s.Transport != nil {
		return s.Transport, nil
	}
	if s.IsHTTP() {
		headers := make(http.Header, len(s.Headers))
		for k, v := range s.Headers {
			ev, err := Expand(v, c.opts.Getenv)
			if err != nil {
				return nil, fmt.Errorf("header %s: %w", k, err)
			}
			headers.Set(k, ev)
		}
		base := c.opts.HTTP
		if base == nil {
			base = &http.Client{}
		}
		hc := *base
		rt := hc.Transport
		if rt == nil {
			rt = http.DefaultTransport
		}
		hc.Transport = headerTransport{base: rt, headers: headers}
		return &sdk.StreamableClientTransport{Endpoint: s.URL, HTTPClient: &hc, MaxRetries: 3}, nil
	}
	env, err := s.environ(c.opts.Getenv)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, s.Command, s.Args...)
	cmd.Env, cmd.Dir = env, s.Dir
	// The server's stderr never reaches gear's terminal (it would tear the
	// chat window); its last lines explain a failure.
	c.stderr = &tailBuffer{max: 4096}
	cmd.Stderr = c.stderr
	return &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil
}

// connectError explains a failed handshake in one line: the deadline, the
// command's absence, or the server's last words on stderr.
func (c *Conn) connectError(ctx context.Context, err error) error {
	var ee *exec.Error
	var pe *fs.PathError
	switch {
	case errors.As(err, &ee):
		err = fmt.Errorf("cannot start %s: %v", c.server.Command, ee.Err)
	case errors.As(err, &pe) && c.server.Command != "":
		err = fmt.Errorf("cannot start %s: %v", c.server.Command, pe.Err)
	case ctx.Err() == context.DeadlineExceeded:
		err = fmt.Errorf("no answer within %s", c.opts.ConnectTimeout)
	}
	if c.stderr != nil {
		if tail := c.stderr.lastLine(); tail != "" {
			err = fmt.Errorf("%w (server said: %s)", err, tail)
		}
	}
	return &ConnectError{Server: c.server.Name, Err: err}
}

// Server is the server this connection reaches.
func (c *Conn) Server() Server { return c.server }

// ServerInfo is the server's name and version from the handshake.
func (c *Conn) ServerInfo() string {
	r := c.session.InitializeResult()
	if r == nil || r.ServerInfo == nil {
		return ""
	}
	return sanitize.Line(strings.TrimSpace(r.ServerInfo.Name + " " + r.ServerInfo.Version))
}

// Close ends the session (and stops a stdio server).
func (c *Conn) Close() error {
	if c.session == nil {
		return nil
	}
	return c.session.Close()
}

// ConnectError is a server that could not be reached or refused the
// handshake.
type ConnectError struct {
	Server string
	Err    error
}

func (e *ConnectError) Error() string {
	return "mcp server " + e.Server + ": " + oneLine(e.Err.Error())
}

func (e *ConnectError) Unwrap() error { return e.Err }

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		r = r.Clone(r.Context())
		for k, vs := range t.headers {
			r.Header[k] = vs
		}
	}
	return t.base.RoundTrip(r)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

// lastLine is the last non-empty line written, sanitised and shortened.
func (b *tailBuffer) lastLine() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := strings.Split(string(b.buf), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := oneLine(lines[i]); l != "" {
			return clip(l, 200)
		}
	}
	return ""
}

// oneLine makes untrusted text safe on one line, spaces folded.
func oneLine(s string) string { return strings.Join(strings.Fields(sanitize.Line(s)), " ") }

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
