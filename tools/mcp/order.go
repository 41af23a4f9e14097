package mcp

import (
	"bytes"
	"encoding/json"
	"sort"
)

// schemaText writes a listed tool's inputSchema as JSON whose properties
// come in the server's order as far as it can be known. The SDK hands a
// client the schema as a map (its key order lost), and tools.
// ParamsFromSchema takes the positional order of parameters from the
// text; the "required" array keeps the server's order of the required
// properties, so they come first in that order, then the optional ones
// by name.
func schemaText(schema any) (json.RawMessage, error) {
	m, ok := schema.(map[string]any)
	if !ok {
		return json.Marshal(schema)
	}
	props, ok := m["properties"].(map[string]any)
	if !ok {
		return json.Marshal(m)
	}
	var order []string
	seen := map[string]bool{}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok && !seen[name] {
				if _, exists := props[name]; exists {
					order = append(order, name)
					seen[name] = true
				}
			}
		}
	}
	var rest []string
	for name := range props {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	order = append(order, rest...)

	var b bytes.Buffer
	b.WriteByte('{')
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kj, _ := json.Marshal(k)
		b.Write(kj)
		b.WriteByte(':')
		if k != "properties" {
			vj, err := json.Marshal(m[k])
			if err != nil {
				return nil, err
			}
			b.Write(vj)
			continue
		}
		b.WriteByte('{')
		for j, name := range order {
			if j > 0 {
				b.WriteByte(',')
			}
			nj, _ := json.Marshal(name)
			vj, err := json.Marshal(props[name])
			if err != nil {
				return nil, err
			}
			b.Write(nj)
			b.WriteByte(':')
			b.Write(vj)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
