package declared

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/gear-chat/gear/tools"
)

// paramsFromSchema reads a tool's typed parameters from its JSON Schema
// object. It covers the types the call syntax has today — string (with
// enum, format date and date-time), number and integer; a property of any
// other type is refused with a message rather than dropped. Required
// parameters come first, in the file's order, then the optional ones.
//
// The tools package's own reader of JSON Schema (tools.ParamsFromSchema,
// issue 12's second deliverable, on its own branch) replaces this once it
// is merged; the declared-tools contract does not change.
func paramsFromSchema(raw json.RawMessage) ([]tools.Param, error) {
	var schema struct {
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("parameters must be a JSON Schema object: %v", err)
	}
	if schema.Type != "" && schema.Type != "object" {
		return nil, fmt.Errorf("parameters: type must be object, not %q", schema.Type)
	}
	names, props, err := orderedProperties(schema.Properties)
	if err != nil {
		return nil, err
	}
	required := map[string]bool{}
	for _, r := range schema.Required {
		if _, ok := props[r]; !ok {
			return nil, fmt.Errorf("parameters: required names %q, which is not among the properties", r)
		}
		required[r] = true
	}
	var params []tools.Param
	for _, name := range names {
		var prop struct {
			Type        string   `json:"type"`
			Description string   `json:"description"`
			Enum        []string `json:"enum"`
			Format      string   `json:"format"`
			MaxLength   int      `json:"maxLength"`
		}
		if err := json.Unmarshal(props[name], &prop); err != nil {
			return nil, fmt.Errorf("parameter %s: %v", name, err)
		}
		p := tools.Param{Name: name, Description: prop.Description, Optional: !required[name], MaxLen: prop.MaxLength}
		switch {
		case prop.Type == "string" && len(prop.Enum) > 0:
			p.Type, p.Enum = tools.TypeEnum, prop.Enum
		case prop.Type == "string" && prop.Format == "date":
			p.Type = tools.TypeDate
		case prop.Type == "string" && prop.Format == "date-time":
			p.Type = tools.TypeDateTime
		case prop.Type == "string":
			p.Type = tools.TypeString
		case prop.Type == "number":
			p.Type = tools.TypeNumber
		case prop.Type == "integer":
			p.Type = tools.TypeInteger
		default:
			return nil, fmt.Errorf("parameter %s: type %q is not supported yet (use string, number or integer)", name, prop.Type)
		}
		params = append(params, p)
	}
	sort.SliceStable(params, func(i, j int) bool { return !params[i].Optional && params[j].Optional })
	return params, nil
}

// orderedProperties reads a JSON object's keys in their order.
func orderedProperties(raw json.RawMessage) ([]string, map[string]json.RawMessage, error) {
	props := map[string]json.RawMessage{}
	if len(raw) == 0 {
		return nil, props, nil
	}
	if err := json.Unmarshal(raw, &props); err != nil {
		return nil, nil, fmt.Errorf("parameters: properties must be a mapping of names to schemas: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	var names []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		names = append(names, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, nil, err
		}
	}
	return names, props, nil
}
