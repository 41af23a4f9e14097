package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestParamsFromSchema(t *testing.T) {
	t.Parallel()
	schema := `{
		"type": "object",
		"properties": {
			"zeta": {"type": "string", "description": "last in the alphabet, first in the text"},
			"limit": {"type": "integer", "minimum": 1, "default": 10},
			"ratio": {"type": "number"},
			"verbose": {"type": "boolean"},
			"mode": {"type": "string", "enum": ["fast", "slow", "a b:c"]},
			"city": {"type": "string", "x-gear-type": "place"},
			"day": {"type": "string", "format": "date"},
			"slug": {"type": "string", "pattern": "^[a-z0-9-]{1,20}$"},
			"loose": {"type": "string", "pattern": "[a-z]"},
			"short": {"type": "string", "maxLength": 8},
			"nullable": {"type": ["integer", "null"]},
			"unit": {"$ref": "#/$defs/Unit"}
		},
		"required": ["verbose", "zeta", "unit"],
		"$defs": {"Unit": {"type": "string", "enum": ["c", "f"]}}
	}`
	params, err := ParamsFromSchema(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range params {
		s := p.Name + ":" + string(p.Type)
		if p.Optional {
			s += "?"
		}
		got = append(got, s)
	}
	want := "zeta:string verbose:boolean unit:enum limit:integer? ratio:number? mode:enum? city:place? day:string? slug:string? loose:string? short:string? nullable:integer?"
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	byName := map[string]Param{}
	for _, p := range params {
		byName[p.Name] = p
	}
	if p := byName["mode"]; strings.Join(p.Enum, "|") != "fast|slow|a b:c" {
		t.Errorf("mode enum %v", p.Enum)
	}
	if p := byName["unit"]; strings.Join(p.Enum, "|") != "c|f" {
		t.Errorf("unit enum %v", p.Enum)
	}
	if p := byName["zeta"]; p.Description != "last in the alphabet, first in the text" || p.MaxLen != MaxStringLen {
		t.Errorf("zeta %+v", p)
	}
	if p := byName["limit"]; string(p.Default) != "10" {
		t.Errorf("limit default %s", p.Default)
	}
	if p := byName["day"]; p.Pattern != FormatDatePattern || p.Format != "date" {
		t.Errorf("day %+v", p)
	}
	if p := byName["slug"]; p.Pattern != "[a-z0-9-]{1,20}" {
		t.Errorf("slug pattern %q", p.Pattern)
	}
	if p := byName["loose"]; p.Pattern != "" {
		t.Errorf("an unanchored pattern became the content pattern %q", p.Pattern)
	}
	if p := byName["short"]; p.MaxLen != 8 {
		t.Errorf("short max %d", p.MaxLen)
	}
	spec := Spec{Name: "srv.tool", Family: "mcp", Description: "d", Params: params}
	if err := spec.Validate(); err != nil {
		t.Fatalf("the spec made from a schema is invalid: %v", err)
	}
	r, err := NewRegistry(fakeTool{spec})
	if err != nil {
		t.Fatal(err)
	}
	call := `srv.tool("z", true, "c", 5, 0.5, "a b:c", "Oslo", "2026-11-24", "my-slug", "x", "12345678", 3)`
	c, err := r.Parse(call)
	if err != nil {
		t.Fatalf("Parse(%s): %v", call, err)
	}
	if c.String() != call {
		t.Fatalf("round trip %s", c.String())
	}
}

func TestParamsFromSchemaRefusesClearly(t *testing.T) {
	t.Parallel()
	tests := []struct{ schema, path, want string }{
		{`[1]`, "", "want an object schema"},
		{`{"type": "array"}`, "/type", `want "object"`},
		{`{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}`, "/required/0", `"b" is required but not among the properties`},
		{`{"type": "object", "properties": {"a b": {"type": "string"}}}`, "/properties/a b", "cannot be written in a call"},
		{`{"type": "object", "properties": {"a": {}}}`, "/properties/a", `no "type"`},
		{`{"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}`, "/$defs/B/$ref", "refers back to itself"},
		{`{"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}`, "/properties/a/$ref", `no "$defs"`},
		{`{"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}}`, "/properties/a/$ref", "only local references"},
		{`{"type": "object", "properties": {"a": {"type": "array", "items": {"$ref": "#"}}}}`, "/properties/a/items/$ref", "refers back to itself"},
		{`{"type": "object", "properties": {"a": false}}`, "/properties/a", "allows no value"},
		{`{"type": "object", "properties": {"a": {"type": "string", "x-gear-type": "colour"}}}`, "/properties/a/x-gear-type", "not one of gear's types"},
		{`{"type": "object", "properties": {"a": {"type": "string", "maxLength": 0}}}`, "/properties/a/maxLength", "only the empty string"},
		{`{"type": "object", "properties": {"e": {"type": "string", "x-gear-type": "expression"}, "n": {"type": "number"}}}`, "/properties/e", "must come last"},
		{`{"type": "object"`, "", "not valid JSON"},
	}
	for _, tt := range tests {
		_, err := ParamsFromSchema(json.RawMessage(tt.schema))
		var se *SchemaError
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want a *SchemaError", tt.schema, err)
			continue
		}
		if se.Path != tt.path || !strings.Contains(se.Msg, tt.want) {
			t.Errorf("%s: got path %q msg %q; want path %q, msg containing %q", tt.schema, se.Path, se.Msg, tt.path, tt.want)
		}
	}
}

func TestRegistryWith(t *testing.T) {
	t.Parallel()
	base := testRegistry(t)
	n := base.Len()
	echo := Spec{Name: "everything.echo", Family: "mcp", Description: "echo", Source: Source{Kind: SourceMCP, Name: "everything"},
		Params:   []Param{{Name: "message", Type: TypeString}},
		Examples: []Example{{Query: "say hi", Call: `everything.echo("hi")`}}}
	more, err := base.With(fakeTool{echo})
	if err != nil {
		t.Fatal(err)
	}
	if base.Len() != n || more.Len() != n+1 {
		t.Fatalf("lens %d %d", base.Len(), more.Len())
	}
	if _, ok := base.Spec("everything.echo"); ok {
		t.Fatal("With changed its receiver")
	}
	if _, err := more.Parse(`everything.echo("hi")`); err != nil {
		t.Fatal(err)
	}
	clash := echo
	clash.Source = Source{Kind: SourceFile, Name: "/home/u/.config/gear/tools/echo.yaml"}
	_, err = more.With(fakeTool{clash})
	var ce *CollisionError
	if !errors.As(err, &ce) {
		t.Fatalf("collision: %v", err)
	}
	for _, part := range []string{"everything.echo", "mcp:everything", "/home/u/.config/gear/tools/echo.yaml"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("collision message %q lacks %q", err, part)
		}
	}
	if s, _ := more.Spec("everything.echo"); s.Source.Kind != SourceMCP {
		t.Fatal("a collision overwrote the first tool")
	}
}

func TestWireNames(t *testing.T) {
	t.Parallel()
	wire := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	a := Spec{Name: "github.create_issue", Family: "mcp", Description: "d", Source: Source{Kind: SourceMCP, Name: "github"}}
	b := Spec{Name: "github__create_issue", Family: "x", Description: "d", Source: Source{Kind: SourceFile, Name: "t.yaml"}}
	if a.WireName() != "github__create_issue" || !wire.MatchString(a.WireName()) {
		t.Fatalf("wire name %q", a.WireName())
	}
	r, err := NewRegistry(fakeTool{a})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := r.SpecByWireName("github__create_issue"); !ok || s.Name != a.Name {
		t.Fatalf("SpecByWireName: %v %v", s.Name, ok)
	}
	if _, err := r.With(fakeTool{b}); err == nil || !strings.Contains(err.Error(), "both called github__create_issue") {
		t.Fatalf("wire collision: %v", err)
	}
	long := strings.Repeat("a", 32)
	if _, err := QualifiedName(long, strings.Repeat("b", 31)); err == nil {
		t.Fatal("a qualified name whose wire name is 65 long was accepted")
	}
	if name, err := QualifiedName(long, strings.Repeat("b", 30)); err != nil || !wire.MatchString(WireName(name)) {
		t.Fatalf("%q %v", name, err)
	}
}

// jsonTool is a tool whose parameters need JSON values, read from a
// schema with $defs, unions and bounds.
const jsonToolSchema = `{
	"$schema": "http://json-schema.org/draft-07/schema#",
	"type": "object",
	"properties": {
		"tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
		"point": {"$ref": "#/definitions/Point"},
		"limit": {"type": "integer", "minimum": 1, "maximum": 50},
		"level": {"enum": [1, 2, "max"]},
		"nothing": {"type": "null"},
		"either": {"anyOf": [{"type": "string", "format": "date"}, {"type": "number"}]},
		"quoted": {"type": "string", "enum": ["say \"hi\""]},
		"site": {"type": "string", "format": "uri"},
		"code": {"type": "string", "pattern": "^[A-Z]{3}$"}
	},
	"required": ["tags"],
	"definitions": {"Point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"], "additionalProperties": false}}
}`

func jsonToolRegistry(t *testing.T) *Registry {
	t.Helper()
	params, err := ParamsFromSchema(json.RawMessage(jsonToolSchema))
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Name: "geo.mark", Family: "mcp", Description: "mark a point", Params: params, InputSchema: json.RawMessage(jsonToolSchema)}
	r, err := NewRegistry(fakeTool{spec})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestJSONParamsFromSchema(t *testing.T) {
	t.Parallel()
	r := jsonToolRegistry(t)
	spec, _ := r.Spec("geo.mark")
	var got []string
	for _, p := range spec.Params {
		got = append(got, p.Name+":"+string(p.Type))
	}
	want := "tags:json point:json limit:integer level:json nothing:json either:json quoted:json site:string code:string"
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	if sig := spec.Signature(); sig != `geo.mark(tags: array of string, [point: object], [limit: integer], [level: one of 1, 2, "max"], [nothing: null], [either: string|number], [quoted: one of "say \"hi\""], [site: string], [code: string])` {
		t.Fatalf("signature %s", sig)
	}
	if tags, _ := spec.Param("tags"); tags.Items != TypeString {
		t.Fatalf("tags items %q", tags.Items)
	}
	point, _ := spec.Param("point")
	if string(point.Schema) != `{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false}` {
		t.Fatalf("point schema not inlined: %s", point.Schema)
	}
}

func TestArgumentsAreCheckedAgainstTheSchema(t *testing.T) {
	t.Parallel()
	r := jsonToolRegistry(t)
	good := []string{
		`geo.mark(["a", "b"])`,
		`geo.mark([ "a" ], {"x": 1, "y": -2.5e3}, 50, "max", null, "2026-11-24", "say \"hi\"", "https://example.com/a?b=c", "ABC")`,
		`geo.mark(["a"], {"x": 0, "y": 0}, 1, 2, null, 7)`,
		`{"tool": "geo.mark", "args": {"tags": ["x"], "point": {"x": 1, "y": 2}}}`,
	}
	for _, in := range good {
		c, err := r.Parse(in)
		if err != nil {
			t.Errorf("Parse(%s): %v", in, err)
			continue
		}
		for _, form := range []string{c.String(), c.JSON()} {
			again, err := r.Parse(form)
			if err != nil || !again.Equal(c) {
				t.Errorf("%s -> %s: %v", in, form, err)
			}
		}
	}
	bad := []struct{ in, want string }{
		{`geo.mark([])`, "argument tags does not fit the tool's schema: minItems"},
		{`geo.mark([1])`, `expected a string in the array for tags, found "1]"`},
		{`geo.mark("a")`, `expected an array of string for tags`},
		{`geo.mark(["a"], {"x": 1})`, "argument point does not fit"},
		{`geo.mark(["a"], {"x": 1, "y": 2, "z": 3})`, "argument point does not fit"},
		{`geo.mark(["a"], {"x": 1, "y": 2}, 51)`, "at column 35: expected an integer from 1 to 50 for limit, found 51"},
		{`geo.mark(["a"], {"x": 1, "y": 2}, 0)`, "expected an integer from 1 to 50 for limit, found 0"},
		{`geo.mark(["a"], {"x": 1, "y": 2}, 1e1)`, "expected an integer for limit"},
		{`geo.mark(["a"], {"x": 1, "y": 2}, 1, 3)`, "argument level does not fit"},
		{`geo.mark(["a"], {"x": 1, "y": 2}, 1, 1, 0)`, "argument nothing does not fit"},
		{`geo.mark(["a"], {"x": 1, "y": 2}, 1, 1, null, "tomorrow")`, "argument either does not fit"},
		{`geo.mark(["a"], {"x": 1, "y": 2}, 1, 1, null, 1, "hi")`, "argument quoted does not fit"},
		{`geo.mark(["a"], {"x": 1, "y": 2}, 1, 1, null, 1, "say \"hi\"", "not a uri")`, "expected a URI"},
		{`geo.mark(["a"], {"x": 1, "y": 2}, 1, 1, null, 1, "say \"hi\"", "https://a.b/", "AB")`, "expected text matching ^[A-Z]{3}$"},
		{`geo.mark(["a",])`, `expected a string in the array for tags, found "]"`},
		{`geo.mark(["a"], [1,])`, `expected a JSON value for point, found "]"`},
		{`geo.mark(["a" "b"])`, `expected "," or ']' in the array for tags`},
		{`geo.mark(["a"], {"a" 1})`, `expected ":"`},
		{`geo.mark(["a"], [01])`, `expected "," or ']'`},
		{`geo.mark(["a"], [1.])`, "expected a JSON number"},
		{`geo.mark(["a"], nul)`, "expected a JSON value"},
		{`geo.mark(["a"], ` + strings.Repeat("[", 33) + strings.Repeat("]", 33) + `)`, "nested deeper than 32"},
	}
	for _, tt := range bad {
		_, err := r.Parse(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%s) = %v, want an error containing %q", tt.in, err, tt.want)
		}
	}
	var ae *ArgsError
	if _, err := r.Parse(`geo.mark([])`); !errors.As(err, &ae) || ae.Path != "/tags" {
		t.Errorf("schema violations are *ArgsError with a path: %#v", err)
	}
}

func TestBrokenInputSchemaIsReportedOnUse(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(`{"type": "object", "properties": {"a": {"type": "string"}}, "minProperties": "two"}`)
	spec := Spec{Name: "x.y", Family: "mcp", Description: "d", Params: []Param{{Name: "a", Type: TypeString, Optional: true}}, InputSchema: schema}
	r, err := NewRegistry(fakeTool{spec})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Parse(`x.y("q")`); err == nil || !strings.Contains(err.Error(), "not valid JSON Schema") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("got %v", err)
	}
}

// TestHostileSchemas: schemas built to hurt get an error or a JSON
// parameter, never a crash or a machine-sized blow-up.
func TestHostileSchemas(t *testing.T) {
	t.Parallel()
	deep := `{"type": "object", "properties": {"a": ` + strings.Repeat(`{"type": "array", "items": `, 200) + `{"type": "string"}` + strings.Repeat(`}`, 200) + `}}`
	if _, err := ParamsFromSchema(json.RawMessage(deep)); err == nil || !strings.Contains(err.Error(), "deeper") {
		t.Errorf("deep schema: %v", err)
	}
	var vals []string
	for i := 0; i < 5000; i++ {
		vals = append(vals, fmt.Sprintf("%q", fmt.Sprintf("value-%d", i)))
	}
	big := `{"type": "object", "properties": {"a": {"type": "string", "enum": [` + strings.Join(vals, ",") + `]}}}`
	ps, err := ParamsFromSchema(json.RawMessage(big))
	if err != nil || ps[0].Type != TypeJSON {
		t.Errorf("a 5,000-value enum: %v %v", err, ps)
	}
	var props []string
	for i := 0; i < 3000; i++ {
		props = append(props, fmt.Sprintf(`"p%d": {"type": "integer"}`, i))
	}
	many := `{"type": "object", "properties": {` + strings.Join(props, ",") + `}}`
	if ps, err := ParamsFromSchema(json.RawMessage(many)); err != nil || len(ps) != 3000 {
		t.Errorf("3,000 properties: %v", err)
	}
	for _, bad := range []string{`{"type": "object", "properties": {"a": {"type": "string", "pattern": "^(a+)+$"}}}`, `{"type":"object","properties":{"a":{"type":"string","pattern":"^(?:a|b)*a(?:a|b){13}$"}}}`} {
		if _, err := ParamsFromSchema(json.RawMessage(bad)); err != nil {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// TestPydanticOptionalFields: FastMCP and other Python servers write an
// Optional field as anyOf [X, {"type": "null"}] with the default beside it.
func TestPydanticOptionalFields(t *testing.T) {
	t.Parallel()
	schema := `{"properties": {"query": {"title": "Query", "type": "string"},
		"limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null, "title": "Limit"},
		"lang": {"anyOf": [{"enum": ["en", "de"], "type": "string"}, {"type": "null"}], "default": "en", "description": "language"},
		"tags": {"anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}], "default": null}},
		"required": ["query"], "title": "searchArguments", "type": "object"}`
	params, err := ParamsFromSchema(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range params {
		got = append(got, p.Name+":"+p.TypeLabel()+":"+p.Description+":"+string(p.Default))
	}
	want := "query:string:Query: limit:integer:Limit:null lang:enum:language:\"en\" tags:array of string::null"
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestIntegerRangePattern(t *testing.T) {
	t.Parallel()
	for _, r := range [][2]int64{{1, 50}, {0, 0}, {-5, 5}, {-120, -7}, {7, 7}, {0, 9}, {10, 99}, {95, 1234}, {-1, 1}, {100, 100000}, {-MaxIntegerValue, MaxIntegerValue}, {3, 2}} {
		re := regexp.MustCompile(`^` + IntegerRangePattern(r[0], r[1]) + `$`)
		for x := r[0] - 30; x <= r[0]+30 || x <= r[1]+30 && x <= r[0]+3000; x++ {
			lit := strconv.FormatInt(x, 10)
			if got, want := re.MatchString(lit), x >= r[0] && x <= r[1]; got != want {
				t.Fatalf("[%d, %d]: %s matched %v", r[0], r[1], lit, got)
			}
		}
		for _, lit := range []string{"-0", "007", "00", "1.0", "", "-"} {
			v, _ := strconv.ParseInt(lit, 10, 64)
			want := lit == "-0" && r[0] <= 0 && r[1] >= 0
			_ = v
			if re.MatchString(lit) != want {
				t.Fatalf("[%d, %d]: %q", r[0], r[1], lit)
			}
		}
	}
}
