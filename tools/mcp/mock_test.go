package mcp

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gear-chat/gear/tools"
)

func TestMockResponse(t *testing.T) {
	t.Parallel()
	ab := []tools.Param{{Name: "a", Type: tools.TypeNumber}, {Name: "b", Type: tools.TypeNumber}}
	for _, tc := range []struct {
		name   string
		output string
		desc   string
		params []tools.Param
		want   string
	}{
		{"arguments without an output schema", "", "Add two numbers together. Returns the sum.", ab, "{a}, {b}"},
		{"description without parameters", "", "Toggles logging on or off. More words.", nil, "Toggles logging on or off"},
		{"output schema instance", `{"type":"object","properties":{"sum":{"type":"number"},"note":{"type":"string"}}}`, "x", ab, `{"note":"note","sum":1.5}`},
		{"output property named like a parameter", `{"type":"object","properties":{"a":{"type":"number"},"when":{"type":"string","format":"date-time"}}}`, "x", ab, `{"a":"{a}","when":"2024-01-01T12:00:00Z"}`},
		{"examples and enums first", `{"type":"object","properties":{"k":{"type":"string","enum":["x","y"]},"n":{"type":"integer","examples":[7]}}}`, "x", nil, `{"k":"x","n":7}`},
		{"array of objects", `{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}}}}`, "x", nil, `[{"id":1}]`},
		{"unreadable schema falls back", `not json`, "Deletes a file.", []tools.Param{{Name: "path"}}, "{path}"},
	} {
		got := mockResponse(json.RawMessage(tc.output), tc.desc, tc.params)
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestOutputPattern(t *testing.T) {
	t.Parallel()
	if p := outputPattern(json.RawMessage(`{"type":"object","properties":{"now":{"type":"string","format":"date-time"}}}`)); p != "time" {
		t.Errorf("time output: %q", p)
	}
	if p := outputPattern(json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}}}`)); p != "" {
		t.Errorf("number output: %q", p)
	}
}

func TestSchemaTextKeepsTheRequiredOrder(t *testing.T) {
	t.Parallel()
	var schema any
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"},"append":{"type":"boolean"},"mode":{"type":"string"}},"required":["path","content"]}`), &schema); err != nil {
		t.Fatal(err)
	}
	js, err := schemaText(schema)
	if err != nil {
		t.Fatal(err)
	}
	params, err := tools.ParamsFromSchema(js)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range params {
		names = append(names, p.Name)
	}
	if got := fmt.Sprint(names); got != "[path content append mode]" {
		t.Errorf("order %s from %s", got, js)
	}
}
