package declared

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gear-chat/gear/sanitize"
)

// response says how a tool's answer text is read out of its raw output:
// a JSON pointer (RFC 6901) to one value, or a template whose holes are
// JSON pointers ("{/main/temp} °C in {/name}"). Without one the raw output
// is the answer.
type response struct {
	pointer *pointer
	parts   []respPart
}

type respPart struct {
	lit string
	ptr *pointer
}

// pointer is a parsed JSON pointer.
type pointer struct {
	src    string
	tokens []string
}

// parsePointer reads an RFC 6901 pointer: "" is the whole document,
// otherwise "/"-separated tokens with ~1 for / and ~0 for ~.
func parsePointer(s string) (*pointer, error) {
	if s == "" {
		return &pointer{src: s}, nil
	}
	if s[0] != '/' {
		return nil, fmt.Errorf("JSON pointer %q must start with / (e.g. /results/0/name)", s)
	}
	p := &pointer{src: s}
	for _, tok := range strings.Split(s[1:], "/") {
		for i := 0; i < len(tok); i++ {
			if tok[i] == '~' && (i+1 == len(tok) || (tok[i+1] != '0' && tok[i+1] != '1')) {
				return nil, fmt.Errorf("JSON pointer %q: ~ must be followed by 0 (for ~) or 1 (for /)", s)
			}
		}
		p.tokens = append(p.tokens, strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~"))
	}
	return p, nil
}

// resolve finds the pointer's value in a decoded JSON document.
func (p *pointer) resolve(doc any) (any, error) {
	v := doc
	for i, tok := range p.tokens {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[tok]
			if !ok {
				return nil, fmt.Errorf("the answer has no %q at %s", tok, p.prefix(i))
			}
			v = next
		case []any:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || (tok != "0" && strings.HasPrefix(tok, "0")) {
				return nil, fmt.Errorf("the answer has a list at %s, and %q is not an index", p.prefix(i), tok)
			}
			if n >= len(x) {
				return nil, fmt.Errorf("the answer's list at %s has %d items, none at index %d", p.prefix(i), len(x), n)
			}
			v = x[n]
		default:
			return nil, fmt.Errorf("the answer has a single value at %s, nothing inside it", p.prefix(i))
		}
	}
	return v, nil
}

// prefix is the pointer up to token i, for messages.
func (p *pointer) prefix(i int) string {
	if i == 0 {
		return "the top"
	}
	return "/" + strings.Join(p.tokens[:i], "/")
}

func parseResponse(ps *problems, n *yaml.Node) *response {
	f, ok := readFields(ps, n, "response", "pointer", "template")
	if !ok {
		return nil
	}
	ptr, hasPtr := f.values["pointer"]
	tmpl, hasTmpl := f.values["template"]
	switch {
	case hasPtr && hasTmpl:
		ps.at(tmpl, "response: give pointer: or template:, not both")
	case hasPtr:
		src, ok := f.str(ps, "pointer")
		if !ok {
			return nil
		}
		p, err := parsePointer(src)
		if err != nil {
			ps.at(ptr, "response: %v", err)
			return nil
		}
		return &response{pointer: p}
	case hasTmpl:
		src, ok := f.str(ps, "template")
		if !ok {
			return nil
		}
		parts, err := parseResponseTemplate(src)
		if err != nil {
			ps.at(tmpl, "response: %v", err)
			return nil
		}
		return &response{parts: parts}
	default:
		ps.at(n, "response: give pointer: (a JSON pointer like /results/0/name) or template: (text with {/json/pointers})")
	}
	return nil
}

// parseResponseTemplate reads text whose holes are JSON pointers:
// "{/name}: {/main/temp} °C"; {{ and }} are literal braces.
func parseResponseTemplate(src string) ([]respPart, error) {
	var parts []respPart
	var lit strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '{' && i+1 < len(src) && src[i+1] == '{':
			lit.WriteByte('{')
			i++
		case c == '}' && i+1 < len(src) && src[i+1] == '}':
			lit.WriteByte('}')
			i++
		case c == '}':
			return nil, fmt.Errorf("template %q has a } that closes nothing; write }} for a literal }", src)
		case c == '{':
			end := strings.IndexByte(src[i+1:], '}')
			if end < 0 {
				return nil, fmt.Errorf("template %q has a { that is never closed", src)
			}
			p, err := parsePointer(src[i+1 : i+1+end])
			if err != nil || p.src == "" {
				return nil, fmt.Errorf("template %q: {%s} is not a JSON pointer like {/results/0/name}", src, src[i+1:i+1+end])
			}
			if lit.Len() > 0 {
				parts = append(parts, respPart{lit: lit.String()})
				lit.Reset()
			}
			parts = append(parts, respPart{ptr: p})
			i += 1 + end
		default:
			lit.WriteByte(c)
		}
	}
	if lit.Len() > 0 {
		parts = append(parts, respPart{lit: lit.String()})
	}
	return parts, nil
}

// extract reads the answer text out of the raw output.
func (r *response) extract(raw []byte) (string, error) {
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return "", fmt.Errorf("the answer is not JSON (%v), so its pointer cannot be read", shortJSONError(err))
	}
	if r.pointer != nil {
		v, err := r.pointer.resolve(doc)
		if err != nil {
			return "", err
		}
		return jsonText(v), nil
	}
	var b strings.Builder
	for _, p := range r.parts {
		if p.ptr == nil {
			b.WriteString(p.lit)
			continue
		}
		v, err := p.ptr.resolve(doc)
		if err != nil {
			return "", err
		}
		b.WriteString(jsonText(v))
	}
	return b.String(), nil
}

func shortJSONError(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// reason reads a service's explanation out of an error answer's body
// (webget.Service.Reason): the text at the pointer, or "" when the body
// has none there.
func (p *pointer) reason(body []byte) string {
	var doc any
	if json.Unmarshal(body, &doc) != nil {
		return ""
	}
	v, err := p.resolve(doc)
	if err != nil {
		return ""
	}
	return sanitize.Line(jsonText(v))
}
