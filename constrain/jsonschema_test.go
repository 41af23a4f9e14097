package constrain

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The exported JSON Schema is checked with the same validator gear checks
// arguments with (github.com/santhosh-tekuri/jsonschema/v6), standing in
// for the servers that decode under it. Instances are decoded with
// numbers kept as written.

func decodeInstance(text string) (any, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	return v, true
}

type schemaValidator struct{ schema *jsonschema.Schema }

func newSchemaValidator(t *testing.T, raw []byte) *schemaValidator {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("export.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("export.json")
	if err != nil {
		t.Fatal(err)
	}
	return &schemaValidator{schema: s}
}

func (sv *schemaValidator) valid(v any) bool { return sv.schema.Validate(v) == nil }

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
