package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// paramsFromSchema reads a tool's parameters from its inputSchema, in the
// order the schema lists its properties, with props mapping each
// parameter's name to its schema property.
//
// TODO(i12-schema): replace by tools.ParamsFromSchema once merged; this
// reads only the types the machine expresses today (number, integer,
// string, enum, date, date-time) and refuses the others by name.
func paramsFromSchema(schema json.RawMessage) ([]tools.Param, map[string]string, error) {
	var s struct {
		Type       any                        `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, nil, fmt.Errorf("inputSchema: %v", err)
	}
	order, err := propertyOrder(schema)
	if err != nil {
		return nil, nil, err
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	var req, opt []tools.Param
	props := map[string]string{}
	for _, name := range order {
		raw := s.Properties[name]
		var ps struct {
			Type        any    `json:"type"`
			Enum        []any  `json:"enum"`
			Format      string `json:"format"`
			Description string `json:"description"`
			MaxLength   int    `json:"maxLength"`
		}
		if err := json.Unmarshal(raw, &ps); err != nil {
			return nil, nil, fmt.Errorf("parameter %q: %v", name, err)
		}
		pname := paramName(name)
		if pname == "" {
			return nil, nil, fmt.Errorf("parameter %q: no letters", name)
		}
		p := tools.Param{Name: pname, Description: oneLine(ps.Description), Optional: !required[name]}
		typ, _ := ps.Type.(string)
		switch {
		case len(ps.Enum) > 0:
			p.Type = tools.TypeEnum
			for _, v := range ps.Enum {
				sv, ok := v.(string)
				if !ok {
					return nil, nil, fmt.Errorf("parameter %s: enum of non-strings", name)
				}
				p.Enum = append(p.Enum, sv)
			}
		case typ == "number":
			p.Type = tools.TypeNumber
		case typ == "integer":
			p.Type = tools.TypeInteger
		case typ == "string" && ps.Format == "date":
			p.Type = tools.TypeDate
		case typ == "string" && ps.Format == "date-time":
			p.Type = tools.TypeDateTime
		case typ == "string":
			p.Type = tools.TypeString
			if ps.MaxLength > 0 && ps.MaxLength <= tools.MaxStringLen {
				p.MaxLen = ps.MaxLength
			}
		default:
			return nil, nil, fmt.Errorf("parameter %s: type %v is not supported yet", name, ps.Type)
		}
		props[pname] = name
		if p.Optional {
			opt = append(opt, p)
		} else {
			req = append(req, p)
		}
	}
	return append(req, opt...), props, nil
}

var camelBoundary = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// paramName turns a schema property into a gear parameter name:
// lower-case snake case ("maxResults" → "max_results").
func paramName(prop string) string {
	s := strings.ToLower(camelBoundary.ReplaceAllString(prop, "${1}_${2}"))
	s = nonParamChars.ReplaceAllString(s, "_")
	s = strings.Trim(s, "_")
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		s = "p_" + s
	}
	if len(s) > 32 {
		s = s[:32]
	}
	return s
}

var nonParamChars = regexp.MustCompile(`[^a-z0-9_]+`)

// propertyOrder lists the schema's top-level properties in the order they
// are written: a server lists the important ones first, and the positional
// call form follows that order.
func propertyOrder(schema json.RawMessage) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("inputSchema: want a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("inputSchema: %v", err)
		}
		key, _ := tok.(string)
		if key != "properties" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("inputSchema: %v", err)
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return nil, fmt.Errorf("inputSchema: properties: want an object")
		}
		var order []string
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, fmt.Errorf("inputSchema: %v", err)
			}
			order = append(order, tok.(string))
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("inputSchema: %v", err)
			}
		}
		return order, nil
	}
	return nil, nil
}
