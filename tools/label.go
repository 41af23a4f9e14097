package tools

import (
	"strings"
	"unicode/utf8"
)

// TypeLabel names a parameter's type for people and prompts: its
// ParamType, or for a JSON value what its schema says in a few words
// ("array of string", "object", "integer|null", "one of 1, 2, \"max\"").
func (p Param) TypeLabel() string {
	if p.Type != TypeJSON || len(p.Schema) == 0 {
		return string(p.Type)
	}
	n, err := decodeOrdered(p.Schema)
	if err != nil {
		return string(p.Type)
	}
	if l := schemaLabel(n, 0); l != "" {
		return l
	}
	return string(p.Type)
}

// maxLabelLen bounds a label; longer ones are cut with "…".
const maxLabelLen = 60

func schemaLabel(n *jsonNode, depth int) string {
	l := schemaLabelFull(n, depth)
	if utf8.RuneCountInString(l) > maxLabelLen {
		l = string([]rune(l)[:maxLabelLen-1]) + "…"
	}
	return l
}

func schemaLabelFull(n *jsonNode, depth int) string {
	if n.kind == jsonBool {
		if n.bool {
			return "any"
		}
		return ""
	}
	if n.kind != jsonObject || depth > 2 {
		return ""
	}
	if v, ok := n.get("const"); ok {
		return string(v.raw())
	}
	if e, ok := n.get("enum"); ok && e.kind == jsonArray {
		vals := make([]string, len(e.values))
		for i, v := range e.values {
			vals[i] = string(v.raw())
		}
		return "one of " + strings.Join(vals, ", ")
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts, ok := n.get(key); ok && alts.kind == jsonArray {
			var parts []string
			for _, a := range alts.values {
				if l := schemaLabelFull(a, depth+1); l != "" {
					parts = append(parts, l)
				}
			}
			if len(parts) > 0 {
				return strings.Join(parts, "|")
			}
		}
	}
	t, ok := n.get("type")
	if !ok {
		if _, props := n.get("properties"); props {
			return "object"
		}
		return "any"
	}
	var names []string
	switch t.kind {
	case jsonString:
		names = []string{t.str}
	case jsonArray:
		for _, v := range t.values {
			if v.kind == jsonString {
				names = append(names, v.str)
			}
		}
	}
	for i, name := range names {
		if name == "array" {
			if items, ok := n.get("items"); ok {
				if l := schemaLabelFull(items, depth+1); l != "" {
					names[i] = "array of " + l
				}
			}
		}
	}
	return strings.Join(names, "|")
}
