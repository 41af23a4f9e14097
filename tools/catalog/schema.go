package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Reading a tool's schema and examples beyond what tools.ParamsFromSchema
// does: an example's arguments as a call, and a parameter that says nothing
// of its value (catalog.go reads the file, entry.go each tool).

// exampleCall writes an example's arguments as the tool's canonical call,
// read back by the call parser and checked against the input schema, as a
// call the model wrote would be.
func exampleCall(spec tools.Spec, args json.RawMessage, checker *tools.ArgsSchema) (string, error) {
	var given map[string]json.RawMessage
	if err := json.Unmarshal(args, &given); err != nil || given == nil {
		return "", errors.New("arguments: want an object mapping parameter names to values")
	}
	var b strings.Builder
	b.WriteString(`{"tool": `)
	name, _ := json.Marshal(spec.Name)
	b.Write(name)
	b.WriteString(`, "args": {`)
	n := 0
	for _, p := range spec.Params {
		v, ok := given[p.Name]
		if !ok {
			continue
		}
		delete(given, p.Name)
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		key, _ := json.Marshal(p.Name)
		b.Write(key)
		b.WriteString(": ")
		b.Write(bytes.TrimSpace(v))
	}
	for k := range given {
		return "", fmt.Errorf("arguments: %q is not a parameter of %s", k, spec.Signature())
	}
	b.WriteString("}}")
	lookup := func(n string) (tools.Spec, bool) { return spec, n == spec.Name }
	c, err := tools.Parse(b.String(), lookup)
	if err != nil {
		return "", fmt.Errorf("arguments do not fit %s: %v", spec.Signature(), err)
	}
	if err := checker.Check(c); err != nil {
		return "", errors.New(strings.TrimPrefix(err.Error(), spec.Name+": "))
	}
	return c.String(), nil
}

// anyType is the JSON Schema type list of a value that may be anything.
const anyType = `"type": ["string", "number", "integer", "boolean", "array", "object", "null"]`

// typeUntyped returns the schema with anyType given to each top-level
// property that says nothing of its value (no type, no combinator, no
// enum or const, no reference), in the text's order; ok is false when no
// property is untyped or the schema is not an object of properties.
func typeUntyped(schema json.RawMessage) (json.RawMessage, bool) {
	root, ok := orderedObject(schema)
	if !ok {
		return nil, false
	}
	changed := false
	for i, k := range root.keys {
		if k != "properties" {
			continue
		}
		props, ok := orderedObject(root.values[i])
		if !ok {
			return nil, false
		}
		for j, v := range props.values {
			var fields map[string]json.RawMessage
			if json.Unmarshal(v, &fields) != nil || fields == nil {
				continue
			}
			says := false
			for _, kw := range []string{"type", "anyOf", "oneOf", "allOf", "enum", "const", "$ref", "properties", "items", "not", "if"} {
				if _, ok := fields[kw]; ok {
					says = true
				}
			}
			if says {
				continue
			}
			body := bytes.TrimSpace(v)[1:] // after '{'
			sep := ", "
			if len(bytes.TrimSpace(body)) == 1 { // "}": the empty schema
				sep = ""
			}
			props.values[j] = json.RawMessage("{" + anyType + sep + string(body))
			changed = true
		}
		root.values[i] = props.marshal()
	}
	if !changed {
		return nil, false
	}
	return root.marshal(), true
}

// ordered is a JSON object's members in the text's order.
type ordered struct {
	keys   []string
	values []json.RawMessage
}

func orderedObject(raw json.RawMessage) (*ordered, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	o := &ordered{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		k, ok := t.(string)
		if !ok {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		o.keys, o.values = append(o.keys, k), append(o.values, v)
	}
	return o, true
}

func (o *ordered) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		key, _ := json.Marshal(k)
		b.Write(key)
		b.WriteString(": ")
		b.Write(o.values[i])
	}
	b.WriteByte('}')
	return b.Bytes()
}
