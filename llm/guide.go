package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// applyGuide puts a guide where the server reads it: OpenAI, Ollama, LM
// Studio and generic servers take response_format json_schema (strict; for
// OpenAI the schema is made strict too); llama.cpp takes a top-level
// grammar or json_schema — one of them, and never with tools; vLLM takes
// structured_outputs (its guided_* fields were removed in 0.12).
func (c *Client) applyGuide(kind ServerKind, caps Capabilities, g Guide, tools bool, o *openai.ChatCompletionRequest, extra map[string]any) error {
	if err := c.checkGuide(caps, g, tools); err != nil {
		return err
	}
	switch kind {
	case ServerLlamaCpp, ServerVLLM:
		return c.guideFields(kind, g, extra)
	}
	schema := g.JSONSchema
	if kind == ServerOpenAI {
		strict, err := StrictSchema(schema)
		if err != nil {
			return &Error{Kind: ErrBadRequest, Role: c.ep.Role, Detail: "guide schema: " + err.Error()}
		}
		schema = strict
	}
	name := g.Name
	if name == "" {
		name = "gear_output"
	}
	o.ResponseFormat = &openai.ChatCompletionResponseFormat{
		Type:       openai.ChatCompletionResponseFormatTypeJSONSchema,
		JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: name, Schema: schema, Strict: true},
	}
	return nil
}

// checkGuide refuses a guide the server cannot follow, before any request.
func (c *Client) checkGuide(caps Capabilities, g Guide, tools bool) error {
	set := 0
	for _, on := range []bool{len(g.JSONSchema) > 0, g.Grammar != "", g.Regex != "", len(g.Choice) > 0} {
		if on {
			set++
		}
	}
	if set != 1 {
		return &Error{Kind: ErrBadRequest, Role: c.ep.Role, Detail: "a guide sets exactly one of JSONSchema, Grammar, Regex, Choice"}
	}
	switch {
	case tools && !caps.GuideWithTools:
		return c.unsupported("guided decoding together with tools")
	case len(g.JSONSchema) > 0 && !caps.JSONSchema:
		return c.unsupported("JSON-schema guided decoding")
	case g.Grammar != "" && !caps.Grammar:
		return c.unsupported("grammar-guided decoding")
	case g.Regex != "" && !caps.Regex:
		return c.unsupported("regex-guided decoding")
	case len(g.Choice) > 0 && !caps.Choice:
		return c.unsupported("choice-guided decoding")
	}
	if len(g.JSONSchema) > 0 && !json.Valid(g.JSONSchema) {
		return &Error{Kind: ErrBadRequest, Role: c.ep.Role, Detail: "guide schema is not valid JSON"}
	}
	return nil
}

// guideFields sets llama.cpp's and vLLM's own fields; the completions
// endpoint of both reads the same ones.
func (c *Client) guideFields(kind ServerKind, g Guide, extra map[string]any) error {
	if kind == ServerVLLM {
		so := map[string]any{}
		switch {
		case len(g.JSONSchema) > 0:
			so["json"] = g.JSONSchema
		case g.Regex != "":
			so["regex"] = g.Regex
		case len(g.Choice) > 0:
			so["choice"] = g.Choice
		default:
			so["grammar"] = g.Grammar
		}
		extra["structured_outputs"] = so
		return nil
	}
	switch {
	case len(g.JSONSchema) > 0:
		extra["json_schema"] = g.JSONSchema
	case len(g.Choice) > 0:
		extra["grammar"] = ChoiceGrammar(g.Choice)
	default:
		extra["grammar"] = g.Grammar
	}
	return nil
}

// ChoiceGrammar is a GBNF grammar whose only sentences are the choices.
func ChoiceGrammar(choices []string) string {
	alts := make([]string, len(choices))
	for i, ch := range choices {
		alts[i] = gbnfLiteral(ch)
	}
	return "root ::= " + strings.Join(alts, " | ")
}

func gbnfLiteral(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\x%02X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// StrictSchema rewrites a JSON schema the way OpenAI's strict mode demands:
// every object gets "additionalProperties": false and lists all its
// properties as required; a property that was optional becomes nullable, so
// the model can still leave it out by sending null.
func StrictSchema(schema json.RawMessage) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("schema is not valid JSON: %w", err)
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema is not a JSON object")
	}
	strictify(root)
	return json.Marshal(root)
}

func strictify(s map[string]any) {
	if props, ok := s["properties"].(map[string]any); ok || s["type"] == "object" {
		required := map[string]bool{}
		if list, ok := s["required"].([]any); ok {
			for _, r := range list {
				if name, ok := r.(string); ok {
					required[name] = true
				}
			}
		}
		names := make([]string, 0, len(props))
		for name, p := range props {
			names = append(names, name)
			if ps, ok := p.(map[string]any); ok {
				strictify(ps)
				if !required[name] {
					props[name] = nullable(ps)
				}
			}
		}
		sort.Strings(names)
		all := make([]any, len(names))
		for i, n := range names {
			all[i] = n
		}
		s["required"] = all
		s["additionalProperties"] = false
		if props == nil {
			s["properties"] = map[string]any{}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		strictify(items)
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if list, ok := s[key].([]any); ok {
			for _, sub := range list {
				if m, ok := sub.(map[string]any); ok {
					strictify(m)
				}
			}
		}
	}
	for _, key := range []string{"$defs", "definitions"} {
		if defs, ok := s[key].(map[string]any); ok {
			for _, sub := range defs {
				if m, ok := sub.(map[string]any); ok {
					strictify(m)
				}
			}
		}
	}
}

// nullable lets a schema also accept null.
func nullable(s map[string]any) map[string]any {
	switch t := s["type"].(type) {
	case string:
		if t != "null" {
			s["type"] = []any{t, "null"}
		}
	case []any:
		for _, x := range t {
			if x == "null" {
				return s
			}
		}
		s["type"] = append(t, "null")
	default:
		return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
	}
	if enum, ok := s["enum"].([]any); ok {
		s["enum"] = append(enum, nil)
	}
	return s
}
