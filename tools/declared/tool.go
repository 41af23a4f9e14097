// Package declared loads tools declared in YAML files, without code: a
// file gives a tool's name, description, usage examples and parameters
// (a JSON Schema object, the same form as an MCP tool's inputSchema), and
// one executor — an HTTP request or a program to run (never a shell).
// docs/mcp-and-declared-tools.md describes the file.
//
// A declared tool is untrusted like any external tool: its description is
// sanitised when it loads, and its output is capped and sanitised before
// anyone sees it. A file with a problem is reported with file:line and
// what to fix; the file's other tools, and other files, still load.
package declared

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
)

// Options are what declared tools need from gear: the HTTP client and
// User-Agent http tools send with, the environment ${NAME} reads, and the
// default deadline and size cap of a tool that declares none.
type Options struct {
	HTTP      *http.Client
	UserAgent string
	// Getenv reads ${NAME} in headers, query values and a command's env.
	Getenv func(string) string
	// Timeout and MaxBytes are an http tool's defaults (gear's
	// tools.timeout and tools.max_response_bytes).
	Timeout  time.Duration
	MaxBytes int64
}

// Defaults of a tool that declares no limits.
const (
	defaultCommandTimeout = 10 * time.Second
	defaultMaxOutput      = 1 << 20
	// MaxResultBytes caps the text a declared tool answers with, after
	// extraction: the rest is cut, and the cut is said.
	MaxResultBytes = 16 << 10
)

func (o Options) withDefaults() Options {
	if o.HTTP == nil {
		o.HTTP = &http.Client{}
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 2 << 20
	}
	return o
}

// Tool is a declared tool.
type Tool struct {
	spec tools.Spec
	exec executor
	resp *response
}

// executor runs a call and returns the raw answer: a response body or a
// program's standard output.
type executor interface {
	run(ctx context.Context, call tools.Call) ([]byte, error)
	// defaultEffect is the side-effect class when the file declares none.
	defaultEffect() tools.Effect
}

// Spec is the tool's spec; Source names its file.
func (t *Tool) Spec() tools.Spec { return t.spec }

// Run runs the call and answers with the extracted text, sanitised and
// capped.
func (t *Tool) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	out, err := t.exec.run(ctx, call)
	if err != nil {
		return tools.Result{}, fmt.Errorf("%s: %w", t.spec.Name, err)
	}
	text := string(out)
	if t.resp != nil {
		text, err = t.resp.extract(out)
		if err != nil {
			return tools.Result{}, fmt.Errorf("%s: %w; check response: in %s", t.spec.Name, err, t.spec.Source.Name)
		}
	}
	text = strings.TrimRight(sanitize.Text(text), "\n\t ")
	return tools.Result{Text: capText(text, MaxResultBytes), Data: t.data(out)}, nil
}

// maxDataBytes bounds the output kept as structured data for scripts
// (gear tool --json); a longer one gives its text only.
const maxDataBytes = 64 << 10

// data is the output as structured data when it is JSON: the value the
// response pointer names, else the whole document. JSON output escapes
// control characters, so it needs no sanitising.
func (t *Tool) data(out []byte) any {
	if len(out) > maxDataBytes {
		return nil
	}
	var doc any
	if json.Unmarshal(out, &doc) != nil {
		return nil
	}
	if t.resp != nil && t.resp.pointer != nil {
		v, err := t.resp.pointer.resolve(doc)
		if err != nil {
			return nil
		}
		return v
	}
	return doc
}

// capText cuts text at max bytes, on a rune boundary, and says so.
func capText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[… cut: the answer was %d bytes, gear shows the first %d]", len(s), cut)
}

// LoadFiles loads the tools the files declare, in the order given. Files
// that name the same tool: the first one wins and the later ones are
// reported. Every problem is a *Problem (file:line: what to fix).
func LoadFiles(paths []string, opts Options) ([]tools.Tool, []error) {
	opts = opts.withDefaults()
	var out []tools.Tool
	var errs []error
	where := map[string]string{}
	for _, p := range paths {
		data, err := readLimited(p)
		if err != nil {
			errs = append(errs, &Problem{Path: p, Msg: err.Error()})
			continue
		}
		ts, probs := parseFile(p, data, opts)
		errs = append(errs, probs...)
		for _, t := range ts {
			// Two names one model API would call alike (a.b and a__b)
			// collide as surely as two equal names.
			key := tools.WireName(t.spec.Name)
			if first, dup := where[key]; dup {
				errs = append(errs, &Problem{Path: p, Tool: t.spec.Name,
					Msg: fmt.Sprintf("already declared in %s; rename one (the first is used)", first)})
				continue
			}
			where[key] = p
			out = append(out, t)
		}
	}
	return out, errs
}

// Dir lists the declaration files in dir: every *.yaml and *.yml, sorted.
// A missing directory holds none.
func Dir(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tools directory %s: %w", dir, unwrapPath(err))
	}
	var out []string
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.Type().IsDir() || (ext != ".yaml" && ext != ".yml") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		out = append(out, filepath.Join(dir, e.Name()))
	}
	sort.Strings(out)
	return out, nil
}

func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the file: %v; check the path", unwrapPath(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("is a directory; name a YAML file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read the file: %v", unwrapPath(err))
	}
	return data, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// jsonText is a JSON value as answer text: a string as it is, anything
// else as compact JSON.
func jsonText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
