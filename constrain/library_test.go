package constrain

import (
	"context"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// testSpecs is a synthetic library with every parameter type, optional
// parameters, a tool without parameters, and names that share prefixes
// (Calc / Calculator, the paper's sq / square / sqrt).
func testSpecs() []tools.Spec {
	return []tools.Spec{
		{Name: "Calculator", Family: tools.FamilyCalc, Description: "arithmetic",
			Params: []tools.Param{{Name: "expression", Type: tools.TypeExpression}}},
		{Name: "Calc", Family: tools.FamilyCalc, Description: "arithmetic with a label",
			Params: []tools.Param{{Name: "label", Type: tools.TypeString, MaxLen: 5}, {Name: "expression", Type: tools.TypeExpression, Optional: true}}},
		{Name: "TimezoneConverter", Family: tools.FamilyTimezone, Description: "convert",
			Params: []tools.Param{{Name: "datetime", Type: tools.TypeDateTime}, {Name: "from_place", Type: tools.TypePlace}, {Name: "to_place", Type: tools.TypePlace}}},
		{Name: "CurrentTime", Family: tools.FamilyTimezone, Description: "clock",
			Params: []tools.Param{{Name: "place", Type: tools.TypePlace, Optional: true}}},
		{Name: "WeatherSearch", Family: tools.FamilyWeather, Description: "weather",
			Params: []tools.Param{{Name: "place", Type: tools.TypePlace}, {Name: "date", Type: tools.TypeDate, Optional: true}}},
		{Name: "Pow", Family: tools.FamilyCalc, Description: "power",
			Params: []tools.Param{{Name: "base", Type: tools.TypeNumber}, {Name: "exponent", Type: tools.TypeInteger}}},
		{Name: "Units", Family: "convert", Description: "units",
			Params: []tools.Param{{Name: "unit", Type: tools.TypeEnum, Enum: []string{"metric", "imperial", "US customary", "a.b/c+d-e_f"}},
				{Name: "note", Type: tools.TypeString, MaxLen: 3, Optional: true}}},
		{Name: "multiply", Family: tools.FamilyCalc, Description: "product of two numbers",
			Params: []tools.Param{{Name: "a", Type: tools.TypeNumber}, {Name: "b", Type: tools.TypeNumber}}},
		{Name: "square", Family: tools.FamilyCalc, Description: "square",
			Params: []tools.Param{{Name: "x", Type: tools.TypeInteger}}},
		{Name: "sqrt", Family: tools.FamilyCalc, Description: "square root",
			Params: []tools.Param{{Name: "x", Type: tools.TypeNumber}}},
		{Name: "Ping", Family: "net", Description: "no parameters"},
		{Name: "WikiSearch", Family: tools.FamilyWiki, Description: "encyclopedia",
			Params: []tools.Param{{Name: "query", Type: tools.TypeString}}},
		// External tools: server-qualified names with dots, dashes, a
		// leading digit or underscore, and booleans.
		{Name: "everything.echo", Family: "mcp", Description: "echo a message",
			Params: []tools.Param{{Name: "message", Type: tools.TypeString}, {Name: "loud", Type: tools.TypeBoolean, Optional: true}}},
		{Name: "everything.echo-all", Family: "mcp", Description: "echo twice",
			Params: []tools.Param{{Name: "twice", Type: tools.TypeBoolean}, {Name: "maxResults", Type: tools.TypeInteger, Min: ptr(1), Max: ptr(100)},
				{Name: "offset", Type: tools.TypeInteger, Min: ptr(-20), Optional: true}, {Name: "cap", Type: tools.TypeInteger, Max: ptr(-3), Optional: true}}},
		{Name: "get-weather", Family: "mcp", Description: "weather by city",
			Params: []tools.Param{{Name: "city", Type: tools.TypeString}, {Name: "day", Type: tools.TypeString, Pattern: tools.FormatDatePattern, Format: "date", Optional: true}}},
		{Name: "2fa_check", Family: "mcp", Description: "check a code",
			Params: []tools.Param{{Name: "code", Type: tools.TypeInteger}}},
		{Name: "_private.x", Family: "mcp", Description: "no parameters"},
		// JSON values: arrays, objects and unions, read as any JSON by the
		// machine and the parser, then checked against the InputSchema.
		{Name: "geo.mark", Family: "mcp", Description: "mark points", InputSchema: []byte(geoMarkSchema),
			Params: []tools.Param{{Name: "tags", Type: tools.TypeJSON, Items: tools.TypeString, Schema: []byte(`{"type":"array","items":{"type":"string"}}`)},
				{Name: "point", Type: tools.TypeJSON, Optional: true, Schema: []byte(`{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false}`)}}},
		{Name: "nums.sum", Family: "mcp", Description: "add numbers",
			Params: []tools.Param{{Name: "xs", Type: tools.TypeJSON, Items: tools.TypeNumber, Schema: []byte(`{"type":"array","items":{"type":"number"}}`)},
				{Name: "ns", Type: tools.TypeJSON, Items: tools.TypeInteger, Optional: true, Schema: []byte(`{"type":"array","items":{"type":"integer"}}`)},
				{Name: "flags", Type: tools.TypeJSON, Items: tools.TypeBoolean, Optional: true, Schema: []byte(`{"type":"array","items":{"type":"boolean"}}`)}}},
		{Name: "kv.set", Family: "mcp", Description: "store a value", InputSchema: []byte(kvSetSchema),
			Params: []tools.Param{{Name: "key", Type: tools.TypeString}, {Name: "value", Type: tools.TypeJSON, Schema: []byte(`{}`)}, {Name: "flag", Type: tools.TypeBoolean, Optional: true}}},
	}
}

const (
	geoMarkSchema = `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}},` +
		`"point":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false}},` +
		`"required":["tags"],"additionalProperties":false}`
	kvSetSchema = `{"type":"object","properties":{"key":{"type":"string"},"value":{},"flag":{"type":"boolean"}},"required":["key","value"]}`
)

func ptr(f float64) *float64 { return &f }

func testMachine(t testing.TB) *Machine {
	t.Helper()
	m, err := New(testSpecs()...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// parserAccepts is the reference: what tools.Parse says of text.
func parserAccepts(m *Machine, text string) bool {
	_, err := tools.Parse(text, m.lookup)
	return err == nil
}

// specTool is a tool that only has a spec, for building registries.
type specTool struct{ spec tools.Spec }

func (s specTool) Spec() tools.Spec { return s.spec }
func (s specTool) Run(context.Context, tools.Call) (tools.Result, error) {
	return tools.Result{Text: "ok"}, nil
}

// samples is how many random inputs a property test draws: n, or a tenth
// of n under the race detector. These tests are single-goroutine and CPU
// bound, so the detector finds nothing in them and makes them 5–10 times
// slower; scripts/test also runs this package without it, at full size
// (as the standard library shortens its own tests under race.Enabled).
func samples(n int) int {
	if raceEnabled {
		return max(1, n/10)
	}
	return n
}
