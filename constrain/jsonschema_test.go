package constrain

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strings"
)

// A small JSON Schema validator for the keywords the export uses: type,
// properties, required, additionalProperties, enum, anyOf, pattern,
// minimum, maximum. Instances are decoded with numbers kept as written.

func decodeInstance(text string) (any, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	return v, true
}

type schemaValidator struct{ patterns map[string]*regexp.Regexp }

func (sv *schemaValidator) valid(schema map[string]any, v any) bool {
	if t, ok := schema["type"].(string); ok && !typeMatches(t, v) {
		return false
	}
	if alts, ok := schema["anyOf"].([]any); ok {
		matched := false
		for _, a := range alts {
			if sv.valid(a.(map[string]any), v) {
				matched = true
				break
			}
		}
		if !matched {
			return false
		}
	}
	if enum, ok := schema["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			if e == v {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	if p, ok := schema["pattern"].(string); ok {
		s, isString := v.(string)
		if !isString {
			return false
		}
		re := sv.patterns[p]
		if re == nil {
			re = regexp.MustCompile(p)
			sv.patterns[p] = re
		}
		if !re.MatchString(s) {
			return false
		}
	}
	if n, ok := v.(json.Number); ok {
		x, _ := new(big.Float).SetString(n.String())
		if lo, ok := schema["minimum"].(json.Number); ok {
			l, _ := new(big.Float).SetString(lo.String())
			if x.Cmp(l) < 0 {
				return false
			}
		}
		if hi, ok := schema["maximum"].(json.Number); ok {
			h, _ := new(big.Float).SetString(hi.String())
			if x.Cmp(h) > 0 {
				return false
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		props, _ := schema["properties"].(map[string]any)
		for _, r := range asList(schema["required"]) {
			if _, ok := obj[r.(string)]; !ok {
				return false
			}
		}
		for k, val := range obj {
			ps, known := props[k]
			if !known {
				if schema["additionalProperties"] == false {
					return false
				}
				continue
			}
			if !sv.valid(ps.(map[string]any), val) {
				return false
			}
		}
	}
	return true
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func typeMatches(t string, v any) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		x, ok := new(big.Float).SetString(n.String())
		return ok && x.IsInt()
	}
	return false
}
