package constrain

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gear-chat/gear/tools"
)

// exportCorpus is the corpus every export is checked on against the
// machine: generated calls (valid and damaged, both forms), calls at the
// syntax's bounds, and the corners of the grammar.
func exportCorpus(n int) []string {
	g := newGen(4242, testSpecs())
	out := []string{
		"Calculator(25% of 54,788)", "Calculator(max(1, 2, 3) + sqrt(16))", "Calculator(( 76.0 - 25.0 ))",
		"Calculator(sqrt(max(1,2)))", "Calculator(((1)))", "Calculator(f(g(h(1))))", "Calculator(2 ** 3)",
		`{"tool": "Units", "args": {"unit": "US customary", "note": "a\u00e9\ud83d"}}`,
		`{"tool": "Units", "args": {"unit": "\u006detric"}}`, `{"tool": "Pow", "args": {"base": 1e5, "exponent": 3}}`,
		`{"tool": "Pow", "args": {"base": 1, "exponent": 3.0}}`, `{"tool": "Pow", "args": {"exponent": 3, "base": 1}}`,
		`{"tool": "Pow", "args": {"base": null, "exponent": 3}}`, `{"tool": "WeatherSearch", "args": {"place": "x", "date": "ſunday"}}`,
		`{"tool": "WeatherSearch", "args": {"place": "x", "date": "\u017Funday"}}`, `{"tool": "WikiSearch", "args": {"query": "\u0000"}}`,
		`{"tool": "Calculator", "args": {"expression": "1\t+ 2"}}`, `{"tool": "Calculator", "args": {"expression": "1 \u002b 2"}}`,
		`{"tool": "CurrentTime", "args": {"place": "` + strings.Repeat("é", tools.MaxPlaceLen) + `"}}`,
		`{"tool": "CurrentTime", "args": {"place": "` + strings.Repeat("é", tools.MaxPlaceLen+1) + `"}}`,
		`{"tool": "Pow", "args": {"base": 123456789012345678901234, "exponent": 999999999999999}}`,
		`{"tool": "Pow", "args": {"base": 1, "exponent": 1000000000000000}}`,
	}
	for len(out) < n {
		switch g.r.IntN(4) {
		case 0:
			out = append(out, g.boundary())
		case 1:
			spec := g.specs[g.r.IntN(len(g.specs))]
			out = append(out, g.callOf(spec, spec.RequiredParams()+g.r.IntN(len(spec.Params)-spec.RequiredParams()+1), true))
		default:
			out = append(out, g.input())
		}
	}
	return out
}

// expressionDepth is the deepest parenthesis nesting of a call's
// expression arguments, or bracket nesting of its JSON values, read from
// the parser's call.
func expressionDepth(call tools.Call) int {
	deepest := 0
	for _, a := range call.Args {
		if a.Value.Kind == tools.KindJSON {
			deepest = max(deepest, jsonDepth(a.Value.Str))
		}
		if a.Value.Kind != tools.KindExpression {
			continue
		}
		d := 0
		for _, c := range a.Value.Str {
			switch c {
			case '(':
				d++
				deepest = max(deepest, d)
			case ')':
				d--
			}
		}
	}
	return deepest
}

// parserSaysTooLong reports that the parser refuses text for the one
// bound no export can express: the expression's length.
func parserSaysTooLong(m *Machine, text string) bool {
	_, err := tools.Parse(text, m.lookup)
	return err != nil && strings.Contains(err.Error(), "expression longer than")
}

// jsonDepth is the bracket nesting of compact JSON text.
func jsonDepth(text string) int {
	d, deepest, inString := 0, 0, false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			d++
			deepest = max(deepest, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return deepest
}

// parserSaysStringTooLong reports that the parser refuses text for a
// string inside a JSON value longer than MaxJSONStringLen, which the
// grammars do not count.
func parserSaysStringTooLong(m *Machine, text string) bool {
	_, err := tools.Parse(text, m.lookup)
	return err != nil && strings.Contains(err.Error(), "in the JSON value for") && strings.Contains(err.Error(), "longer than")
}

// skipsOptional reports a call that leaves out an optional parameter
// before a given one.
func skipsOptional(m *Machine, text string) bool {
	call, err := tools.Parse(text, m.lookup)
	return err == nil && call.Named
}

// usesKeywords reports a canonical call with keyword arguments.
func usesKeywords(m *Machine, text string) bool {
	s, ok := m.Advance(m.Start(), text)
	return ok && s.flags&flagKeywords != 0
}

func deeperThan(m *Machine, text string, depth int) bool {
	call, err := tools.Parse(text, m.lookup)
	return err == nil && expressionDepth(call) > depth
}

func TestRegexAcceptsWhatTheMachineAccepts(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	corpus := exportCorpus(samples(12000))
	for _, depth := range []int{1, DefaultExportDepth} {
		re := regexp.MustCompile(`^(?:` + m.Regex(ExportOptions{Depth: depth}) + `)$`)
		agree := 0
		for _, in := range corpus {
			machine, rx := m.Accepts(in), re.MatchString(in)
			switch {
			case machine == rx:
				agree++
			case rx && !utf8.ValidString(in):
				// Go's regexp reads an invalid byte as U+FFFD (documented).
			case rx && (parserSaysTooLong(m, in) || parserSaysStringTooLong(m, in)):
				// A regular expression does not bound the expression's
				// length, nor a JSON string's.
			case machine && deeperThan(m, in, depth):
				// Nesting beyond the unrolled depth.
			case machine && usesKeywords(m, in):
				// The regular expression leaves the keyword form out.
			default:
				t.Fatalf("depth %d: regex %v, machine %v on %q", depth, rx, machine, in)
			}
		}
		if agree < len(corpus)*9/10 {
			t.Fatalf("depth %d: only %d of %d agree", depth, agree, len(corpus))
		}
	}
}

func TestGBNFAcceptsWhatTheMachineAccepts(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	g, err := parseGBNF(m.GBNF())
	if err != nil {
		t.Fatal(err)
	}
	accepted, checked := 0, 0
	for _, in := range exportCorpus(samples(2500)) {
		if !utf8.ValidString(in) {
			continue // GBNF reads code points; a byte string that is not UTF-8 has none
		}
		checked++
		machine, gbnf := m.Accepts(in), g.accepts(in)
		switch {
		case machine == gbnf:
			if machine {
				accepted++
			}
		case gbnf && (parserSaysTooLong(m, in) || parserSaysStringTooLong(m, in)):
			// A grammar does not bound the expression's length, nor a JSON
			// string's (documented).
		default:
			t.Fatalf("gbnf %v, machine %v on %q", gbnf, machine, in)
		}
	}
	if accepted < checked/5 {
		t.Fatalf("only %d of %d accepted", accepted, checked)
	}
}

func TestGBNFNamesEveryToolAndNestsAsDeepAsTheMachine(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	text := m.GBNF()
	for _, name := range m.Names() {
		if !strings.Contains(text, `"`+name+`"`) || !strings.Contains(text, `"\"`+name+`\""`) {
			t.Errorf("grammar lacks %s in one of the forms", name)
		}
	}
	g, err := parseGBNF(text)
	if err != nil {
		t.Fatal(err)
	}
	deep := "Calculator(" + strings.Repeat("f(", tools.MaxExpressionDepth) + "1" + strings.Repeat(")", tools.MaxExpressionDepth) + ")"
	deeper := "Calculator(" + strings.Repeat("(", tools.MaxExpressionDepth+1) + "1" + strings.Repeat(")", tools.MaxExpressionDepth+1) + ")"
	if !g.accepts(deep) || g.accepts(deeper) {
		t.Fatal("GBNF nesting bound differs from the machine's")
	}
}

func TestJSONSchemaAcceptsWhatTheMachineAccepts(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	sv := newSchemaValidator(t, m.JSONSchema(ExportOptions{}))
	agree, accepted := 0, 0
	for _, in := range exportCorpus(8000) {
		instance := `{"call": ` + in + `}`
		v, decoded := decodeInstance(instance)
		bySchema := decoded && sv.valid(v)
		_, err := m.ValidateSchemaOutput(instance)
		byMachine := err == nil
		switch {
		case bySchema == byMachine:
			agree++
			if byMachine {
				accepted++
			}
		case bySchema && numberSpelling(m, instance):
			// JSON Schema numbers allow exponents, any length, 3.0 as an
			// integer; the call syntax does not (documented).
		case bySchema && parserSaysTooLong(m, mustCall(m, instance)):
		case byMachine && skipsOptional(m, mustCall(m, instance)):
			// The schema leaves optional arguments out only from the end.
		case byMachine && deeperThan(m, mustCall(m, instance), DefaultSchemaDepth):
		default:
			t.Fatalf("schema %v, machine %v (%v) on %s", bySchema, byMachine, err, instance)
		}
	}
	if accepted < 300 || agree < 7000 {
		t.Fatalf("%d agree, %d accepted", agree, accepted)
	}
}

func mustCall(m *Machine, instance string) string {
	text, _ := m.SchemaOutputCall(instance)
	return text
}

// numberSpelling reports that the parser refuses the re-encoded call for a
// number or integer literal JSON accepts.
func numberSpelling(m *Machine, instance string) bool {
	text, err := m.SchemaOutputCall(instance)
	if err != nil {
		return false
	}
	_, perr := tools.Parse(text, m.lookup)
	return perr != nil && (strings.Contains(perr.Error(), "expected a number") || strings.Contains(perr.Error(), "expected an integer") ||
		strings.Contains(perr.Error(), "has no fraction or exponent"))
}

// TestJSONSchemaFitsOpenAIStrictMode checks the restrictions of OpenAI's
// strict structured outputs: an object at the root and no anyOf there,
// additionalProperties false and every property required on every object,
// only supported keywords, at most 10 levels of nesting, 5000 properties,
// 1000 enum values.
func TestJSONSchemaFitsOpenAIStrictMode(t *testing.T) {
	t.Parallel()
	// A JSON parameter's schema goes into the export as the tool gave it;
	// kv.set's value ({}: any JSON) has no strict-mode form, so it is left
	// out here (documented on JSONSchema).
	var specs []tools.Spec
	for _, s := range testSpecs() {
		if s.Name != "kv.set" {
			specs = append(specs, s)
		}
	}
	m, err := New(specs...)
	if err != nil {
		t.Fatal(err)
	}
	raw := m.JSONSchema(ExportOptions{})
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		t.Fatal(err)
	}
	if root["type"] != "object" || root["anyOf"] != nil {
		t.Fatal("root must be an object without anyOf")
	}
	supported := map[string]bool{"type": true, "properties": true, "required": true, "additionalProperties": true,
		"enum": true, "anyOf": true, "pattern": true, "minimum": true, "maximum": true, "description": true, "items": true}
	props, enums, deepest := 0, 0, 0
	var walk func(s map[string]any, depth int)
	walk = func(s map[string]any, depth int) {
		deepest = max(deepest, depth)
		for k := range s {
			if !supported[k] {
				t.Errorf("unsupported keyword %q", k)
			}
		}
		enums += len(asList(s["enum"]))
		if p, ok := s["pattern"].(string); ok {
			if _, err := regexp.Compile(p); err != nil || !strings.HasPrefix(p, "^") || !strings.HasSuffix(p, "$") {
				t.Errorf("pattern %q: %v", p, err)
			}
		}
		if s["type"] == "object" {
			ps, _ := s["properties"].(map[string]any)
			if s["additionalProperties"] != false || len(asList(s["required"])) != len(ps) {
				t.Errorf("object without additionalProperties false or with optional properties: %v", s)
			}
			props += len(ps)
			for _, p := range ps {
				walk(p.(map[string]any), depth+1)
			}
		}
		for _, a := range asList(s["anyOf"]) {
			walk(a.(map[string]any), depth)
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(items, depth+1)
		}
	}
	walk(root, 0)
	if deepest > 10 || props > 5000 || enums > 1000 {
		t.Fatalf("depth %d, %d properties, %d enum values", deepest, props, enums)
	}
	// Keys come in parameter order: strict mode emits keys in schema order.
	if s := string(raw); !(strings.Index(s, `"from_place"`) < strings.Index(s, `"to_place"`) && strings.Index(s, `"tool"`) < strings.Index(s, `"args"`)) {
		t.Fatal("schema keys are not in parameter order")
	}
}

func TestValidateSchemaOutput(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	tests := []struct {
		out, want string
	}{
		{`{"call": {"tool": "Pow", "args": {"base": 2.5, "exponent": 3}}}`, "Pow(2.5, 3)"},
		{`{"call": {"args": {"exponent": 3, "base": 2.5}, "tool": "Pow"}}`, "Pow(2.5, 3)"},
		{` {"call":{"tool":"WeatherSearch","args":{"place":"Z\u00fcrich","date":"today"}}} `, `WeatherSearch("Zürich", "today")`},
		{`{"call": {"tool": "Calculator", "args": {"expression": "2 + 4"}}}`, "Calculator(2 + 4)"},
		{`{"call": {"tool": "Pow", "args": {"base": 1e5, "exponent": 3}}}`, `error: expected a number for base, found "1e5"`},
		{`{"call": {"tool": "Pow", "args": {"base": 2}}}`, "error: missing argument exponent"},
		{`{"call": {"tool": "Nope", "args": {}}}`, `error: unknown tool "Nope"`},
		{`{"call": {"tool": "Pow", "args": {"base": 2, "exponent": 3}}, "x": 1}`, "error: expected {\"call\""},
		{`{"call": {"tool": "Pow", "args": {"base": 2, "exponent": 3}}} trailing`, "error: expected {\"call\""},
		{`not json`, "error: expected {\"call\""},
	}
	for _, tt := range tests {
		call, err := m.ValidateSchemaOutput(tt.out)
		if want, isErr := strings.CutPrefix(tt.want, "error: "); isErr {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: got %v, %v, want an error saying %s", tt.out, call, err, want)
			}
			continue
		}
		if err != nil || call.String() != tt.want {
			t.Errorf("%s: got %v, %v, want %s", tt.out, call, err, tt.want)
		}
	}
}
