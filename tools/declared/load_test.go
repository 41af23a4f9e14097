package declared

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// TestLoadProblems: each broken declaration is reported at its file and
// line with what to fix, and every good tool beside it still loads.
func TestLoadProblems(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := func(name string) string {
		return "  - name: " + name + "\n    description: Works.\n    http: {url: \"https://example.org/x\"}\n"
	}
	tests := []struct {
		name     string
		body     string
		wantOK   []string
		wantErrs []string // each "LINE: text"; the path is prefixed
	}{
		{
			name: "template naming a missing parameter",
			body: "tools:\n" + good("First") + `  - name: Weather
    description: Weather for a city.
    parameters:
      type: object
      properties:
        city: {type: string}
      required: [city]
    http:
      url: "https://example.org/w/{cty}"
` + good("Last"),
			wantOK:   []string{"First", "Last"},
			wantErrs: []string{`13: tool Weather: url: "https://example.org/w/{cty}" names {cty}, which is not a parameter of the tool (its parameters: city)`},
		},
		{
			name:     "broken YAML",
			body:     "tools:\n  - name: A\n    description: [unclosed\n",
			wantErrs: []string{"3: not valid YAML: did not find expected ',' or ']'; fix the file's syntax"},
		},
		{
			name:     "duplicate names in one file",
			body:     "tools:\n" + good("Twin") + good("Twin") + good("web.get") + good("web__get"),
			wantOK:   []string{"Twin", "web.get"},
			wantErrs: []string{"5: tool Twin: declared twice (first at line 2); rename one", "11: tool web__get: declared twice (first at line 8); rename one"},
		},
		{
			name: "unknown key, two executors, no executor, bad effect",
			body: "tools:\n" + `  - name: Typo
    descripton: x
    http: {url: "https://example.org"}
  - name: Both
    description: two
    http: {url: "https://example.org"}
    command: {argv: [ls]}
  - name: Neither
    description: none
  - name: Long
    description: ` + strings.Repeat("word ", 300) + `
    http: {url: "https://example.org"}
  - name: Odd
    description: odd
    effect: sometimes
    http: {url: "https://example.org"}
` + good("Fine"),
			wantOK: []string{"Fine"},
			wantErrs: []string{
				`3: tool Typo: unknown key "descripton" in a tool (want one of: name, description,`,
				`2: tool Typo: a tool needs a description`,
				`8: tool Both: a tool has exactly one executor; give http: or command:, not both`,
				`9: tool Neither: a tool needs an executor`,
				`12: tool Long: description is 1499 characters; grounding and prompts read it for every query, so keep it to 1024`,
				`16: tool Odd: effect "sometimes": want read-only, writes or costs`,
			},
		},
		{
			name: "templates: program from a parameter, env in a url, stray braces, optional in url",
			body: "tools:\n" + `  - name: Run
    description: runs
    effect: read-only
    parameters: {type: object, properties: {prog: {type: string}}, required: [prog]}
    command: {argv: ["{prog}"]}
  - name: Leak
    description: leaks
    http: {url: "https://example.org/${KEY}"}
  - name: Awk
    description: awk
    effect: read-only
    command: {argv: [awk, "{print $1}"]}
  - name: Host
    description: host
    parameters: {type: object, properties: {h: {type: string}}, required: [h]}
    http: {url: "https://{h}.example.org/x"}
  - name: Opt
    description: opt
    parameters: {type: object, properties: {q: {type: string}}}
    http: {url: "https://example.org/{q}"}
`,
			wantErrs: []string{
				"6: tool Run: argv[0] is the program and must be fixed text, not a parameter",
				`9: tool Leak: url: "https://example.org/${KEY}" names the environment variable KEY here; secrets go only in headers, query values and a command's env`,
				`13: tool Awk: argv[1]: "{print $1}": {print $1} is not a parameter's name; write {{ and }} for literal braces`,
				`17: tool Host: url "https://{h}.example.org/x": the server ({h}.example.org) must be fixed text; parameters go in the path or query:`,
				"21: tool Opt: url names the optional parameter {q}; make it required or move it to query:",
			},
		},
		{
			name: "bad examples and schema",
			body: "tools:\n" + `  - name: Sq
    description: squares
    parameters: {type: object, properties: {n: {type: number}}, required: [n]}
    http: {url: "https://example.org/{n}"}
    examples:
      - query: square of two
        call: Sq("two")
      - query: square of three
        arguments: {m: 3}
  - name: Bounded
    description: bounded
    parameters: {type: object, properties: {n: {type: integer, minimum: 1, maximum: 10}}, required: [n]}
    http: {url: "https://example.org"}
    examples:
      - query: eleven
        call: Bounded(11)
  - name: BadSchema
    description: bad schema
    parameters: {type: object, properties: {n: {type: integer, minimum: "one"}}}
    http: {url: "https://example.org"}
  - name: Gap
    description: gaps
    parameters: {type: object, properties: {a: {type: number}, b: {type: number}}}
    http: {url: "https://example.org"}
    examples:
      - query: only b
        arguments: {b: 3}
  - name: Flag
    description: flags
    parameters:
      type: object
      properties: {on: {type: boolean}}
      required:
        - on
        - off
    http: {url: "https://example.org"}
`,
			wantErrs: []string{
				`7: tool Sq: example call Sq("two") does not parse`,
				`10: tool Sq: arguments: "m" is not a parameter (its parameters: n)`,
				`16: tool Bounded: example call Bounded(11) does not parse: at column 9: expected an integer from 1 to 10 for n, found 11`,
				`20: tool BadSchema: parameters: not valid JSON Schema at /properties/n/minimum: got string, want number`,
				`28: tool Gap: arguments: b is given but a, which comes before it, is not; give a too`,
				`36: tool Flag: parameters: input schema at /required/1: "off" is required but not among the properties`,
			},
		},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeDecl(t, dir, "f"+string(rune('a'+i))+".yaml", tc.body)
			ts, errs := LoadFiles([]string{path}, Options{})
			var names []string
			for _, tool := range ts {
				names = append(names, tool.Spec().Name)
			}
			if strings.Join(names, ",") != strings.Join(tc.wantOK, ",") {
				t.Errorf("loaded %v, want %v", names, tc.wantOK)
			}
			var got []string
			for _, err := range errs {
				if _, ok := err.(*Problem); !ok {
					t.Errorf("%T is not a *Problem: %v", err, err)
				}
				got = append(got, err.Error())
			}
			for _, want := range tc.wantErrs {
				found := false
				for _, g := range got {
					if strings.HasPrefix(g, path+":"+want) {
						found = true
					}
				}
				if !found {
					t.Errorf("no problem %q in:\n%s", path+":"+want, strings.Join(got, "\n"))
				}
			}
			if len(got) < len(tc.wantErrs) || (len(tc.wantErrs) == 0 && len(got) > 0) {
				t.Errorf("problems:\n%s", strings.Join(got, "\n"))
			}
		})
	}
}

// TestLoadFilesAcrossFiles: a tool declared in two files is used from the
// first and reported in the second; an unreadable or broken file does not
// stop the others.
func TestLoadFilesAcrossFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tool := "name: Same\ndescription: d\nhttp: {url: \"https://example.org\"}\n"
	a := writeDecl(t, dir, "a.yaml", tool)
	b := writeDecl(t, dir, "b.yml", tool)
	c := writeDecl(t, dir, "c.yaml", "name: [\n")
	writeDecl(t, dir, "notes.txt", "not a tool")
	if err := os.Mkdir(filepath.Join(dir, "sub.yaml"), 0o700); err != nil {
		t.Fatal(err)
	}
	files, err := Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(files, ",") != strings.Join([]string{a, b, c}, ",") {
		t.Errorf("Dir = %v", files)
	}
	ts, errs := LoadFiles(append(files, filepath.Join(dir, "gone.yaml")), Options{})
	if len(ts) != 1 || ts[0].Spec().Source.Name != a {
		t.Errorf("loaded %d tools", len(ts))
	}
	want := []string{
		b + ": tool Same: already declared in " + a + "; rename one (the first is used)",
		c + ":2: not valid YAML",
		filepath.Join(dir, "gone.yaml") + ": cannot read the file: no such file or directory; check the path",
	}
	if len(errs) != len(want) {
		t.Fatalf("errors %v", errs)
	}
	for i, w := range want {
		if !strings.HasPrefix(errs[i].Error(), w) {
			t.Errorf("error %d = %q, want prefix %q", i, errs[i], w)
		}
	}
	if got, err := Dir(filepath.Join(dir, "absent")); err != nil || got != nil {
		t.Errorf("a missing tools directory: %v, %v", got, err)
	}
}

// TestDescriptionSanitised: a file's text shown to people has no escape
// sequences.
func TestDescriptionSanitised(t *testing.T) {
	t.Parallel()
	path := writeDecl(t, t.TempDir(), "esc.yaml", "name: Esc\ndescription: \"Says \\e[2Jhi\\u202e\"\nhttp: {url: \"https://example.org\"}\nexamples:\n  - {query: \"hi\\e]0;x\\a there\", call: Esc()}\n")
	tool := loadOne(t, path, Options{})
	if d := tool.Spec().Description; d != "Says hi" {
		t.Errorf("description %q", d)
	}
	if q := tool.Spec().Examples[0].Query; q != "hi there" {
		t.Errorf("example query %q", q)
	}
}

// TestGroundingHints: grounding: in a file becomes the spec's Hints, the
// same data the built-in tools carry; a mistake in it is reported.
func TestGroundingHints(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeDecl(t, dir, "hints.yaml", `
name: Convert
description: Converts between currencies.
parameters:
  type: object
  properties:
    amount: {type: number}
    from: {type: string}
    to: {type: string}
  required: [amount, from, to]
grounding:
  aliases: [Currency Converter, fx]
  subjects:
    - name: money
      answer: number
      words: [Currency, exchange, "  Rate "]
      cues: [exchange rate]
      idioms: [money talks]
      target_cues: [rate in]
      names: [Rate]
  params:
    from: {role: from}
    to: {role: to}
http: {url: "https://example.org/convert"}
`)
	h := loadOne(t, path, Options{}).Spec().Hints
	if strings.Join(h.Aliases, ",") != "currency converter,fx" || len(h.Subjects) != 1 ||
		strings.Join(h.Subjects[0].Words, ",") != "currency,exchange,rate" || h.Subjects[0].Answer != "number" ||
		strings.Join(h.Subjects[0].Cues, ",") != "exchange rate" || strings.Join(h.Subjects[0].Idioms, ",") != "money talks" ||
		strings.Join(h.Subjects[0].TargetCues, ",") != "rate in" || strings.Join(h.Subjects[0].Names, ",") != "rate" ||
		h.Params["from"].Role != "from" || h.Params["to"].Role != "to" {
		t.Errorf("hints = %+v", h)
	}
	calc := writeDecl(t, dir, "calc.yaml", `
name: Sums
description: Adds up ranges of numbers.
parameters:
  type: object
  properties:
    formula: {type: string, x-gear-type: expression}
  required: [formula]
grounding:
  params:
    formula: {functions: {range_sum: series}}
http: {url: "https://example.org/sum"}
`)
	if fn := loadOne(t, calc, Options{}).Spec().Hints.Params["formula"].Functions; fn[tools.OpRangeSum] != "series" || len(fn) != 1 {
		t.Errorf("functions = %v", fn)
	}
	for body, want := range map[string]string{"{integral: integrate}": "unknown operation", "[series]": "functions must map operations"} {
		path := writeDecl(t, dir, "calc-bad.yaml", strings.Replace(`
name: Sums
description: Adds up ranges of numbers.
parameters:
  type: object
  properties:
    formula: {type: string, x-gear-type: expression}
  required: [formula]
grounding:
  params:
    formula: {functions: BODY}
http: {url: "https://example.org/sum"}
`, "BODY", body, 1))
		if ts, errs := LoadFiles([]string{path}, Options{}); len(ts) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), want) {
			t.Errorf("functions %s: loaded %d, problems %v; want one with %q", body, len(ts), errs, want)
		}
	}
	bad := writeDecl(t, dir, "bad.yaml", `
name: Bad
description: d
parameters: {type: object, properties: {a: {type: string}}}
grounding:
  subjects:
    - name: x
      answer: colour
      wrods: [a]
  params:
    b: {role: to}
    a: {role: sideways}
http: {url: "https://example.org"}
`)
	ts, errs := LoadFiles([]string{bad}, Options{})
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	want := []string{
		bad + `:9: tool Bad: unknown key "wrods" in a grounding subject`,
		bad + `:11: tool Bad: grounding.params names "b", which is not a parameter of the tool (its parameters: a)`,
		bad + `:12: tool Bad: role "sideways": want from or to`,
	}
	if len(ts) != 0 || len(got) != len(want) {
		t.Fatalf("loaded %d, problems:\n%s", len(ts), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d = %q, want %q", i, got[i], want[i])
		}
	}
}

// TestEffectDefaults: a GET reads, anything else may write; a tool that
// may write and declares no mock gets one to be scored on, so grounding
// never runs it.
func TestEffectDefaults(t *testing.T) {
	t.Parallel()
	path := writeDecl(t, t.TempDir(), "effects.yaml", `
tools:
  - name: Get
    description: Reads.
    http: {url: "https://example.org"}
  - name: Post
    description: Sends a message. Then more.
    http: {url: "https://example.org", method: POST}
  - name: Run
    description: Runs.
    parameters: {type: object, properties: {a: {type: string}, n: {type: number}}, required: [a]}
    command: {argv: [true]}
  - name: Pay
    description: Pays.
    effect: costs
    mock: "paid {a}"
    parameters: {type: object, properties: {a: {type: string}}, required: [a]}
    command: {argv: [true]}
  - name: Ls
    description: Lists.
    effect: read-only
    command: {argv: [ls]}
`)
	ts, errs := LoadFiles([]string{path}, Options{})
	if len(errs) > 0 || len(ts) != 5 {
		t.Fatalf("%d tools, %v", len(ts), errs)
	}
	want := []struct{ effect, mock string }{
		{"read-only", ""}, {"writes", "Sends a message"}, {"writes", "{a}, {n}"}, {"costs", "paid {a}"}, {"read-only", ""},
	}
	for i, tool := range ts {
		s := tool.Spec()
		if string(s.Effect) != want[i].effect || s.Mock != want[i].mock {
			t.Errorf("%s: effect %q mock %q, want %q %q", s.Name, s.Effect, s.Mock, want[i].effect, want[i].mock)
		}
	}
}
