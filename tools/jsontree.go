package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// jsonNode is a decoded JSON value that keeps an object's keys in the
// order the text gives them: a schema's properties are a tool's
// parameters, and their order is the positional call's order, which a
// Go map would lose.
type jsonNode struct {
	kind   jsonKind
	str    string      // a string's content; a number's literal
	bool   bool        // a boolean
	keys   []string    // an object's keys, in order
	values []*jsonNode // an object's values (by key index) or an array's items
}

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

func (k jsonKind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// maxSchemaDepth bounds the nesting of a schema document, so a hostile
// schema cannot exhaust the stack.
const maxSchemaDepth = 64

// decodeOrdered decodes one JSON document (RFC 8259) into a jsonNode. It
// reads the bytes itself rather than through encoding/json's token stream,
// which allocates per token: a library of 200 tools is read at every
// refresh of an MCP server's tools.
func decodeOrdered(data []byte) (*jsonNode, error) {
	d := &treeDecoder{s: data}
	d.space()
	n, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i < len(d.s) {
		return nil, fmt.Errorf("text after the JSON value at byte %d", d.i)
	}
	return n, nil
}

type treeDecoder struct {
	s []byte
	i int
}

func (d *treeDecoder) space() {
	for d.i < len(d.s) && isSpace(d.s[d.i]) {
		d.i++
	}
}

func (d *treeDecoder) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", d.i, fmt.Sprintf(format, args...))
}

func (d *treeDecoder) value(depth int) (*jsonNode, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxSchemaDepth)
	}
	if d.i >= len(d.s) {
		return nil, d.errorf("unexpected end of JSON")
	}
	switch c := d.s[d.i]; {
	case c == '{' || c == '[':
		d.i++
		n := &jsonNode{kind: jsonArray}
		closer := byte(']')
		if c == '{' {
			n.kind, closer = jsonObject, '}'
		}
		d.space()
		if d.i < len(d.s) && d.s[d.i] == closer {
			d.i++
			return n, nil
		}
		for {
			if n.kind == jsonObject {
				if d.i >= len(d.s) || d.s[d.i] != '"' {
					return nil, d.errorf("expected a quoted key")
				}
				key, err := d.str()
				if err != nil {
					return nil, err
				}
				for _, k := range n.keys {
					if k == key {
						return nil, fmt.Errorf("key %q appears twice in one object", key)
					}
				}
				n.keys = append(n.keys, key)
				d.space()
				if d.i >= len(d.s) || d.s[d.i] != ':' {
					return nil, d.errorf(`expected ":"`)
				}
				d.i++
				d.space()
			}
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.values = append(n.values, v)
			d.space()
			if d.i < len(d.s) && d.s[d.i] == ',' {
				d.i++
				d.space()
				continue
			}
			if d.i < len(d.s) && d.s[d.i] == closer {
				d.i++
				return n, nil
			}
			return nil, d.errorf("expected \",\" or %q", closer)
		}
	case c == '"':
		str, err := d.str()
		if err != nil {
			return nil, err
		}
		return &jsonNode{kind: jsonString, str: str}, nil
	case c == '-' || isDigit(c):
		start := d.i
		if c == '-' {
			d.i++
		}
		digits := func() int {
			k := d.i
			for d.i < len(d.s) && isDigit(d.s[d.i]) {
				d.i++
			}
			return d.i - k
		}
		if d.i < len(d.s) && d.s[d.i] == '0' {
			d.i++
		} else if digits() == 0 {
			return nil, d.errorf("malformed number")
		}
		if d.i < len(d.s) && d.s[d.i] == '.' {
			d.i++
			if digits() == 0 {
				return nil, d.errorf("malformed number")
			}
		}
		if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
			d.i++
			if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
				d.i++
			}
			if digits() == 0 {
				return nil, d.errorf("malformed number")
			}
		}
		return &jsonNode{kind: jsonNumber, str: string(d.s[start:d.i])}, nil
	}
	for _, w := range [...]struct {
		lit  string
		node jsonNode
	}{{"true", jsonNode{kind: jsonBool, bool: true}}, {"false", jsonNode{kind: jsonBool}}, {"null", jsonNode{kind: jsonNull}}} {
		if bytes.HasPrefix(d.s[d.i:], []byte(w.lit)) {
			d.i += len(w.lit)
			n := w.node
			return &n, nil
		}
	}
	return nil, d.errorf("invalid character %q", d.s[d.i])
}

// str reads a string literal; one without escapes is its bytes.
func (d *treeDecoder) str() (string, error) {
	start := d.i
	escaped := false
	for d.i++; d.i < len(d.s); d.i++ {
		switch c := d.s[d.i]; {
		case c == '\\':
			escaped = true
			d.i++
		case c == '"':
			d.i++
			lit := d.s[start:d.i]
			if !escaped && utf8.Valid(lit) {
				return string(lit[1 : len(lit)-1]), nil
			}
			var out string
			if err := json.Unmarshal(lit, &out); err != nil {
				return "", fmt.Errorf("at byte %d: %v", start, err)
			}
			return out, nil
		case c < 0x20:
			return "", d.errorf("control character in string")
		}
	}
	return "", fmt.Errorf("at byte %d: unterminated string", start)
}

// get returns the value of an object's key.
func (n *jsonNode) get(key string) (*jsonNode, bool) {
	if n == nil || n.kind != jsonObject {
		return nil, false
	}
	for i, k := range n.keys {
		if k == key {
			return n.values[i], true
		}
	}
	return nil, false
}

// raw writes the node back as compact JSON, keys in their order.
func (n *jsonNode) raw() json.RawMessage {
	var b bytes.Buffer
	n.write(&b)
	return b.Bytes()
}

func (n *jsonNode) write(b *bytes.Buffer) {
	switch n.kind {
	case jsonNull:
		b.WriteString("null")
	case jsonBool:
		if n.bool {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case jsonNumber:
		b.WriteString(n.str)
	case jsonString:
		b.WriteString(Quote(n.str))
	case jsonArray:
		b.WriteByte('[')
		for i, v := range n.values {
			if i > 0 {
				b.WriteByte(',')
			}
			v.write(b)
		}
		b.WriteByte(']')
	case jsonObject:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(Quote(k))
			b.WriteByte(':')
			n.values[i].write(b)
		}
		b.WriteByte('}')
	}
}
