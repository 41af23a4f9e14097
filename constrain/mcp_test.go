package constrain

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// The tools of real MCP servers, as their tools/list answers give them
// (tools/testdata/mcp, provenance in PROVENANCE.md), and libraries of
// generated schemas: the machine built from them must agree with the
// parser, as for the built-in types.

type mcpTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// fixtureFile is one recorded tools/list answer's tools.
type fixtureFile struct {
	name  string
	tools []mcpTool
}

// mcpFixtures reads each recorded tools/list answer (a JSON-RPC response
// or the unwrapped result), in file-name order.
func mcpFixtures(t testing.TB) []fixtureFile {
	t.Helper()
	files, err := filepath.Glob("../tools/testdata/mcp/tools_list*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var out []fixtureFile
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Tools  []mcpTool `json:"tools"`
			Result struct {
				Tools []mcpTool `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		ts := append(doc.Tools, doc.Result.Tools...)
		if len(ts) == 0 {
			t.Fatalf("%s: no tools", f)
		}
		out = append(out, fixtureFile{filepath.Base(f), ts})
	}
	return out
}

// specFromMCP makes a gear spec of an MCP tool offered by server.
func specFromMCP(server string, mt mcpTool) (tools.Spec, error) {
	name, err := tools.QualifiedName(server, mt.Name)
	if err != nil {
		return tools.Spec{}, err
	}
	params, err := tools.ParamsFromSchema(mt.InputSchema)
	if err != nil {
		return tools.Spec{}, fmt.Errorf("%s: %w", name, err)
	}
	desc := mt.Description
	if desc == "" {
		desc = mt.Name
	}
	return tools.Spec{Name: name, Family: "mcp", Description: desc, Params: params,
		Source: tools.Source{Kind: tools.SourceMCP, Name: server}, InputSchema: mt.InputSchema}, nil
}

// fixtureServer names the server a fixture file records.
func fixtureServer(file string) string {
	switch {
	case strings.Contains(file, "github"):
		return "github"
	case strings.Contains(file, "go-sdk"):
		return "go-sdk"
	}
	return "docs"
}

// realMCPSpecs is every fixture tool, each file its own server.
func realMCPSpecs(t testing.TB) []tools.Spec {
	t.Helper()
	var specs []tools.Spec
	for _, ff := range mcpFixtures(t) {
		file, server := ff.name, fixtureServer(ff.name)
		for _, mt := range ff.tools {
			s, err := specFromMCP(server, mt)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			specs = append(specs, s)
		}
	}
	return specs
}

func TestRealMCPSchemasGiveAMachineThatAgreesWithTheParser(t *testing.T) {
	t.Parallel()
	specs := realMCPSpecs(t)
	if len(specs) != 31 {
		t.Fatalf("%d tools in the fixtures", len(specs))
	}
	m, err := New(specs...)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]tools.Spec{}
	for _, s := range specs {
		byName[s.Name] = s
	}
	// The GitHub server's create_issue: required owner, repo, title; then
	// body, assignees (array), milestone (number), labels (array).
	issue := byName["github.create_issue"]
	if issue.Signature() != "github.create_issue(owner: string, repo: string, title: string, [body: string], [assignees: array of string], [milestone: number], [labels: array of string])" {
		t.Fatalf("create_issue: %s", issue.Signature())
	}
	for _, call := range []string{
		`github.create_issue("gear-chat", "gear", "Tools from MCP", "Body", ["ann"], 3, ["bug", "mcp"])`,
		`{"tool": "github.create_issue", "args": {"owner": "o", "repo": "r", "title": "t"}}`,
		`go-sdk.inc()`, `go-sdk.inc(7)`, `go-sdk.greet("Ada")`, `docs.get_weather("Berlin")`,
	} {
		if _, err := m.Validate(call); err != nil {
			t.Errorf("%s: %v", call, err)
		}
	}
	for _, bad := range []string{
		`github.create_issue("o", "r", "t", "b", "ann")`,  // assignees is an array
		`github.create_issue("o", "r", "t", "b", [1])`,    // of strings
		`github.search_repositories("q", 1, 30, "extra")`, // too many
		`go-sdk.inc(1.5)`, // an integer
	} {
		if _, err := m.Validate(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	g := newGen(99, specs)
	accepted := 0
	for i := 0; i < 20000; i++ {
		if checkAgreement(t, m, g.input()) {
			accepted++
		}
	}
	if accepted < 2000 {
		t.Fatalf("only %d accepted", accepted)
	}
	checkExportsBuild(t, m)
}

func compileRegex(re string) (*regexp.Regexp, error) { return regexp.Compile(`^(?:` + re + `)$`) }

// checkExportsBuild: every export of a library is well formed.
func checkExportsBuild(t *testing.T, m *Machine) {
	t.Helper()
	if _, err := parseGBNF(m.GBNF()); err != nil {
		t.Fatalf("GBNF: %v", err)
	}
	if _, err := compileRegex(m.Regex(ExportOptions{})); err != nil {
		t.Fatalf("regex: %v", err)
	}
	newSchemaValidator(t, m.JSONSchema(ExportOptions{}))
}

// schemaGen writes random property schemas of every kind ParamsFromSchema
// reads, nested and referenced.
type schemaGen struct{ r *rand.Rand }

func (g schemaGen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

func (g schemaGen) property(depth int) string {
	k := g.r.IntN(16)
	if depth > 2 {
		k %= 9
	}
	switch k {
	case 0:
		return `{"type": "string", "description": "free text"}`
	case 1:
		return fmt.Sprintf(`{"type": "string", "maxLength": %d}`, 1+g.r.IntN(30))
	case 2:
		return `{"type": "string", "format": "` + g.pick("date", "date-time", "uri", "email") + `"}`
	case 3:
		return `{"type": "string", "pattern": "` + g.pick(`^[a-z0-9-]{1,12}$`, `^[A-Z]{3}$`, `[0-9]`, `^\\d+(\\.\\d+)?$`, `^(?:ab|cd)*$`) + `"}`
	case 4:
		return `{"type": "string", "enum": [` + g.pick(`"asc", "desc"`, `"open", "closed", "all"`, `"a b", "c/d", "é"`) + `]}`
	case 5:
		return `{"type": "` + g.pick("number", "integer") + `", "minimum": 0, "maximum": 100}`
	case 6:
		return `{"type": "boolean", "default": false}`
	case 7:
		return `{"type": ["` + g.pick("string", "integer", "boolean") + `", "null"]}`
	case 8:
		return `{"$ref": "#/$defs/Leaf"}`
	case 9:
		return `{"type": "array", "items": ` + g.property(depth+1) + `, "maxItems": 5}`
	case 10:
		return `{"type": "object", "properties": {"a": ` + g.property(depth+1) + `, "b": ` + g.property(depth+1) + `}, "required": ["a"]}`
	case 11:
		return `{"anyOf": [` + g.property(depth+1) + `, ` + g.property(depth+1) + `]}`
	case 12:
		return `{"enum": [1, "two", null, true]}`
	case 13:
		return `{"type": "null"}`
	case 14:
		return `{"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "integer"}}]}`
	}
	return `{"const": "` + g.pick("fixed", "x y") + `"}`
}

// schema writes a tool's input schema of n properties.
func (g schemaGen) schema(n int) string {
	var props, required []string
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s%d", g.pick("p", "maxResults", "file-path", "_x", "user.id"), i)
		props = append(props, fmt.Sprintf(`%q: %s`, name, g.property(0)))
		if g.r.IntN(2) == 0 {
			required = append(required, fmt.Sprintf("%q", name))
		}
	}
	return `{"type": "object", "properties": {` + strings.Join(props, ", ") + `}, "required": [` + strings.Join(required, ", ") +
		`], "$defs": {"Leaf": {"type": "string", "enum": ["leaf", "node"]}}}`
}

// generatedSpecs is a library of n tools with generated schemas.
func generatedSpecs(t testing.TB, seed uint64, n int) []tools.Spec {
	t.Helper()
	g := schemaGen{rand.New(rand.NewPCG(seed, seed))}
	var specs []tools.Spec
	for i := 0; i < n; i++ {
		schema := g.schema(g.r.IntN(6))
		s, err := specFromMCP(fmt.Sprintf("gen%d", i%7), mcpTool{Name: fmt.Sprintf("tool_%d", i), Description: "generated", InputSchema: json.RawMessage(schema)})
		if err != nil {
			t.Fatalf("%s: %v", schema, err)
		}
		specs = append(specs, s)
	}
	return specs
}

func TestGeneratedSchemasGiveAMachineThatAgreesWithTheParser(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 3; seed++ {
		specs := generatedSpecs(t, seed, 40)
		m, err := New(specs...)
		if err != nil {
			t.Fatal(err)
		}
		g := newGen(seed, specs)
		accepted := 0
		for i := 0; i < samples(15000); i++ {
			in := g.input()
			if i%5 == 0 {
				spec := specs[g.r.IntN(len(specs))]
				in = g.callOf(spec, spec.RequiredParams()+g.r.IntN(len(spec.Params)-spec.RequiredParams()+1), g.chance(0.4))
			}
			if checkAgreement(t, m, in) {
				accepted++
			}
		}
		if accepted < samples(1500) {
			t.Fatalf("seed %d: only %d accepted", seed, accepted)
		}
		checkExportsBuild(t, m)
	}
}

// FuzzMCPSchemasMachineAgreesWithParser fuzzes the library of the real
// servers' tools and generated schemas.
func FuzzMCPSchemasMachineAgreesWithParser(f *testing.F) {
	specs := append(realMCPSpecs(f), generatedSpecs(f, 11, 30)...)
	g := newGen(12, specs)
	for i := 0; i < 60; i++ {
		f.Add(g.input())
	}
	m, err := New(specs...)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) { checkAgreement(t, m, in) })
}

// library200 is 200 MCP-like tools: the recorded servers' 31 tools
// offered again by further servers, as a user with many servers has.
func library200(t testing.TB) []tools.Spec {
	t.Helper()
	var specs []tools.Spec
	for copyN := 0; len(specs) < 200; copyN++ {
		for _, ff := range mcpFixtures(t) {
			for _, mt := range ff.tools {
				if len(specs) == 200 {
					break
				}
				s, err := specFromMCP(fmt.Sprintf("%s-%d", fixtureServer(ff.name), copyN), mt)
				if err != nil {
					t.Fatal(err)
				}
				specs = append(specs, s)
			}
		}
	}
	return specs
}

func TestLibrary200Builds(t *testing.T) {
	t.Parallel()
	specs := library200(t)
	m, err := New(specs...)
	if err != nil || len(m.Names()) != 200 {
		t.Fatalf("%v, %d tools", err, len(m.Names()))
	}
}

// BenchmarkBuild200MCPTools builds the machine for 200 MCP tools read
// from real servers' schemas (the target is 20 ms).
func BenchmarkBuild200MCPTools(b *testing.B) {
	specs := library200(b)
	b.ReportAllocs()
	b.ResetTimer()
	var m *Machine
	for i := 0; i < b.N; i++ {
		var err error
		if m, err = New(specs...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m.Size()), "machine-bytes")
}

// BenchmarkSchemasToMachine200 is the whole way from 200 tools' JSON
// Schemas to a machine: ParamsFromSchema for each, then New.
func BenchmarkSchemasToMachine200(b *testing.B) {
	var raw []mcpTool
	var servers []string
	for copyN := 0; len(raw) < 200; copyN++ {
		for _, ff := range mcpFixtures(b) {
			for _, mt := range ff.tools {
				if len(raw) < 200 {
					raw = append(raw, mt)
					servers = append(servers, fmt.Sprintf("%s-%d", fixtureServer(ff.name), copyN))
				}
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		specs := make([]tools.Spec, len(raw))
		for k, mt := range raw {
			s, err := specFromMCP(servers[k], mt)
			if err != nil {
				b.Fatal(err)
			}
			specs[k] = s
		}
		if _, err := New(specs...); err != nil {
			b.Fatal(err)
		}
	}
}

// TestNewLenientLeavesOutWhatItCannotTake: one tool whose pattern would
// need an exponential DFA does not take the library down.
func TestNewLenientLeavesOutWhatItCannotTake(t *testing.T) {
	t.Parallel()
	specs := testSpecs()
	bad := tools.Spec{Name: "bad.pattern", Family: "mcp", Description: "d",
		Params: []tools.Param{{Name: "s", Type: tools.TypeString, Pattern: `(?:a|b)*a(?:a|b){13}`}}}
	all := append(append([]tools.Spec{}, specs...), bad, specs[0])
	_, err := New(all...)
	var se *SpecError
	if !errors.As(err, &se) || se.Tool != "bad.pattern" || !strings.Contains(err.Error(), "states") {
		t.Fatalf("New: %v", err)
	}
	m, skipped := NewLenient(all...)
	if m == nil || len(skipped) != 2 || len(m.Names()) != len(specs) {
		t.Fatalf("skipped %v, machine %v", skipped, m)
	}
	if !m.Accepts(`Pow(2, 3)`) || m.Accepts(`bad.pattern("ab")`) {
		t.Fatal("the lenient machine is not the library less the bad tool")
	}
}
