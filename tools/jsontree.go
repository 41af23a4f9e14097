package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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

// decodeOrdered decodes one JSON document into a jsonNode.
func decodeOrdered(data []byte) (*jsonNode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := decodeNode(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the JSON value")
	}
	return n, nil
}

func decodeNode(dec *json.Decoder, depth int) (*jsonNode, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxSchemaDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &jsonNode{kind: jsonNull}, nil
	case bool:
		return &jsonNode{kind: jsonBool, bool: t}, nil
	case json.Number:
		return &jsonNode{kind: jsonNumber, str: t.String()}, nil
	case string:
		return &jsonNode{kind: jsonString, str: t}, nil
	case json.Delim:
		n := &jsonNode{kind: jsonArray}
		if t == '{' {
			n.kind = jsonObject
		}
		for dec.More() {
			if n.kind == jsonObject {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				for _, k := range n.keys {
					if k == key {
						return nil, fmt.Errorf("key %q appears twice in one object", key)
					}
				}
				n.keys = append(n.keys, key)
			}
			v, err := decodeNode(dec, depth+1)
			if err != nil {
				return nil, err
			}
			n.values = append(n.values, v)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
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
