package declared

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// nodeJSON writes a YAML node as JSON, keeping the order of mapping keys:
// a tool's parameters are called positionally in the order the file
// declares them, so the order must survive into the schema.
func nodeJSON(n *yaml.Node) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := writeNodeJSON(&b, n, 0); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// maxSchemaDepth bounds nesting, so a hostile file cannot exhaust the stack.
const maxSchemaDepth = 64

func writeNodeJSON(b *bytes.Buffer, n *yaml.Node, depth int) error {
	if depth > maxSchemaDepth {
		return fmt.Errorf("line %d: nested more than %d levels deep", n.Line, maxSchemaDepth)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			b.WriteString("null")
			return nil
		}
		return writeNodeJSON(b, n.Content[0], depth)
	case yaml.AliasNode:
		return fmt.Errorf("line %d: YAML aliases (*name) are not allowed in a schema; write the value out", n.Line)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: a key must be a text", k.Line)
			}
			key, _ := json.Marshal(k.Value)
			b.Write(key)
			b.WriteByte(':')
			if err := writeNodeJSON(b, n.Content[i+1], depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeNodeJSON(b, c, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case yaml.ScalarNode:
		return writeScalarJSON(b, n)
	default:
		return fmt.Errorf("line %d: unexpected YAML node", n.Line)
	}
	return nil
}

func writeScalarJSON(b *bytes.Buffer, n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!null":
		b.WriteString("null")
	case "!!bool":
		var v bool
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %v", n.Line, err)
		}
		b.WriteString(strconv.FormatBool(v))
	case "!!int", "!!float":
		var v float64
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %v", n.Line, err)
		}
		out, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("line %d: %s is not a number JSON can hold", n.Line, strings.TrimSpace(n.Value))
		}
		b.Write(out)
	default:
		s, _ := json.Marshal(n.Value)
		b.Write(s)
	}
	return nil
}

// nodeAt finds the node a JSON pointer names in a YAML tree, or the
// deepest node on its way: a schema problem is reported at its own line.
func nodeAt(n *yaml.Node, ptr string) *yaml.Node {
	p, err := parsePointer(ptr)
	if err != nil {
		return n
	}
	for _, tok := range p.tokens {
		next := childNode(n, tok)
		if next == nil {
			return n
		}
		n = next
	}
	return n
}

func childNode(n *yaml.Node, tok string) *yaml.Node {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == tok {
				return n.Content[i+1]
			}
		}
	case yaml.SequenceNode:
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Content) {
			return n.Content[i]
		}
	}
	return nil
}

// schemaProblem finds where in the schema a validator's message points
// ("… - at '/properties/n/minimum': got string, want number") and says
// just that, at that node's line; any other message stays as it is.
func schemaProblem(n *yaml.Node, msg string) (*yaml.Node, string) {
	const marker = " - at '"
	i := strings.LastIndex(msg, marker)
	if i < 0 {
		return n, msg
	}
	rest := msg[i+len(marker):]
	end := strings.Index(rest, "': ")
	if end < 0 {
		return n, msg
	}
	ptr := rest[:end]
	return nodeAt(n, ptr), fmt.Sprintf("not valid JSON Schema at %s: %s", ptr, rest[end+3:])
}
