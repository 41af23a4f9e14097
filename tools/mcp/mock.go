package mcp

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// mockResponse is the response grounding reads for a tool it must not run
// (GEAR, arXiv:2307.08775, Appendix A.3): what the tool's answer looks like, with
// the call's arguments in it ("{a}"), so its pattern score compares shapes
// without a side effect. With an outputSchema, it is a compact JSON
// instance of that schema — numbers where numbers come back, strings where
// text does, an output property named like a parameter filled with that
// argument. Without one, all that is known of the answer is what it is
// about: the call's arguments ("{a}, {b}"), as the paper's mocks echo
// theirs ("Robot is moving forward for {} meters"); the description's
// words are left out because they are the tool's words, not its answer's,
// and would weigh as English text the answer may not have. A tool without
// parameters gets its description's first sentence.
func mockResponse(outputSchema json.RawMessage, description string, params []tools.Param) string {
	names := map[string]bool{}
	for _, p := range params {
		names[p.Name] = true
	}
	if len(outputSchema) > 0 {
		var s map[string]any
		if json.Unmarshal(outputSchema, &s) == nil {
			if v := instance(s, "", names, 0); v != nil {
				if js, err := json.Marshal(v); err == nil {
					// json.Marshal escapes nothing in "{a}", so the
					// placeholders stay for MockResponse to fill.
					return string(js)
				}
			}
		}
	}
	if len(params) == 0 {
		return firstSentence(description)
	}
	var b strings.Builder
	for i, p := range params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("{" + p.Name + "}")
	}
	return b.String()
}

// instance builds an example value of a JSON Schema, depth-bounded.
func instance(s map[string]any, name string, params map[string]bool, depth int) any {
	if depth > 4 {
		return nil
	}
	if params[name] {
		return "{" + name + "}"
	}
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	if def, ok := s["default"]; ok {
		return def
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	typ, _ := s["type"].(string)
	if arr, ok := s["type"].([]any); ok && len(arr) > 0 {
		typ, _ = arr[0].(string)
	}
	switch typ {
	case "number":
		return 1.5
	case "integer":
		return 1
	case "boolean":
		return true
	case "null":
		return nil
	case "array":
		items, _ := s["items"].(map[string]any)
		if v := instance(items, name, params, depth+1); v != nil {
			return []any{v}
		}
		return []any{}
	case "object", "":
		props, _ := s["properties"].(map[string]any)
		if len(props) == 0 {
			if typ == "" {
				return nil
			}
			return map[string]any{}
		}
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(keys))
		for _, k := range keys {
			ps, _ := props[k].(map[string]any)
			out[k] = instance(ps, k, params, depth+1)
		}
		return out
	case "string":
		switch s["format"] {
		case "date-time":
			return "2024-01-01T12:00:00Z"
		case "date":
			return "2024-01-01"
		case "uri":
			return "https://example.org/"
		}
		if name != "" {
			return strings.ReplaceAll(name, "_", " ")
		}
		return "text"
	}
	return nil
}

// outputPattern names gear's special pattern that a tool's structured
// output carries: "time" when its schema is about dates and times. Other
// tools use the generic patterns.
func outputPattern(outputSchema json.RawMessage) string {
	if len(outputSchema) == 0 {
		return ""
	}
	var s map[string]any
	if json.Unmarshal(outputSchema, &s) != nil {
		return ""
	}
	props, _ := s["properties"].(map[string]any)
	if len(props) == 0 {
		return ""
	}
	timed := 0
	for _, p := range props {
		ps, _ := p.(map[string]any)
		if f, _ := ps["format"].(string); f == "date-time" || f == "date" || f == "time" {
			timed++
		}
	}
	if timed*2 >= len(props) {
		return "time"
	}
	return ""
}

// firstSentence is text up to its first full stop, at most 100 bytes.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	return clip(s, 100)
}
