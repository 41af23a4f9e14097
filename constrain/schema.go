package constrain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// DefaultSchemaDepth is the expression nesting the JSON Schema's pattern
// spells out by default. It is lower than the regular expression's because
// a schema carries the pattern once per expression parameter and servers
// compile it per request; the machine still checks deeper expressions.
const DefaultSchemaDepth = 1

// JSONSchema is the grammar as a JSON Schema valid for OpenAI's strict
// structured outputs (and Ollama's format, llama.cpp's json_schema, vLLM's
// structured_outputs.json). OpenAI wants an object at the root with no
// anyOf there, every property required and additionalProperties false
// everywhere, so the call sits under one property:
//
//	{"call": {"tool": "Sum", "args": {"expression": "2 + 4"}}}
//
// "call" is anyOf one variant per tool and per number of optional
// arguments given (strict mode has no optional properties, and a null
// would let an optional argument be skipped before a given one, which the
// call syntax forbids). Key order follows the parameters, as strict mode
// emits keys in schema order. Depth 0 in opts means DefaultSchemaDepth.
//
// What the schema cannot say, the machine still checks when
// ValidateSchemaOutput reads the model's output:
//   - a number's spelling: JSON Schema numbers allow exponents (1e5) and
//     any length, the call syntax neither; an integer may not be written
//     3.0 in a call, though JSON Schema counts it as an integer;
//   - an expression's length (MaxExpressionLen) and nesting beyond the
//     pattern's depth;
//   - a string's bound is a pattern, ^[\s\S]{1,N}$, counted in characters
//     by Go and RE2 but in UTF-16 units by JavaScript engines;
//   - escapes: the schema sees decoded strings; a \u escape naming a lone
//     surrogate decodes to U+FFFD.
func (m *Machine) JSONSchema(opts ExportOptions) []byte {
	depth := opts.depth(DefaultSchemaDepth)
	g := newGrammar()
	var variants []any
	for i := range m.tools {
		t := &m.tools[i]
		// Each parameter's schema once: the variants share them.
		schemas := make([]any, len(t.params))
		for k := range t.params {
			schemas[k] = paramSchema(g, t.spec.Params[k], &t.params[k], depth)
		}
		for k := t.required; k <= len(t.params); k++ {
			props := jsonObject{}
			required := []string{}
			for j, p := range t.params[:k] {
				props = append(props, jsonField{p.name, schemas[j]})
				required = append(required, p.name)
			}
			desc := t.spec.Description
			if k < len(t.params) {
				var left []string
				for _, p := range t.params[k:] {
					left = append(left, p.name)
				}
				desc += " (without " + strings.Join(left, ", ") + ")"
			}
			variants = append(variants, jsonObject{
				{"type", "object"},
				{"description", desc},
				{"properties", jsonObject{
					{"tool", jsonObject{{"type", "string"}, {"enum", []string{t.spec.Name}}}},
					{"args", jsonObject{
						{"type", "object"},
						{"properties", props},
						{"required", required},
						{"additionalProperties", false},
					}},
				}},
				{"required", []string{"tool", "args"}},
				{"additionalProperties", false},
			})
		}
	}
	if variants == nil {
		variants = []any{} // an empty library: nothing validates
	}
	schema := jsonObject{
		{"type", "object"},
		{"description", "One call of a gear tool: the tool's name and its arguments in parameter order."},
		{"properties", jsonObject{{"call", jsonObject{{"anyOf", variants}}}}},
		{"required", []string{"call"}},
		{"additionalProperties", false},
	}
	out, err := json.Marshal(schema)
	if err != nil {
		// Only strings, numbers, booleans and these objects are marshalled.
		panic(fmt.Sprintf("constrain: schema: %v", err))
	}
	return out
}

// paramSchema is the schema of one parameter: spec and p describe it.
func paramSchema(g *grammar, spec tools.Param, p *paramInfo, depth int) any {
	s := jsonObject{}
	switch p.kind {
	case kindNumber:
		s = append(s, jsonField{"type", "number"})
	case kindInteger:
		limit := math.Pow(10, tools.MaxIntegerDigits) - 1
		s = append(s, jsonField{"type", "integer"}, jsonField{"minimum", -limit}, jsonField{"maximum", limit})
	case kindString:
		pattern := fmt.Sprintf(`^[\s\S]{1,%d}$`, p.bound)
		if p.bound > maxExportRepeat {
			pattern = `^[\s\S]+$` // see stringRule
		}
		s = append(s, jsonField{"type", "string"}, jsonField{"pattern", pattern})
	case kindPattern:
		if p.typ == tools.TypeEnum {
			s = append(s, jsonField{"type", "string"}, jsonField{"enum", spec.Enum})
		} else {
			rule := g.contentRule(p.pattern)
			s = append(s, jsonField{"type", "string"}, jsonField{"pattern", "^(?:" + g.regex(rule) + ")$"})
		}
	case kindWord:
		s = append(s, jsonField{"type", "boolean"})
	case kindRange:
		lo, hi := spec.IntegerRange()
		s = append(s, jsonField{"type", "integer"}, jsonField{"minimum", lo}, jsonField{"maximum", hi})
	case kindJSON:
		// The parameter's own schema, as exact as JSON Schema is: the
		// machine reads any JSON value there and checks it against the
		// same schema after decoding.
		if len(spec.Schema) == 0 {
			return jsonObject{{"description", spec.Description}}
		}
		return rawSchema(spec.Schema)
	case kindExpression:
		rule := g.exprRules(jsonFlavor(), depth)
		s = append(s, jsonField{"type", "string"}, jsonField{"pattern", "^(?:" + g.regex(rule) + ")$"})
	}
	if spec.Description != "" {
		s = append(s, jsonField{"description", spec.Description})
	}
	return s
}

// ValidateSchemaOutput reads a model's output under JSONSchema, writes the
// call in the JSON form — tool, then the arguments in parameter order,
// each string re-quoted with tools.Quote and each number as the model
// spelled it — and validates that with the machine. Key order and white
// space in the output do not matter; anything the schema let through that
// the call syntax refuses is an error here.
func (m *Machine) ValidateSchemaOutput(output string) (tools.Call, error) {
	text, err := m.SchemaOutputCall(output)
	if err != nil {
		return tools.Call{}, err
	}
	call, err := m.Validate(text)
	if err != nil {
		return tools.Call{}, fmt.Errorf("constrain: the model's call %s: %w", text, err)
	}
	return call, nil
}

// SchemaOutputCall turns a model's output under JSONSchema into the call's
// JSON form, without validating it.
func (m *Machine) SchemaOutputCall(output string) (string, error) {
	var inst struct {
		Call *struct {
			Tool *string                    `json:"tool"`
			Args map[string]json.RawMessage `json:"args"`
		} `json:"call"`
	}
	dec := json.NewDecoder(strings.NewReader(output))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	err := dec.Decode(&inst)
	if err == nil && dec.More() {
		err = fmt.Errorf("text after the object")
	}
	if err == nil && (inst.Call == nil || inst.Call.Tool == nil || inst.Call.Args == nil) {
		err = fmt.Errorf("missing call, tool or args")
	}
	if err != nil {
		return "", &Error{Column: 1, Msg: fmt.Sprintf(`expected {"call": {"tool": ..., "args": {...}}}: %v`, err)}
	}
	var keys []string
	seen := map[string]bool{}
	if i, ok := m.byName[*inst.Call.Tool]; ok {
		for _, p := range m.tools[i].params {
			if _, given := inst.Call.Args[p.name]; given {
				keys = append(keys, p.name)
				seen[p.name] = true
			}
		}
	}
	var rest []string
	for k := range inst.Call.Args {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	keys = append(keys, rest...)
	var b strings.Builder
	b.WriteString(`{"tool": ` + tools.Quote(*inst.Call.Tool) + `, "args": {`)
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tools.Quote(k) + ": ")
		raw := bytes.TrimSpace(inst.Call.Args[k])
		var str string
		if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &str) == nil {
			b.WriteString(tools.Quote(str))
			continue
		}
		var compact bytes.Buffer
		if json.Compact(&compact, raw) == nil {
			b.Write(compact.Bytes())
		} else {
			b.Write(raw)
		}
	}
	b.WriteString("}}")
	return b.String(), nil
}

// rawSchema is a parameter's schema written into the export as it is.
type rawSchema json.RawMessage

func (r rawSchema) MarshalJSON() ([]byte, error) { return r, nil }

// jsonObject is a JSON object that keeps its keys in order: strict
// structured outputs emit keys in schema order.
type jsonObject []jsonField

type jsonField struct {
	key   string
	value any
}

func (o jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
