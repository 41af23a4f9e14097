package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
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
	// raw keeps the listed tools' schemas as written, for their
	// properties' order (rawlist.go).
	raw *rawSchemas
	mu  sync.Mutex
	// skipped are the last listing's tools left out of the library, by
	// their names on the server.
	skipped map[string]LeftOut
	// secrets are the texts no message may show: the URL's query and the
	// headers' values once expanded (keys).
	secrets []string
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
	c := &Conn{server: s, opts: opts, raw: &rawSchemas{}}
	transport, err := c.transport(ctx)
	if err != nil {
		return nil, &ConnectError{Server: s.Name, Err: err, secrets: c.secrets}
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
		if _, ok := s.Transport.(*sdk.StreamableClientTransport); ok {
			// Its Connection cannot be wrapped (rawlist.go); the
			// schemas keep the order the SDK leaves them.
			return s.Transport, nil
		}
		return recordingTransport{Transport: s.Transport, raw: c.raw}, nil
	}
	if s.IsHTTP() {
		headers := make(http.Header, len(s.Headers))
		for k, v := range s.Headers {
			ev, err := Expand(v, c.opts.Getenv)
			if err != nil {
				return nil, fmt.Errorf("header %s: %w", k, err)
			}
			headers.Set(k, ev)
			// A key is long; a short value ("2", "json") redacted would
			// blank out every such word of a message instead.
			for _, sec := range append([]string{ev}, strings.Fields(ev)...) {
				if len(sec) >= 8 {
					c.secrets = append(c.secrets, sec)
				}
			}
		}
		if u, err := url.Parse(s.URL); err == nil {
			if u.RawQuery != "" {
				c.secrets = append(c.secrets, u.RawQuery)
			}
			if u.User != nil {
				c.secrets = append(c.secrets, u.User.String())
			}
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
		hc.Transport = headerTransport{base: rt, headers: headers, raw: c.raw}
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
	return recordingTransport{Transport: &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, raw: c.raw}, nil
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
	return &ConnectError{Server: c.server.Name, Err: err, secrets: c.secrets}
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
	Server  string
	Err     error
	secrets []string
}

func (e *ConnectError) Error() string {
	return "mcp server " + e.Server + ": " + scrub(oneLine(e.Err.Error()), e.secrets)
}

// scrub replaces every secret in s: an error of net/http names the URL it
// called, query and all; a server may echo a header back.
func scrub(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	return s
}

func (e *ConnectError) Unwrap() error { return e.Err }

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
	raw     *rawSchemas // nil: answers are not read for tools' schemas
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		r = r.Clone(r.Context())
		for k, vs := range t.headers {
			r.Header[k] = vs
		}
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	stream := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	if !stream {
		// One JSON answer is bounded as one stdio frame or one event is
		// by the SDK; an event stream is bounded per event.
		resp.Body = &cappedBody{ReadCloser: resp.Body, left: MaxMessageBytes}
	}
	if t.raw != nil && r.Method == http.MethodPost {
		if stream {
			resp.Body = &recordSSEBody{ReadCloser: resp.Body, raw: t.raw}
		} else if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			resp.Body = &recordJSONBody{ReadCloser: resp.Body, raw: t.raw}
		}
	}
	return resp, nil
}

// MaxMessageBytes bounds one message from a server: the SDK's own bound on
// a stdio frame and on an event of a stream, and gear's on a plain JSON
// answer over HTTP.
const MaxMessageBytes = sdk.DefaultMaxLineLength

// cappedBody fails a body that goes on past its bound.
type cappedBody struct {
	io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("the server's answer is larger than %d bytes", MaxMessageBytes)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
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
