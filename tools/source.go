package tools

import (
	"fmt"
	"strings"
)

// SourceKind says where a tool came from.
type SourceKind string

// The three sources of tools. One contract (Spec) serves all three.
const (
	// SourceBuiltin is a tool written in Go inside gear.
	SourceBuiltin SourceKind = "built-in"
	// SourceFile is a declared tool: a YAML file, no code.
	SourceFile SourceKind = "file"
	// SourceMCP is a tool offered by an MCP server.
	SourceMCP SourceKind = "mcp"
)

// Source is where one tool came from: its kind and, for a declared tool,
// the file's path, for an MCP tool the server's name.
type Source struct {
	Kind SourceKind `json:"kind" yaml:"kind"`
	Name string     `json:"name,omitempty" yaml:"name,omitempty"`
}

// Builtin is the source of gear's own tools.
var Builtin = Source{Kind: SourceBuiltin}

// String is the source as people read it: "built-in", the file's path, or
// "mcp:NAME".
func (s Source) String() string {
	switch s.Kind {
	case SourceBuiltin, "":
		return string(SourceBuiltin)
	case SourceFile:
		return s.Name
	default:
		return string(s.Kind) + ":" + s.Name
	}
}

// IsBuiltin reports whether the tool is one of gear's own. A spec without
// a source is taken as built-in: only gear's own code builds specs in Go.
func (s Source) IsBuiltin() bool { return s.Kind == SourceBuiltin || s.Kind == "" }

// Effect is a tool's side-effect class: whether running it may change
// something or cost something. It decides whether grounding may run the
// tool to score it and whether the user is asked before it runs.
type Effect string

const (
	// EffectReadOnly only reads: grounding may run it, and it runs without
	// asking.
	EffectReadOnly Effect = "read-only"
	// EffectWrites may change something outside gear (a file, a record, a
	// message sent): never run to score it; asks before running.
	EffectWrites Effect = "writes"
	// EffectCosts spends money or quota (an image, a paid API): never run
	// to score it; asks before running.
	EffectCosts Effect = "costs"
)

// ReadOnly reports whether a tool of this class may run without asking.
// The zero Effect is not read-only: a tool that says nothing about itself
// is treated as one that may change something.
func (e Effect) ReadOnly() bool { return e == EffectReadOnly }

// Known reports whether e is one of the defined classes (or unset).
func (e Effect) Known() bool {
	switch e {
	case "", EffectReadOnly, EffectWrites, EffectCosts:
		return true
	}
	return false
}

// QualifiedName is the name an external tool is called by: the server's
// name and the tool's, each sanitised, joined by a dot ("github.create_issue").
// The server part keeps only letters, digits and '-' (lower-cased), so the
// first dot always ends it, whatever the tool's own name holds; the tool
// part keeps letters, digits, '_' and '-' (anything else becomes '_'). The
// whole is at most 64 bytes; a name that would be longer is refused, never
// cut, because two cut names could collide.
func QualifiedName(server, tool string) (string, error) {
	s := sanitizeName(strings.ToLower(server), func(c byte) bool { return isAlnum(c) || c == '-' })
	if s == "" {
		return "", fmt.Errorf("server name %q has no letters or digits", server)
	}
	t := sanitizeName(tool, func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' })
	if t == "" {
		return "", fmt.Errorf("tool name %q of server %s has no letters or digits", tool, s)
	}
	name := s + "." + t
	if len(WireName(name)) > MaxWireNameLen {
		return "", fmt.Errorf("tool %s: name longer than %d characters once the server is prefixed; rename the server in gear's config", name, MaxWireNameLen-1)
	}
	return name, nil
}

// WireSeparator stands for the dot of a tool name where the name goes to a
// model API: OpenAI function names must match ^[a-zA-Z0-9_-]{1,64}$. A
// sanitised server name (QualifiedName) holds only [a-z0-9-], so the first
// "__" of an external tool's wire name always ends its server's part.
const WireSeparator = "__"

// MaxWireNameLen bounds a tool's wire name, as OpenAI bounds function
// names.
const MaxWireNameLen = 64

// WireName is the name a tool is sent to a model API by: its name with
// every '.' written as WireSeparator ("github.create_issue" ->
// "github__create_issue"). Registry.SpecByWireName maps it back; the
// registry refuses two tools with one wire name.
func WireName(name string) string { return strings.ReplaceAll(name, ".", WireSeparator) }

// WireName is the spec's name as model APIs receive it (see WireName).
func (s Spec) WireName() string { return WireName(s.Name) }

func isAlnum(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// sanitizeName keeps the bytes keep allows and turns every other run into
// one '_' (or drops it where '_' is not allowed), trimming the ends.
func sanitizeName(s string, keep func(byte) bool) string {
	var b strings.Builder
	underscore := keep('_')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case keep(c):
			b.WriteByte(c)
		case underscore && b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), "_-")
}
