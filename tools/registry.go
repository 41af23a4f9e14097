package tools

import (
	"context"
	"errors"
	"fmt"
	"sort"
)

// InputError is a failure the caller can fix by changing the call: an
// unknown place, a division by zero, a date outside the forecast. Its
// message is one line that says what was wrong.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// Inputf makes an *InputError.
func Inputf(format string, args ...any) error { return &InputError{Msg: fmt.Sprintf(format, args...)} }

// IsInput reports whether err is (or wraps) an *InputError.
func IsInput(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// Registry is the tool library: tools in registration order, by name.
type Registry struct {
	tools  []Tool
	specs  []Spec
	byName map[string]int
	byWire map[string]int
	checks map[string]*argsCheck // tools with an InputSchema
}

// NewRegistry builds a library from tools, checking that every spec is
// valid, names are unique and every usage example parses.
func NewRegistry(ts ...Tool) (*Registry, error) {
	return (&Registry{byName: map[string]int{}, byWire: map[string]int{}, checks: map[string]*argsCheck{}}).With(ts...)
}

// With returns a new library: r's tools and then ts, checked as
// NewRegistry checks them. r itself is not changed, so a library that
// changes (an MCP server's tools/list_changed) is swapped whole. A name
// already taken is refused, naming both tools' sources; nothing is ever
// overwritten.
func (r *Registry) With(ts ...Tool) (*Registry, error) {
	n := &Registry{
		tools:  append(make([]Tool, 0, len(r.tools)+len(ts)), r.tools...),
		specs:  append(make([]Spec, 0, len(r.specs)+len(ts)), r.specs...),
		byName: make(map[string]int, len(r.tools)+len(ts)),
		byWire: make(map[string]int, len(r.tools)+len(ts)),
		checks: make(map[string]*argsCheck, len(r.checks)),
	}
	for name, c := range r.checks {
		n.checks[name] = c // compiled once, shared by every library holding the tool
	}
	for name, i := range r.byName {
		n.byName[name] = i
	}
	for name, i := range r.byWire {
		n.byWire[name] = i
	}
	first := len(n.specs)
	for _, t := range ts {
		if err := n.add(t); err != nil {
			return nil, err
		}
	}
	for _, s := range n.specs[first:] {
		for _, ex := range s.Examples {
			if ex.Call == "" {
				continue // a question without a call shown
			}
			c, err := n.Parse(ex.Call)
			if err != nil {
				return nil, fmt.Errorf("tool %s: example %q: %w", s.Name, ex.Call, err)
			}
			if c.Tool != s.Name {
				return nil, fmt.Errorf("tool %s: example %q calls %s", s.Name, ex.Call, c.Tool)
			}
		}
	}
	return n, nil
}

// CollisionError is a tool whose name another tool of the library has,
// or whose wire name (WireName) another tool's is: Other names that tool
// when its name differs.
type CollisionError struct {
	Name, Other   string
	First, Second Source
}

func (e *CollisionError) Error() string {
	if e.Other != "" {
		return fmt.Sprintf("tool %s from %s and tool %s from %s are both called %s by model APIs; the first is kept, rename one of them", e.Other, e.First, e.Name, e.Second, WireName(e.Name))
	}
	if e.First == e.Second {
		return fmt.Sprintf("tool %s (%s) registered twice", e.Name, e.First)
	}
	return fmt.Sprintf("tool %s from %s has the name of the tool from %s; the first is kept, rename one of them", e.Name, e.Second, e.First)
}

func (r *Registry) add(t Tool) error {
	s := t.Spec()
	if err := s.Validate(); err != nil {
		return err
	}
	if i, dup := r.byName[s.Name]; dup {
		return &CollisionError{Name: s.Name, First: r.specs[i].Source, Second: s.Source}
	}
	if i, dup := r.byWire[s.WireName()]; dup {
		return &CollisionError{Name: s.Name, Other: r.specs[i].Name, First: r.specs[i].Source, Second: s.Source}
	}
	r.byName[s.Name] = len(r.tools)
	r.byWire[s.WireName()] = len(r.tools)
	if len(s.InputSchema) > 0 {
		r.checks[s.Name] = &argsCheck{tool: s.Name, raw: s.InputSchema}
	}
	r.tools = append(r.tools, t)
	r.specs = append(r.specs, s)
	return nil
}

// Tools returns the tools in registration order.
func (r *Registry) Tools() []Tool { return append([]Tool(nil), r.tools...) }

// Specs returns every tool's spec in registration order.
func (r *Registry) Specs() []Spec { return append([]Spec{}, r.specs...) }

// Names returns the tool names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.specs))
	for _, s := range r.specs {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	return names
}

// Len is the number of tools.
func (r *Registry) Len() int { return len(r.tools) }

// Spec returns the spec of the named tool.
func (r *Registry) Spec(name string) (Spec, bool) {
	i, ok := r.byName[name]
	if !ok {
		return Spec{}, false
	}
	return r.specs[i], true
}

// SpecByWireName returns the spec of the tool a model API called by its
// wire name (Spec.WireName).
func (r *Registry) SpecByWireName(wire string) (Spec, bool) {
	i, ok := r.byWire[wire]
	if !ok {
		return Spec{}, false
	}
	return r.specs[i], true
}

// Tool returns the named tool.
func (r *Registry) Tool(name string) (Tool, bool) {
	i, ok := r.byName[name]
	if !ok {
		return nil, false
	}
	return r.tools[i], true
}

// Parse reads a call, canonical or JSON, against this library, then checks
// its arguments against the tool's input schema, when it has one (an
// *ArgsError says what does not fit).
func (r *Registry) Parse(text string) (Call, error) {
	c, err := Parse(text, r.Spec)
	if err != nil {
		return Call{}, err
	}
	if err := r.Check(c); err != nil {
		return Call{}, err
	}
	return c, nil
}

// Check validates a parsed call's arguments against its tool's input
// schema (compiled on first use); a tool without one passes.
func (r *Registry) Check(c Call) error {
	if ch, ok := r.checks[c.Tool]; ok {
		return ch.check(c)
	}
	return nil
}

// Run runs a parsed call. The call must come from Parse (or the ToolDec
// machine): Run does not re-check argument types.
func (r *Registry) Run(ctx context.Context, c Call) (Result, error) {
	t, ok := r.Tool(c.Tool)
	if !ok {
		return Result{}, &UnknownToolError{Name: c.Tool}
	}
	return t.Run(ctx, c)
}
