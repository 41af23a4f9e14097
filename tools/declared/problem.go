package declared

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Problem is something wrong with a declared tool's file: where it is
// (file and line, 0 when the whole file is at fault) and what to fix.
// The tool it is in does not load; the file's other tools still do.
type Problem struct {
	Path string
	Line int
	// Tool names the tool the problem is in, when known.
	Tool string
	Msg  string
}

func (p *Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.Path)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Tool != "" {
		b.WriteString("tool " + p.Tool + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// problems collects a file's problems, each at a node's line.
type problems struct {
	path string
	tool string
	list []error
}

func (ps *problems) at(n *yaml.Node, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	ps.list = append(ps.list, &Problem{Path: ps.path, Line: line, Tool: ps.tool, Msg: fmt.Sprintf(format, args...)})
}

// fields reads a YAML mapping's keys, refusing keys it does not know and
// keys given twice, so a typo is reported rather than ignored.
type fields struct {
	values map[string]*yaml.Node
	keys   map[string]*yaml.Node
}

func readFields(ps *problems, n *yaml.Node, what string, known ...string) (fields, bool) {
	f := fields{values: map[string]*yaml.Node{}, keys: map[string]*yaml.Node{}}
	if n.Kind != yaml.MappingNode {
		ps.at(n, "%s must be a mapping of keys (%s), not %s", what, strings.Join(known, ", "), describeNode(n))
		return f, false
	}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !contains(known, k.Value) {
			ps.at(k, "unknown key %q in %s (want one of: %s)", k.Value, what, strings.Join(known, ", "))
			ok = false
			continue
		}
		if _, dup := f.values[k.Value]; dup {
			ps.at(k, "key %q given twice in %s", k.Value, what)
			ok = false
			continue
		}
		f.values[k.Value], f.keys[k.Value] = v, k
	}
	return f, ok
}

// str reads a scalar string key; missing is "".
func (f fields) str(ps *problems, key string) (string, bool) {
	v, ok := f.values[key]
	if !ok {
		return "", true
	}
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		ps.at(v, "%s must be a text, not %s", key, describeNode(v))
		return "", false
	}
	return v.Value, true
}

// strMap reads a mapping of text to text, in the file's order.
func (f fields) strMap(ps *problems, key string) ([][2]string, []*yaml.Node, bool) {
	v, ok := f.values[key]
	if !ok {
		return nil, nil, true
	}
	if v.Kind != yaml.MappingNode {
		ps.at(v, "%s must be a mapping of names to texts, not %s", key, describeNode(v))
		return nil, nil, false
	}
	var out [][2]string
	var nodes []*yaml.Node
	good := true
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if val.Kind != yaml.ScalarNode || val.Tag == "!!null" {
			ps.at(val, "%s.%s must be a text, not %s", key, k.Value, describeNode(val))
			good = false
			continue
		}
		out = append(out, [2]string{k.Value, val.Value})
		nodes = append(nodes, val)
	}
	return out, nodes, good
}

func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	if n.Tag == "!!null" {
		return "empty"
	}
	return fmt.Sprintf("%q", n.Value)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
