package declared

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
)

// The keys of a tool's declaration.
var toolKeys = []string{"name", "description", "family", "effect", "parameters", "examples",
	"mock", "output_pattern", "grounding", "response", "http", "command"}

// MaxDescription bounds a tool's description in characters, as for MCP
// tools: it is read for every query.
const MaxDescription = 1024

// Limits on what a file may ask for: a declared deadline or cap above
// these is refused, because a tool that waits an hour or reads a gigabyte
// is a mistake.
const (
	maxTimeout   = 10 * time.Minute
	maxByteLimit = 64 << 20
	// maxFileBytes bounds a declaration file.
	maxFileBytes = 1 << 20
)

// parseFile reads the tools a file declares. A file holds one tool (a
// mapping with name:) or several (tools: followed by a list). Each tool
// with a problem is left out and reported; the others load.
func parseFile(path string, data []byte, opts Options) ([]*Tool, []error) {
	ps := &problems{path: path}
	if len(data) > maxFileBytes {
		ps.at(nil, "file is larger than %d bytes; a tool declaration is a few dozen lines", maxFileBytes)
		return nil, ps.list
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		ps.list = append(ps.list, yamlProblem(path, err))
		return nil, ps.list
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		ps.at(nil, "file is empty; declare a tool (name, description, parameters, and http: or command:)")
		return nil, ps.list
	}
	root := doc.Content[0]
	var decls []*yaml.Node
	switch {
	case root.Kind == yaml.MappingNode && hasKey(root, "tools"):
		f, ok := readFields(ps, root, "the file", "tools")
		if !ok {
			return nil, ps.list
		}
		list := f.values["tools"]
		if list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
			ps.at(list, "tools must be a list of tool declarations")
			return nil, ps.list
		}
		decls = list.Content
	case root.Kind == yaml.MappingNode:
		decls = []*yaml.Node{root}
	default:
		ps.at(root, "a tool file is a mapping (one tool) or tools: with a list, not %s", describeNode(root))
		return nil, ps.list
	}
	var out []*Tool
	seen := map[string]int{}
	for _, n := range decls {
		tp := &problems{path: path}
		t := parseTool(tp, n, path, opts)
		ps.list = append(ps.list, tp.list...)
		if t == nil {
			continue
		}
		key := tools.WireName(t.spec.Name)
		if line, dup := seen[key]; dup {
			ps.list = append(ps.list, &Problem{Path: path, Line: n.Line, Tool: t.spec.Name,
				Msg: fmt.Sprintf("declared twice (first at line %d); rename one", line)})
			continue
		}
		seen[key] = n.Line
		out = append(out, t)
	}
	return out, ps.list
}

// scalarKey is the text of a mapping's key, "" when absent.
func scalarKey(n *yaml.Node, key string) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i+1].Kind == yaml.ScalarNode {
			return n.Content[i+1].Value
		}
	}
	return ""
}

func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// yamlProblem turns a YAML syntax error into a Problem at its line.
func yamlProblem(path string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if _, err := fmt.Sscanf(rest[:i], "%d", &line); err == nil {
				msg = strings.TrimSpace(rest[i+1:])
			}
		}
	}
	if strings.HasPrefix(msg, "did not find expected") && line > 0 {
		// yaml.v3 reports these parser errors at the 0-based line of the
		// list or mapping they are in (its scanner errors are 1-based).
		line++
	}
	return &Problem{Path: path, Line: line, Msg: "not valid YAML: " + msg + "; fix the file's syntax"}
}

// parseTool reads one tool's declaration; nil when it has a problem.
func parseTool(ps *problems, n *yaml.Node, path string, opts Options) *Tool {
	ps.tool = scalarKey(n, "name")
	f, _ := readFields(ps, n, "a tool", toolKeys...)
	if n.Kind != yaml.MappingNode {
		return nil
	}
	name, _ := f.str(ps, "name")
	if name == "" {
		ps.at(n, "a tool needs a name: (a letter, digit or _, then letters, digits, _, . or -)")
		return nil
	}
	ps.tool = name
	spec := tools.Spec{Name: name, Source: tools.Source{Kind: tools.SourceFile, Name: path}}
	desc, _ := f.str(ps, "description")
	spec.Description = sanitize.Line(strings.TrimSpace(desc))
	if spec.Description == "" {
		ps.at(f.keyOr("description", n), "a tool needs a description: a sentence saying what it does and answers (grounding matches queries against it)")
	} else if n := utf8.RuneCountInString(spec.Description); n > MaxDescription {
		ps.at(f.values["description"], "description is %d characters; grounding and prompts read it for every query, so keep it to %d (a few sentences)", n, MaxDescription)
	}
	family, _ := f.str(ps, "family")
	spec.Family = tools.Family(family)
	if family == "" {
		spec.Family = tools.Family(strings.ToLower(name))
	}
	spec.Mock, _ = f.str(ps, "mock")
	spec.OutputPattern, _ = f.str(ps, "output_pattern")
	var checker *tools.ArgsSchema
	if s, ok := f.values["parameters"]; ok {
		raw, err := nodeJSON(s)
		if err != nil {
			ps.at(s, "parameters: %v", err)
		} else if params, err := tools.ParamsFromSchema(raw); err != nil {
			at := s
			var se *tools.SchemaError
			if errors.As(err, &se) {
				at = nodeAt(s, se.Path)
			}
			ps.at(at, "parameters: %v", err)
		} else {
			spec.InputSchema, spec.Params = raw, params
			// The whole schema checks arguments once they are decoded;
			// a schema that is not valid JSON Schema is the file's
			// problem, found now rather than at the first call.
			if checker, err = tools.CompileArgsSchema(name, raw); err != nil {
				at, msg := schemaProblem(s, strings.TrimPrefix(err.Error(), "tool "+name+": "))
				ps.at(at, "parameters: %s", msg)
			}
		}
	} else {
		spec.InputSchema = json.RawMessage(`{"type":"object","properties":{}}`)
	}

	httpNode, hasHTTP := f.values["http"]
	cmdNode, hasCmd := f.values["command"]
	var exec executor
	switch {
	case hasHTTP && hasCmd:
		ps.at(cmdNode, "a tool has exactly one executor; give http: or command:, not both")
	case hasHTTP:
		exec = parseHTTP(ps, httpNode, spec, path, opts)
	case hasCmd:
		exec = parseCommand(ps, cmdNode, spec, path, opts)
	default:
		ps.at(n, "a tool needs an executor: http: (a request to send) or command: (a program to run)")
	}

	effect, _ := f.str(ps, "effect")
	spec.Effect = tools.Effect(effect)
	switch {
	case !spec.Effect.Known():
		ps.at(f.values["effect"], "effect %q: want read-only, writes or costs", effect)
	case effect == "" && exec != nil:
		spec.Effect = exec.defaultEffect()
	}
	// Grounding scores a tool by its response, but never runs one that
	// may change something just to score it (GEAR's Appendix A.3): such a
	// tool is scored on its mock, and one that declares none gets the
	// mock MCP tools get — what the answer is about, its arguments.
	if !spec.Effect.ReadOnly() && spec.Mock == "" {
		spec.Mock = defaultMock(spec)
	}
	if _, given := f.values["mock"]; given {
		if t, err := parseTemplate(spec.Mock, false); err != nil {
			ps.at(f.values["mock"], "mock: %v", err)
		} else if err := t.check(spec); err != nil {
			ps.at(f.values["mock"], "mock: %v", err)
		}
	}
	if g, ok := f.values["grounding"]; ok {
		spec.Hints = parseHints(ps, g, spec)
		if err := spec.Hints.Validate(spec.Params); err != nil {
			ps.at(g, "grounding: %v", err)
		}
	}
	var resp *response
	if r, ok := f.values["response"]; ok {
		resp = parseResponse(ps, r)
	}
	if len(ps.list) > 0 {
		return nil
	}
	if err := spec.Validate(); err != nil {
		ps.at(n, "%s", strings.TrimPrefix(err.Error(), "tool "+name+": "))
	}
	if len(ps.list) > 0 {
		return nil
	}
	spec.Examples = parseExamples(ps, f.values["examples"], spec, checker)
	if len(ps.list) > 0 {
		return nil
	}
	return &Tool{spec: spec, exec: exec, resp: resp}
}

// defaultMock is the response grounding reads for a tool it must not
// run and whose file gives no mock: the call's arguments ("{a}, {b}"), as
// the paper's mocks echo theirs, or for a tool without parameters its
// description's first sentence.
func defaultMock(spec tools.Spec) string {
	if len(spec.Params) == 0 {
		first, _, _ := strings.Cut(spec.Description, ". ")
		return first
	}
	names := make([]string, len(spec.Params))
	for i, p := range spec.Params {
		names[i] = "{" + p.Name + "}"
	}
	return strings.Join(names, ", ")
}

// keyOr is the node of key, or n when the key is missing, for a
// problem's line.
func (f fields) keyOr(key string, n *yaml.Node) *yaml.Node {
	if k, ok := f.keys[key]; ok {
		return k
	}
	return n
}

// durationField reads a deadline key: "10s", "500ms", or seconds.
func durationField(ps *problems, f fields, key string, def time.Duration) time.Duration {
	v, ok := f.values[key]
	if !ok {
		return def
	}
	d, err := time.ParseDuration(v.Value)
	if err != nil {
		var secs float64
		if derr := v.Decode(&secs); derr != nil || v.ShortTag() == "!!str" {
			ps.at(v, "%s %q: want a duration like 10s or 500ms", key, v.Value)
			return def
		}
		d = time.Duration(secs * float64(time.Second))
	}
	if d <= 0 || d > maxTimeout {
		ps.at(v, "%s %s: want more than 0 and at most %s", key, v.Value, maxTimeout)
		return def
	}
	return d
}

// bytesField reads a size cap in bytes.
func bytesField(ps *problems, f fields, key string, def int64) int64 {
	v, ok := f.values[key]
	if !ok {
		return def
	}
	var n int64
	if err := v.Decode(&n); err != nil || n <= 0 || n > maxByteLimit {
		ps.at(v, "%s %q: want a number of bytes from 1 to %d", key, v.Value, maxByteLimit)
		return def
	}
	return n
}

// relativeTo resolves a path a file names against the file's directory.
func relativeTo(file, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(file), p)
}

// methods an http tool may use.
var httpMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}
