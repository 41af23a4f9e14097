package catalog_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/catalog"
)

const samples = "../../testdata/benchmarks"

// Every sample library loads whole, into a registry, with its examples
// and original names, each tool's source naming the file.
func TestLoadSamples(t *testing.T) {
	t.Parallel()
	for _, set := range []struct {
		name     string
		tools    int
		examples bool
		renamed  bool
	}{{"metatool", 6, true, false}, {"bfcl", 20, false, true}, {"sealtools", 18, false, false}} {
		t.Run(set.name, func(t *testing.T) {
			path := filepath.Join(samples, set.name, "library.json")
			lib, err := catalog.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(lib.Warnings) > 0 {
				t.Errorf("warnings: %q", lib.Warnings)
			}
			if len(lib.Tools) != set.tools || lib.Name != set.name || !strings.Contains(lib.Origin, "github.com") {
				t.Fatalf("%d tools, name %q, origin %q", len(lib.Tools), lib.Name, lib.Origin)
			}
			reg, err := tools.NewRegistry(lib.ToolList()...)
			if err != nil {
				t.Fatal(err)
			}
			examples, renamed := 0, 0
			for _, tl := range lib.Tools {
				s := tl.Spec()
				if s.Source != (tools.Source{Kind: tools.SourceFile, Name: path}) || s.Effect.ReadOnly() || s.InputSchema == nil {
					t.Errorf("%s: source %v, effect %q", s.Name, s.Source, s.Effect)
				}
				examples += len(s.Examples)
				if tl.OriginalName != "" {
					renamed++
				}
			}
			if (examples > 0) != set.examples || (renamed > 0) != set.renamed {
				t.Errorf("%d examples, %d renamed", examples, renamed)
			}
			if reg.Len() != set.tools {
				t.Errorf("registry has %d tools", reg.Len())
			}
		})
	}
}

// MetaTool's examples are questions without arguments: kept as questions
// with no call. An example with arguments becomes the canonical call, read
// back and checked against the schema.
func TestExamples(t *testing.T) {
	t.Parallel()
	lib, err := catalog.Load(filepath.Join(samples, "metatool", "library.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := lib.Tools[0].Spec()
	if len(s.Examples) != 5 || s.Examples[0].Query == "" || s.Examples[0].Call != "" {
		t.Errorf("examples %+v", s.Examples)
	}
	doc := `{"name": "x", "tools": [
	{"name": "book_table", "description": "Book a table at a restaurant",
	 "inputSchema": {"type": "object", "properties": {
	   "restaurant": {"type": "string"}, "people": {"type": "integer", "minimum": 1},
	   "outside": {"type": "boolean"}}, "required": ["restaurant", "people"]},
	 "examples": [
	   {"query": "a table for 4 at Noma", "arguments": {"people": 4, "restaurant": "Noma"}},
	   {"query": "table for 2 outside at Geranium", "arguments": {"restaurant": "Geranium", "people": 2, "outside": true}},
	   {"query": "a table for nobody", "arguments": {"restaurant": "Noma", "people": 0}},
	   {"query": "a table with a view", "arguments": {"restaurant": "Noma", "people": 2, "view": "sea"}},
	   {"query": "", "arguments": {"restaurant": "Noma", "people": 2}}]}]}`
	lib, err = catalog.Read(strings.NewReader(doc), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	got := lib.Tools[0].Spec().Examples
	want := []tools.Example{{Query: "a table for 4 at Noma", Call: `book_table("Noma", 4)`},
		{Query: "table for 2 outside at Geranium", Call: `book_table("Geranium", 2, true)`}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("examples %+v, want %+v", got, want)
	}
	if len(lib.Warnings) != 3 {
		t.Fatalf("warnings %q", lib.Warnings)
	}
	for i, w := range []string{"example 3 (a table for nobody)", `example 4 (a table with a view): arguments: "view" is not a parameter`, "example 5 has no query"} {
		if !strings.HasPrefix(lib.Warnings[i], "tool library x.json: tool 1 (book_table): ") || !strings.Contains(lib.Warnings[i], w) {
			t.Errorf("warning %d %q lacks %q", i, lib.Warnings[i], w)
		}
	}
	if _, err := tools.NewRegistry(lib.ToolList()...); err != nil {
		t.Error(err)
	}
}

// A file that is not a library is one line naming the file and what is
// wrong; a bad tool is left out with a warning naming the file, the tool
// and the problem, and the rest loads.
func TestBadFiles(t *testing.T) {
	t.Parallel()
	good := `{"name": "ok", "description": "works", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}`
	for _, c := range []struct {
		name, doc string
		fatal     string   // the file's error, or
		warnings  []string // the warnings, with good loaded
	}{
		{"malformed JSON", "{\"tools\": [\n" + good + ",\n{\"name\": \"x\",}]}", "tool library lib.json: not a tool library (want a JSON object with a \"tools\" list): invalid JSON at line 3, column", nil},
		{"truncated", `{"tools": [` + good, "the JSON ends early", nil},
		{"not an object", `[1, 2]`, "tool library lib.json: not a tool library", nil},
		{"no tools list", `{"name": "x"}`, `tool library lib.json: no "tools" list`, nil},
		{"missing name", `{"tools": [` + good + `, {"description": "nameless"}]}`, "", []string{"tool library lib.json: tool 2: no name; left out"}},
		{"duplicate names", `{"tools": [` + good + `, ` + good + `]}`, "", []string{"tool library lib.json: tool 2 (ok): the name ok is taken by tool 1; left out"}},
		{"bad name", `{"tools": [` + good + `, {"name": "a b", "description": "x"}]}`, "", []string{`tool library lib.json: tool 2 (a b): tool name "a b": want a letter`}},
		{"schema refused", `{"tools": [` + good + `, {"name": "arr", "description": "x", "inputSchema": {"type": "array"}}]}`, "",
			[]string{`tool library lib.json: tool 2 (arr): input schema at /type: want "object"`}},
		{"recursive schema", `{"tools": [{"name": "tree", "description": "x", "inputSchema": {"type": "object", "properties": {"node": {"$ref": "#/properties/node"}}}}, ` + good + `]}`, "",
			[]string{"tool library lib.json: tool 1 (tree): input schema at /properties/node/$ref: $ref \"#/properties/node\" refers back to itself"}},
		{"tool not an object", `{"tools": [7, ` + good + `]}`, "", []string{"tool library lib.json: tool 1: not a tool"}},
		{"untyped and unreadable", `{"tools": [` + good + `, {"name": "u", "description": "x", "inputSchema": {"type": "object", "properties": {"a": {}, "b": {"$ref": "#/$defs/missing"}}}}]}`, "",
			[]string{`tool library lib.json: tool 2 (u): input schema at /properties/b/$ref: `}},
	} {
		t.Run(c.name, func(t *testing.T) {
			lib, err := catalog.Read(strings.NewReader(c.doc), "lib.json")
			if c.fatal != "" {
				var fe *catalog.FileError
				if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), c.fatal) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %v, want one line with %q", err, c.fatal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(lib.Tools) != 1 || lib.Tools[0].Spec().Name != "ok" {
				t.Errorf("tools %d", len(lib.Tools))
			}
			if len(lib.Warnings) != len(c.warnings) {
				t.Fatalf("warnings %q, want %q", lib.Warnings, c.warnings)
			}
			for i, w := range c.warnings {
				if !strings.HasPrefix(lib.Warnings[i], w) || strings.Contains(lib.Warnings[i], "\n") {
					t.Errorf("warning %q, want one line starting %q", lib.Warnings[i], w)
				}
			}
		})
	}
	if _, err := catalog.Load(filepath.Join(t.TempDir(), "absent.json")); err == nil || !strings.Contains(err.Error(), "absent.json: no such file") {
		t.Errorf("missing file: %v", err)
	}
}

// A parameter without a type accepts any value (the format says so): it is
// read as a JSON value, in its place, and the file's schema checks the
// arguments as the file gives it.
func TestUntypedParameter(t *testing.T) {
	t.Parallel()
	doc := `{"tools": [{"name": "train", "description": "Train a model", "inputSchema": {"type": "object",
	  "properties": {"data": {"description": "the training data"}, "epochs": {"type": "integer"}, "opts": {}},
	  "required": ["data", "epochs"]}}]}`
	lib, err := catalog.Read(strings.NewReader(doc), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.Tools) != 1 || len(lib.Warnings) != 0 {
		t.Fatalf("tools %d, warnings %q", len(lib.Tools), lib.Warnings)
	}
	s := lib.Tools[0].Spec()
	if len(s.Params) != 3 || s.Params[0].Name != "data" || s.Params[0].Type != tools.TypeJSON || s.Params[0].Description != "the training data" ||
		s.Params[1].Name != "epochs" || s.Params[2].Name != "opts" || !s.Params[2].Optional {
		t.Errorf("params %+v", s.Params)
	}
	if !strings.Contains(string(s.InputSchema), `"data": {"description": "the training data"}`) {
		t.Errorf("the schema was changed: %s", s.InputSchema)
	}
	reg, err := tools.NewRegistry(lib.ToolList()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []string{`train([1, 2], 3)`, `train({"x": "y"}, 3)`, `train("text", 3, null)`} {
		if _, err := reg.Parse(call); err != nil {
			t.Errorf("%s: %v", call, err)
		}
	}
}

// A library's tool has no executor: running it says so in one line.
func TestRunSaysNoExecutor(t *testing.T) {
	t.Parallel()
	lib, err := catalog.Load(filepath.Join(samples, "sealtools", "library.json"))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := tools.NewRegistry(lib.ToolList()...)
	if err != nil {
		t.Fatal(err)
	}
	c, err := reg.Parse(`getHealthWorkforce("country", "nurses")`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = reg.Run(context.Background(), c)
	var ne *catalog.NoExecutorError
	if !errors.As(err, &ne) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "tool getHealthWorkforce comes from the tool library ") ||
		!strings.Contains(err.Error(), "no executor") {
		t.Errorf("run: %v", err)
	}
}

// The full public sets load without a warning (they are used only for
// measurement; the test is skipped without them).
func TestLoadFullSets(t *testing.T) {
	dir := os.Getenv("GEAR_BENCHMARKS")
	if dir == "" {
		t.Skip("GEAR_BENCHMARKS not set (the full tool-selection sets, e.g. GEAR_BENCHMARKS=../shared/benchmarks); the samples in testdata/benchmarks are tested without them")
	}
	// BFCL's 2,290 definitions include 4 whose names are longer than
	// model APIs take once the dots are written as "__": left out, each
	// with its warning.
	for set, n := range map[string][2]int{"metatool": {199, 0}, "bfcl": {2286, 4}, "sealtools": {4076, 0}} {
		lib, err := catalog.Load(filepath.Join(dir, set, "library.json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(lib.Tools) != n[0] || len(lib.Warnings) != n[1] {
			t.Errorf("%s: %d tools, want %d; warnings %q", set, len(lib.Tools), n[0], lib.Warnings)
		}
		if _, err := tools.NewRegistry(lib.ToolList()...); err != nil {
			t.Errorf("%s: %v", set, err)
		}
	}
}

// Names, descriptions and headers are one line however the file writes
// them; a plain line is kept as it is.
func TestOneLineText(t *testing.T) {
	t.Parallel()
	doc := "{\"name\": \"  lib \\n two\", \"tools\": [{\"name\": \"t\", \"description\": \"Reads\\tthe  file\\u001b[31m red\\nnow \"}, {\"name\": \"u\", \"description\": \"A plain line.\"}]}"
	lib, err := catalog.Read(strings.NewReader(doc), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	if lib.Name != "lib two" || len(lib.Tools) != 2 {
		t.Fatalf("name %q, %d tools", lib.Name, len(lib.Tools))
	}
	if d := lib.Tools[0].Spec().Description; strings.ContainsAny(d, "\n\t\x1b") || strings.Contains(d, "  ") || !strings.HasPrefix(d, "Reads the file") {
		t.Errorf("description %q", d)
	}
	if d := lib.Tools[1].Spec().Description; d != "A plain line." {
		t.Errorf("description %q", d)
	}
}
