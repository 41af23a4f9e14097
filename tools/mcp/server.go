// Package mcp makes the tools of MCP servers gear tools. It connects to
// each server with the official Go SDK (stdio or streamable HTTP), turns
// every listed tool into a tools.Tool whose Spec carries the server as its
// source, the whole inputSchema, a side-effect class from the tool's
// annotations and a mock response for grounding, and runs calls with a
// deadline and a size cap. Everything a server says is untrusted: names,
// descriptions, results and errors are sanitised before anyone sees them.
package mcp

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is how to reach one MCP server: a command speaking MCP on its
// standard input and output, or a streamable HTTP endpoint.
type Server struct {
	// Name is the server's name in gear: the prefix of its tools' names
	// ("everything.echo") and the source history records.
	Name string
	// Command and Args start a stdio server; no shell is involved.
	Command string
	Args    []string
	// Env adds variables to the command's environment; values may name
	// other variables as ${NAME}.
	Env map[string]string
	// Dir is the command's working directory; empty is gear's own.
	Dir string
	// URL is a streamable HTTP endpoint.
	URL string
	// Headers are sent with every HTTP request; values may name
	// environment variables as ${NAME}, so keys stay out of files.
	Headers map[string]string
	// Transport, when set, is used instead of Command or URL: a server in
	// the same process (the SDK's in-memory transports), for tests and
	// embedding.
	Transport sdk.Transport
}

// IsHTTP reports whether the server is reached over HTTP.
func (s Server) IsHTTP() bool { return s.URL != "" }

// Validate checks that the server says how to reach it, one way only.
func (s Server) Validate() error {
	if strings.TrimSpace(s.Name) == "" {
		return errors.New("mcp server: no name")
	}
	switch {
	case s.Transport != nil:
	case s.Command == "" && s.URL == "":
		return fmt.Errorf("mcp server %s: give a command (stdio) or a url (HTTP)", s.Name)
	case s.Command != "" && s.URL != "":
		return fmt.Errorf("mcp server %s: give a command or a url, not both", s.Name)
	case s.URL != "":
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("mcp server %s: url %q: want http:// or https:// and a host", s.Name, s.URL)
		}
	}
	return nil
}

// Describe is the server's address as people read it: the command line or
// the URL (without its query, which may hold a key).
func (s Server) Describe() string {
	if s.Transport != nil {
		return "in-process"
	}
	if s.IsHTTP() {
		if u, err := url.Parse(s.URL); err == nil {
			u.RawQuery, u.User, u.Fragment = "", nil, ""
			return u.String()
		}
		return s.URL
	}
	return strings.Join(append([]string{s.Command}, s.Args...), " ")
}

// ParseFlag reads one --mcp value: "NAME=COMMAND ARG…" (a stdio server;
// the command line is split on spaces, with "double" or 'single' quotes
// keeping spaces inside an argument — no shell) or a URL (an HTTP server,
// named after its host).
func ParseFlag(v string) (Server, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return Server{}, errors.New("--mcp: empty; want NAME=COMMAND or a URL")
	}
	if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
		u, err := url.Parse(v)
		if err != nil || u.Host == "" {
			return Server{}, fmt.Errorf("--mcp %q: not a URL", v)
		}
		s := Server{Name: NameFromHost(u.Hostname(), u.Port()), URL: v}
		return s, s.Validate()
	}
	name, command, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(command) == "" {
		return Server{}, fmt.Errorf("--mcp %q: want NAME=COMMAND ARG… or an http(s) URL", v)
	}
	argv, err := SplitCommand(command)
	if err != nil {
		return Server{}, fmt.Errorf("--mcp %s: %w", name, err)
	}
	s := Server{Name: strings.TrimSpace(name), Command: argv[0], Args: argv[1:]}
	return s, s.Validate()
}

// NameFromHost names a server given only by its URL: the host and port,
// letters and digits kept ("localhost-3001").
func NameFromHost(host, port string) string {
	n := host
	if port != "" {
		n += "-" + port
	}
	n = nonNameChars.ReplaceAllString(strings.ToLower(n), "-")
	return strings.Trim(n, "-")
}

var nonNameChars = regexp.MustCompile(`[^a-z0-9]+`)

// SplitCommand splits a command line into argv: words separated by
// spaces, quotes keeping spaces (no escapes, no variables, no shell).
func SplitCommand(s string) ([]string, error) {
	var argv []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				argv = append(argv, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("command %q: unclosed %c quote", s, quote)
	}
	if inWord {
		argv = append(argv, cur.String())
	}
	if len(argv) == 0 {
		return nil, errors.New("empty command")
	}
	return argv, nil
}

// Getenv reads an environment variable (os.Getenv; tests pass a map).
type Getenv func(string) string

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// Expand replaces every ${NAME} in s with the variable's value. A variable
// that is unset is an error naming it (never its neighbours' values), so a
// missing key fails at connection with a message, not as a 401.
func Expand(s string, getenv Getenv) (string, error) {
	var missing []string
	out := envRef.ReplaceAllStringFunc(s, func(m string) string {
		name := envRef.FindStringSubmatch(m)[1]
		v := getenv(name)
		if v == "" {
			missing = append(missing, name)
		}
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("environment variable %s is not set", strings.Join(missing, ", "))
	}
	return out, nil
}

// inherited are the variables a stdio server gets from gear's own
// environment, as the MCP SDKs' default environment: enough to find
// programs, a home, a locale, and npm's registry and proxies — never the
// rest, which may hold API keys (OPENAI_API_KEY) an untrusted server must
// not see. Anything else a server needs is named in its env.
var inherited = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy", "SYSTEMROOT", "APPDATA"}

// environ is the command's environment: the inherited variables and npm's
// settings (npm_config_*) from gear's own, plus the server's variables,
// expanded, sorted for a stable order.
func (s Server) environ(getenv Getenv) ([]string, error) {
	var env []string
	keep := map[string]bool{}
	for _, k := range inherited {
		keep[k] = true
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if keep[k] || strings.HasPrefix(strings.ToLower(k), "npm_config_") {
			env = append(env, kv)
		}
	}
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := Expand(s.Env[k], getenv)
		if err != nil {
			return nil, fmt.Errorf("env %s: %w", k, err)
		}
		env = append(env, k+"="+v)
	}
	return env, nil
}
