package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SchemaError is a JSON Schema a tool's parameters cannot be read from:
// where (a JSON pointer into the schema, "" for its root) and what to fix.
type SchemaError struct {
	Path string
	Msg  string
}

func (e *SchemaError) Error() string {
	if e.Path == "" {
		return "input schema: " + e.Msg
	}
	return fmt.Sprintf("input schema at %s: %s", e.Path, e.Msg)
}

func schemaErrorf(path, format string, args ...any) error {
	return &SchemaError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// GearTypeKeyword is the schema keyword that names one of gear's own
// parameter types, which JSON Schema has no word for: a string property
// with "x-gear-type": "place" is a TypePlace parameter (likewise
// "datetime", "date" and "expression"). Other validators ignore the
// keyword, so the schema stays valid JSON Schema.
const GearTypeKeyword = "x-gear-type"

// ParamsFromSchema reads a tool's parameters from its JSON Schema (an MCP
// inputSchema, a declared tool's parameters): one parameter per property,
// in the order the schema's text lists them, the required ones first (in
// their relative order) because a positional call may leave out only
// optional parameters, and only from its end.
//
// Each property becomes the most exact type the call syntax has for it.
// What a type cannot express (a number's bounds, a string's length or
// format beyond what the machine checks) is not dropped: the whole schema
// stays in Spec.InputSchema and the arguments are checked against it once
// decoded (see Registry.Parse).
func ParamsFromSchema(schema json.RawMessage) ([]Param, error) {
	if len(schema) == 0 {
		return nil, nil
	}
	root, err := decodeOrdered(schema)
	if err != nil {
		return nil, schemaErrorf("", "not valid JSON: %v", err)
	}
	r := &schemaReader{root: root}
	obj, path, err := r.resolve(root, "")
	if err != nil {
		return nil, err
	}
	if obj.kind != jsonObject {
		return nil, schemaErrorf(path, "want an object schema, found %s", obj.kind)
	}
	if t, ok := obj.get("type"); ok && !(t.kind == jsonString && t.str == "object") {
		return nil, schemaErrorf(path+"/type", `want "object": a tool's arguments are an object's properties`)
	}
	props, hasProps := obj.get("properties")
	if !hasProps {
		return nil, nil
	}
	if props.kind != jsonObject {
		return nil, schemaErrorf(path+"/properties", "want an object mapping names to schemas, found %s", props.kind)
	}
	required := map[string]bool{}
	if req, ok := obj.get("required"); ok {
		if req.kind != jsonArray {
			return nil, schemaErrorf(path+"/required", "want an array of property names, found %s", req.kind)
		}
		for i, v := range req.values {
			if v.kind != jsonString {
				return nil, schemaErrorf(fmt.Sprintf("%s/required/%d", path, i), "want a property name, found %s", v.kind)
			}
			if _, ok := props.get(v.str); !ok {
				return nil, schemaErrorf(fmt.Sprintf("%s/required/%d", path, i), "%q is required but not among the properties; add it or drop it from required", v.str)
			}
			required[v.str] = true
		}
	}
	var first, rest []Param
	for i, name := range props.keys {
		ppath := path + "/properties/" + pointerEscape(name)
		if !isParamName(name) {
			return nil, schemaErrorf(ppath, "property name %q cannot be written in a call: want a letter or _, then letters, digits, _, . or - (at most 64)", name)
		}
		p, err := r.param(name, props.values[i], ppath)
		if err != nil {
			return nil, err
		}
		if required[name] {
			first = append(first, p)
		} else {
			p.Optional = true
			rest = append(rest, p)
		}
	}
	params := append(first, rest...)
	for i, p := range params {
		if p.Type == TypeExpression && i != len(params)-1 {
			return nil, schemaErrorf(path+"/properties/"+pointerEscape(p.Name), "an expression parameter must come last (required parameters come first)")
		}
	}
	return params, nil
}

// schemaReader reads the property schemas of one document, resolving
// $ref against its root.
type schemaReader struct{ root *jsonNode }

// maxRefHops bounds a chain of $ref that only points at further $refs.
const maxRefHops = 32

// resolve follows n's $ref, if any, to the schema it names (a JSON pointer
// into the same document: "#/$defs/Name", "#/definitions/Name"). A chain of
// references that comes back to itself is refused.
func (r *schemaReader) resolve(n *jsonNode, path string) (*jsonNode, string, error) {
	var seen []string
	for {
		ref, ok := n.get("$ref")
		if !ok {
			return n, path, nil
		}
		if ref.kind != jsonString {
			return nil, "", schemaErrorf(path+"/$ref", "want a string, found %s", ref.kind)
		}
		if slices.Contains(seen, ref.str) || len(seen) >= maxRefHops {
			return nil, "", schemaErrorf(path+"/$ref", "$ref %q refers back to itself (%s); a call's arguments must be finite, so make the cycle end", ref.str, strings.Join(append(seen, ref.str), " -> "))
		}
		seen = append(seen, ref.str)
		target, err := r.pointer(ref.str)
		if err != nil {
			return nil, "", schemaErrorf(path+"/$ref", "%v", err)
		}
		n, path = target, strings.TrimPrefix(ref.str, "#")
	}
}

// pointer finds the schema a local reference names.
func (r *schemaReader) pointer(ref string) (*jsonNode, error) {
	if !strings.HasPrefix(ref, "#") {
		return nil, fmt.Errorf("$ref %q points outside the schema; only local references (#/$defs/Name) are read", ref)
	}
	n := r.root
	if ref == "#" {
		return n, nil
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("$ref %q: want a JSON pointer such as #/$defs/Name", ref)
	}
	for _, part := range strings.Split(ref[2:], "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		switch n.kind {
		case jsonObject:
			v, ok := n.get(part)
			if !ok {
				return nil, fmt.Errorf("$ref %q: no %q in the schema", ref, part)
			}
			n = v
		case jsonArray:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(n.values) {
				return nil, fmt.Errorf("$ref %q: no item %q in the schema", ref, part)
			}
			n = n.values[i]
		default:
			return nil, fmt.Errorf("$ref %q: %q is not inside an object or array", ref, part)
		}
	}
	return n, nil
}

func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// inline copies a schema with every $ref replaced by what it names, so a
// parameter's schema stands alone; refs is the chain being expanded, and a
// reference back into it (a recursive schema) is refused: a call's
// arguments, and the machine that reads them, must be finite.
func (r *schemaReader) inline(n *jsonNode, path string, refs []string) (*jsonNode, error) {
	if len(refs) > maxRefHops {
		return nil, schemaErrorf(path, "references nest deeper than %d", maxRefHops)
	}
	if ref, ok := n.get("$ref"); ok && ref.kind == jsonString {
		if slices.Contains(refs, ref.str) {
			return nil, schemaErrorf(path+"/$ref", "$ref %q refers back to itself (%s); a call's arguments must be finite, so make the cycle end", ref.str, strings.Join(append(refs, ref.str), " -> "))
		}
		target, err := r.pointer(ref.str)
		if err != nil {
			return nil, schemaErrorf(path+"/$ref", "%v", err)
		}
		resolved, err := r.inline(target, strings.TrimPrefix(ref.str, "#"), append(refs, ref.str))
		if err != nil {
			return nil, err
		}
		if len(n.keys) == 1 {
			return resolved, nil
		}
		// A $ref beside other keywords applies both (JSON Schema 2019+).
		out := &jsonNode{kind: jsonObject, keys: []string{"allOf"}, values: []*jsonNode{{kind: jsonArray, values: []*jsonNode{resolved}}}}
		for i, k := range n.keys {
			if k == "$ref" {
				continue
			}
			v, err := r.inline(n.values[i], path+"/"+pointerEscape(k), refs)
			if err != nil {
				return nil, err
			}
			out.keys, out.values = append(out.keys, k), append(out.values, v)
		}
		return out, nil
	}
	switch n.kind {
	case jsonObject:
		out := &jsonNode{kind: jsonObject}
		for i, k := range n.keys {
			if k == "$defs" || k == "definitions" || k == "$schema" || k == "$id" {
				continue // resolved away; a parameter's schema has no identity of its own
			}
			v, err := r.inline(n.values[i], path+"/"+pointerEscape(k), refs)
			if err != nil {
				return nil, err
			}
			out.keys, out.values = append(out.keys, k), append(out.values, v)
		}
		return out, nil
	case jsonArray:
		out := &jsonNode{kind: jsonArray}
		for i, v := range n.values {
			c, err := r.inline(v, fmt.Sprintf("%s/%d", path, i), refs)
			if err != nil {
				return nil, err
			}
			out.values = append(out.values, c)
		}
		return out, nil
	}
	return n, nil
}
