package declared

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/webget"
)

// httpExec sends one request per call through gear's web client (deadline,
// size cap, User-Agent, one retry of a GET, errors that say what to do).
type httpExec struct {
	method  string
	url     template
	query   []namedTemplate
	headers []namedTemplate
	body    *bodyTemplate
	web     *webget.Client
	svc     webget.Service
	getenv  func(string) string
}

type namedTemplate struct {
	name string
	t    template
}

func parseHTTP(ps *problems, n *yaml.Node, spec tools.Spec, path string, opts Options) executor {
	f, ok := readFields(ps, n, "http", "method", "url", "query", "headers", "body", "error_pointer", "timeout", "max_bytes")
	if !ok {
		return nil
	}
	x := &httpExec{getenv: opts.Getenv}
	method, _ := f.str(ps, "method")
	x.method = strings.ToUpper(method)
	if x.method == "" {
		x.method = http.MethodGet
	}
	if !contains(httpMethods, x.method) {
		ps.at(f.values["method"], "method %q: want one of %s", method, strings.Join(httpMethods, ", "))
	}
	rawURL, _ := f.str(ps, "url")
	urlNode := f.keyOr("url", n)
	if v, ok := f.values["url"]; ok {
		urlNode = v
	}
	if rawURL == "" {
		ps.at(urlNode, "http needs url: the address to send to, with {parameters} where arguments go")
	} else if t, err := parseTemplate(rawURL, false); err != nil {
		ps.at(urlNode, "url: %v", err)
	} else if err := t.check(spec); err != nil {
		ps.at(urlNode, "url: %v", err)
	} else {
		x.url = t
		checkURL(ps, urlNode, rawURL, t, spec)
	}
	x.query = namedTemplates(ps, f, "query", spec, true)
	x.headers = namedTemplates(ps, f, "headers", spec, true)
	for _, h := range x.headers {
		if !validHeaderName(h.name) {
			ps.at(f.values["headers"], "header name %q: want letters, digits and -", h.name)
		}
	}
	if b, ok := f.values["body"]; ok {
		if x.method == http.MethodGet || x.method == http.MethodHead {
			ps.at(b, "a %s request has no body; use query: for its parameters, or method: POST", x.method)
		} else {
			x.body = parseBody(ps, b, spec, 0)
		}
	}
	timeout := durationField(ps, f, "timeout", opts.Timeout)
	maxBytes := bytesField(ps, f, "max_bytes", opts.MaxBytes)
	host := rawURL
	if u, err := url.Parse(strings.SplitN(rawURL, "{", 2)[0]); err == nil && u.Host != "" {
		host = u.Host
	}
	x.svc = webget.Service{
		Name:       fmt.Sprintf("tool %s (%s)", spec.Name, host),
		URLKey:     fmt.Sprintf("url in %s", path),
		TimeoutKey: fmt.Sprintf("timeout in %s", path),
		SizeKey:    fmt.Sprintf("max_bytes in %s", path),
	}
	if v, ok := f.values["error_pointer"]; ok {
		src, _ := f.str(ps, "error_pointer")
		if p, err := parsePointer(src); err != nil || src == "" {
			ps.at(v, "error_pointer %q: want a JSON pointer to the service's explanation in an error answer, like /error/message", src)
		} else {
			x.svc.Reason = p.reason
		}
	}
	x.web = webget.New(webget.Options{HTTP: opts.HTTP, UserAgent: opts.UserAgent, Timeout: timeout, MaxBytes: maxBytes})
	return x
}

// escapePathSegment escapes an argument for a URL's path: / and every
// other reserved byte are escaped, and an argument that is . or .. has
// its dots escaped too, so it cannot climb out of its segment.
func escapePathSegment(s string) string {
	if s == "." || s == ".." {
		return strings.Repeat("%2E", len(s))
	}
	return url.PathEscape(s)
}

// checkURL refuses a URL that is not http(s) or that puts an optional
// parameter where leaving it out would change the path.
func checkURL(ps *problems, n *yaml.Node, raw string, t template, spec tools.Spec) {
	prefix := raw
	if i := strings.IndexByte(raw, '{'); i >= 0 {
		prefix = raw[:i]
	}
	scheme, rest, _ := strings.Cut(raw, "://")
	host, _, _ := strings.Cut(rest, "/")
	switch {
	case !strings.HasPrefix(prefix, "http://") && !strings.HasPrefix(prefix, "https://"):
		ps.at(n, "url %q must start with http:// or https:// (not with a parameter)", raw)
	case strings.Contains(host, "{") || strings.Contains(scheme, "{"):
		// The server is the file's choice, never an argument's: a
		// query must not be able to send the request elsewhere.
		ps.at(n, "url %q: the server (%s) must be fixed text; parameters go in the path or query:", raw, host)
	}
	if strings.ContainsAny(raw, "?#") {
		ps.at(n, "url %q: put query parameters under query: (they are escaped there), not in the url", raw)
	}
	for _, name := range t.params() {
		if p, _ := spec.Param(name); p.Optional {
			ps.at(n, "url names the optional parameter {%s}; make it required or move it to query:", name)
		}
	}
}

func namedTemplates(ps *problems, f fields, key string, spec tools.Spec, allowEnv bool) []namedTemplate {
	pairs, nodes, _ := f.strMap(ps, key)
	var out []namedTemplate
	for i, kv := range pairs {
		t, err := parseTemplate(kv[1], allowEnv)
		if err != nil {
			ps.at(nodes[i], "%s.%s: %v", key, kv[0], err)
			continue
		}
		if err := t.check(spec); err != nil {
			ps.at(nodes[i], "%s.%s: %v", key, kv[0], err)
			continue
		}
		out = append(out, namedTemplate{name: kv[0], t: t})
	}
	return out
}

func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnumByte(c) && c != '-' {
			return false
		}
	}
	return true
}

func isAlnumByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (x *httpExec) defaultEffect() tools.Effect {
	if x.method == http.MethodGet || x.method == http.MethodHead {
		return tools.EffectReadOnly
	}
	return tools.EffectWrites
}

func (x *httpExec) run(ctx context.Context, call tools.Call) ([]byte, error) {
	var secrets []string
	out, err := x.send(ctx, call, &secrets)
	if err != nil {
		// A server or the network may quote a header or URL back: no
		// secret from the environment leaves in an error.
		return nil, fmt.Errorf("%s", redact(err.Error(), secrets))
	}
	return out, nil
}

func (x *httpExec) send(ctx context.Context, call tools.Call, secrets *[]string) ([]byte, error) {
	plain := expansion{call: call, getenv: x.getenv, secrets: secrets}
	path := plain
	path.escape = escapePathSegment
	u, _, err := x.url.fill(path, "url")
	if err != nil {
		return nil, err
	}
	if len(x.query) > 0 {
		q := url.Values{}
		for _, nt := range x.query {
			v, present, err := nt.t.fill(plain, "query "+nt.name)
			if err != nil {
				return nil, err
			}
			if present {
				q.Add(nt.name, v)
			}
		}
		if enc := q.Encode(); enc != "" {
			u += "?" + enc
		}
	}
	req := webget.Request{Method: x.method, URL: u, Header: http.Header{}}
	for _, nt := range x.headers {
		v, present, err := nt.t.fill(plain, "header "+nt.name)
		if err != nil {
			return nil, err
		}
		if !present {
			continue
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			return nil, tools.Inputf("header %s would hold a line break; an argument cannot go in a header with one", nt.name)
		}
		req.Header.Set(nt.name, v)
	}
	if x.body != nil {
		v, _, err := x.body.fill(plain)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if err := encodeJSON(&b, v); err != nil {
			return nil, fmt.Errorf("body: %v", err)
		}
		req.Body = b.Bytes()
		if req.Header.Get("Content-Type") == "" {
			req.Header.Set("Content-Type", "application/json")
		}
	}
	return x.web.Do(ctx, x.svc, req)
}
