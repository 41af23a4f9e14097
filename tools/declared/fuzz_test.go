package declared

import (
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// FuzzParseTemplate: any text either parses or is refused with an error;
// a parsed template filled with no arguments and no environment gives
// back its literal text, with {{ and }} unescaped.
func FuzzParseTemplate(f *testing.F) {
	for _, s := range []string{"", "plain", "{a}", "x{a}y{b}", "${KEY}", "{{literal}}", "{", "}", "${", "{a", "{print $1}", "a}}b{{c", "${A}{b}"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, src string, allowEnv bool) {
		tpl, err := parseTemplate(src, allowEnv)
		if err != nil {
			return
		}
		if !allowEnv && len(tpl.envs()) > 0 {
			t.Fatalf("%q: env refs parsed where not allowed", src)
		}
		if len(tpl.params()) > 0 || len(tpl.envs()) > 0 {
			return
		}
		got, present, err := tpl.fill(expansion{getenv: func(string) string { return "" }}, "test")
		want := strings.ReplaceAll(strings.ReplaceAll(src, "{{", "{"), "}}", "}")
		if err != nil || !present || got != want {
			t.Fatalf("%q: fill = %q, %v, %v; want %q", src, got, present, err, want)
		}
	})
}

// FuzzParseFile: any file loads or is reported, never a panic; every
// problem has the file's path, and every tool loaded is a valid spec.
func FuzzParseFile(f *testing.F) {
	f.Add("name: A\ndescription: d\nhttp: {url: \"https://example.org/{x}\"}\nparameters: {type: object, properties: {x: {type: string}}, required: [x]}\n")
	f.Add("tools:\n  - name: B\n    description: d\n    effect: read-only\n    command: {argv: [echo, \"{{\", x]}\n")
	f.Add("name: [\n")
	f.Add("tools: 3\n")
	f.Add("a: &x [*x]\n")
	f.Add("name: C\ndescription: d\nhttp: {url: \"https://e.org\", method: post, body: {a: [1, \"{q}\", {b: null}]}}\nmock: m\nparameters: {properties: {q: {type: integer}}}\nresponse: {template: \"{/a/0}\"}\n")
	f.Add("name: D\ndescription: d\ngrounding: {subjects: [{name: s, words: [A]}], params: {}}\nhttp: {url: \"https://e.org\"}\n")
	f.Fuzz(func(t *testing.T, body string) {
		ts, errs := parseFile("f.yaml", []byte(body), Options{}.withDefaults())
		for _, e := range errs {
			p, ok := e.(*Problem)
			if !ok || p.Path != "f.yaml" || p.Line < 0 || p.Msg == "" {
				t.Fatalf("problem %#v", e)
			}
		}
		for _, tool := range ts {
			spec := tool.Spec()
			if err := spec.Validate(); err != nil {
				t.Fatalf("loaded an invalid spec: %v", err)
			}
			if spec.Source != (tools.Source{Kind: tools.SourceFile, Name: "f.yaml"}) {
				t.Fatalf("source %+v", spec.Source)
			}
		}
	})
}

// FuzzPointer: a pointer parses or is refused; resolving it against any
// JSON document never panics.
func FuzzPointer(f *testing.F) {
	for _, s := range []string{"", "/", "/a/0", "/a~1b/~0", "/~2", "a", "/0/01", "/-1"} {
		f.Add(s, `{"a": [{"b": 1}], "a/b": {"~": "x"}, "": 2}`)
	}
	f.Fuzz(func(t *testing.T, ptr, doc string) {
		p, err := parsePointer(ptr)
		if err != nil {
			return
		}
		r := &response{pointer: p}
		r.extract([]byte(doc))
	})
}
