package declared

import (
	"bytes"
	"encoding/json"

	"gopkg.in/yaml.v3"

	"github.com/gear-chat/gear/tools"
)

// bodyTemplate is a JSON body declared as YAML: mappings and lists keep
// their shape, strings are templates, and a string that is exactly
// "{name}" takes the argument's own JSON type (a number stays a number,
// a boolean a boolean).
// An entry naming an optional parameter the call left out is left out.
type bodyTemplate struct {
	fields []bodyField
	items  []*bodyTemplate
	isObj  bool
	isArr  bool
	text   *template
	lit    json.RawMessage
}

type bodyField struct {
	key string
	v   *bodyTemplate
}

func parseBody(ps *problems, n *yaml.Node, spec tools.Spec, depth int) *bodyTemplate {
	if depth > maxSchemaDepth {
		ps.at(n, "body is nested more than %d levels deep", maxSchemaDepth)
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		b := &bodyTemplate{isObj: true}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v := parseBody(ps, n.Content[i+1], spec, depth+1)
			if v == nil {
				return nil
			}
			b.fields = append(b.fields, bodyField{key: n.Content[i].Value, v: v})
		}
		return b
	case yaml.SequenceNode:
		b := &bodyTemplate{isArr: true}
		for _, c := range n.Content {
			v := parseBody(ps, c, spec, depth+1)
			if v == nil {
				return nil
			}
			b.items = append(b.items, v)
		}
		return b
	case yaml.ScalarNode:
		if n.ShortTag() != "!!str" {
			raw, err := nodeJSON(n)
			if err != nil {
				ps.at(n, "body: %v", err)
				return nil
			}
			return &bodyTemplate{lit: raw}
		}
		t, err := parseTemplate(n.Value, false)
		if err != nil {
			ps.at(n, "body: %v", err)
			return nil
		}
		if err := t.check(spec); err != nil {
			ps.at(n, "body: %v", err)
			return nil
		}
		return &bodyTemplate{text: &t}
	}
	ps.at(n, "body: %s is not allowed here; write the JSON value out", describeNode(n))
	return nil
}

// fill builds the body's value; present is false for a template naming an
// argument the call left out.
func (b *bodyTemplate) fill(x expansion) (v any, present bool, err error) {
	switch {
	case b.isObj:
		obj := orderedObject{}
		for _, f := range b.fields {
			v, present, err := f.v.fill(x)
			if err != nil {
				return nil, false, err
			}
			if present {
				obj = append(obj, orderedField{f.key, v})
			}
		}
		return obj, true, nil
	case b.isArr:
		arr := []any{}
		for _, it := range b.items {
			v, present, err := it.fill(x)
			if err != nil {
				return nil, false, err
			}
			if present {
				arr = append(arr, v)
			}
		}
		return arr, true, nil
	case b.text != nil:
		if name, ok := b.text.whole(); ok {
			a, ok := x.call.Arg(name)
			if !ok {
				return nil, false, nil
			}
			switch a.Kind {
			case tools.KindNumber:
				return json.Number(tools.FormatNumber(a.Num)), true, nil
			case tools.KindBoolean:
				return a.Bool, true, nil
			}
			return a.Text(), true, nil
		}
		s, present, err := b.text.fill(x, "body")
		return s, present, err
	}
	return b.lit, true, nil
}

// orderedObject is a JSON object that keeps the file's key order.
type orderedObject []orderedField

type orderedField struct {
	key string
	v   any
}

// encodeJSON writes v as compact JSON, objects in their declared order
// and <, > and & as themselves (a body is not HTML).
func encodeJSON(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case orderedObject:
		b.WriteByte('{')
		for i, f := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encodeJSON(b, f.key); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := encodeJSON(b, f.v); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, it := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encodeJSON(b, it); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		enc := json.NewEncoder(b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
	}
	return nil
}
