package declared

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
)

// parseExamples reads the usage examples: each a query and either the
// call that answers it or the arguments of that call. Every example must
// parse as a call of this tool and fit its schema (checker, when set).
func parseExamples(ps *problems, n *yaml.Node, spec tools.Spec, checker *tools.ArgsSchema) []tools.Example {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		ps.at(n, "examples must be a list of {query, call} or {query, arguments}")
		return nil
	}
	lookup := func(name string) (tools.Spec, bool) { return spec, name == spec.Name }
	var out []tools.Example
	for _, e := range n.Content {
		f, ok := readFields(ps, e, "an example", "query", "call", "arguments")
		if !ok {
			continue
		}
		query, _ := f.str(ps, "query")
		query = sanitize.Line(strings.TrimSpace(query))
		if query == "" {
			ps.at(e, "an example needs a query: what a person would ask")
			continue
		}
		callText, _ := f.str(ps, "call")
		args, hasArgs := f.values["arguments"]
		switch {
		case callText != "" && hasArgs:
			ps.at(args, "give call: or arguments:, not both")
			continue
		case hasArgs:
			text, err := callFromArguments(spec, args)
			if err != nil {
				ps.at(args, "%v", err)
				continue
			}
			callText = text
		case callText == "":
			ps.at(e, "an example needs call: (%s) or arguments: (a mapping of parameter to value)", spec.Signature())
			continue
		}
		c, err := tools.Parse(callText, lookup)
		if err != nil {
			ps.at(e, "example call %s does not parse: %v (the tool's signature is %s)", callText, err, spec.Signature())
			continue
		}
		if c.Tool != spec.Name {
			ps.at(e, "example call %s calls %s, not this tool", callText, c.Tool)
			continue
		}
		if checker != nil {
			if err := checker.Check(c); err != nil {
				ps.at(e, "example call %s: %s", callText, strings.TrimPrefix(err.Error(), spec.Name+": "))
				continue
			}
		}
		out = append(out, tools.Example{Query: query, Call: c.String()})
	}
	return out
}

// callFromArguments writes the canonical call for an example given as a
// mapping of parameter names to values.
func callFromArguments(spec tools.Spec, n *yaml.Node) (string, error) {
	if n.Kind != yaml.MappingNode {
		return "", fmt.Errorf("arguments must be a mapping of parameter names to values")
	}
	given := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if _, ok := spec.Param(k.Value); !ok {
			return "", fmt.Errorf("arguments: %q is not a parameter (%s)", k.Value, paramList(spec))
		}
		if v.Kind != yaml.ScalarNode {
			return "", fmt.Errorf("arguments: %s must be a single value", k.Value)
		}
		given[k.Value] = v
	}
	c := tools.Call{Tool: spec.Name}
	skipped := ""
	for _, p := range spec.Params {
		v, ok := given[p.Name]
		if !ok {
			if !p.Optional {
				return "", fmt.Errorf("arguments: the required parameter %s is missing", p.Name)
			}
			if skipped == "" {
				skipped = p.Name
			}
			continue
		}
		if skipped != "" {
			// A call gives its arguments in order and may leave out
			// only the last ones.
			return "", fmt.Errorf("arguments: %s is given but %s, which comes before it, is not; give %s too", p.Name, skipped, skipped)
		}
		switch p.Type {
		case tools.TypeNumber, tools.TypeInteger:
			var f float64
			if err := v.Decode(&f); err != nil {
				return "", fmt.Errorf("arguments: %s must be a number, not %q", p.Name, v.Value)
			}
			c.Args = append(c.Args, tools.Arg{Name: p.Name, Value: tools.Number(f)})
		case tools.TypeBoolean:
			var b bool
			if err := v.Decode(&b); err != nil || v.ShortTag() != "!!bool" {
				return "", fmt.Errorf("arguments: %s must be true or false, not %q", p.Name, v.Value)
			}
			c.Args = append(c.Args, tools.Arg{Name: p.Name, Value: tools.Boolean(b)})
		case tools.TypeExpression:
			c.Args = append(c.Args, tools.Arg{Name: p.Name, Value: tools.Expression(v.Value)})
		default:
			c.Args = append(c.Args, tools.Arg{Name: p.Name, Value: tools.String(v.Value)})
		}
	}
	return c.String(), nil
}
