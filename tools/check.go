package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Arguments are checked against a tool's whole input schema once decoded,
// by github.com/santhosh-tekuri/jsonschema/v6: it implements drafts 4 to
// 2020-12 (MCP servers send draft-07 and 2020-12 schemas), passes the
// official JSON-Schema-Test-Suite, is pure Go with no network access
// unless asked, is maintained, and takes a pluggable regular-expression
// engine, so a schema's patterns are matched with ECMA-262 semantics (as
// JSON Schema defines them) by github.com/dlclark/regexp2, under a time
// limit because that engine backtracks. Formats (date, date-time, uri,
// email, ...) are asserted, not just annotated.

// ArgsError is a call whose arguments do not fit the tool's schema: what
// the ToolDec machine and the parser cannot say (a number's bounds, an
// array's items, a pattern) is checked here.
type ArgsError struct {
	Tool string
	Path string // JSON pointer into the arguments, "" for the whole
	Msg  string
}

// Unwrap makes an ArgsError an *InputError too: a failure the caller
// fixes by changing the call.
func (e *ArgsError) Unwrap() error { return &InputError{Msg: e.Error()} }

func (e *ArgsError) Error() string {
	where := "the arguments"
	if e.Path != "" {
		where = "argument " + strings.TrimPrefix(e.Path, "/")
	}
	return fmt.Sprintf("%s: %s does not fit the tool's schema: %s", e.Tool, where, e.Msg)
}

// patternTimeout bounds one match of a schema's pattern.
const patternTimeout = 100 * time.Millisecond

// ArgsSchema is a tool's input schema compiled for checking arguments.
// It is safe for concurrent use.
type ArgsSchema struct {
	tool    string
	schema  *jsonschema.Schema
	printer *message.Printer
}

// CompileArgsSchema compiles a tool's input schema. A schema that is not
// valid JSON Schema is an error naming what is wrong.
func CompileArgsSchema(tool string, raw json.RawMessage) (*ArgsSchema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("tool %s: input schema is not JSON: %w", tool, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseRegexpEngine(ecmaRegexp)
	c.UseLoader(noRemoteLoader{})
	const url = "gear:///input-schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("tool %s: input schema: %w", tool, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("tool %s: input schema is not valid JSON Schema: %s", tool, oneLine(err.Error()))
	}
	return &ArgsSchema{tool: tool, schema: s, printer: message.NewPrinter(language.English)}, nil
}

// Check validates a call's arguments (ArgsJSON) against the schema.
func (a *ArgsSchema) Check(c Call) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(ArgsJSON(c)))
	if err != nil {
		return &ArgsError{Tool: a.tool, Msg: err.Error()}
	}
	err = a.schema.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &ArgsError{Tool: a.tool, Msg: oneLine(err.Error())}
	}
	path, msg := firstLeaf(ve, a.printer)
	return &ArgsError{Tool: a.tool, Path: path, Msg: msg}
}

// firstLeaf is the deepest first cause of a validation error: the one
// message a person can act on.
func firstLeaf(ve *jsonschema.ValidationError, p *message.Printer) (string, string) {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	path := ""
	for _, tok := range ve.InstanceLocation {
		path += "/" + tok
	}
	return path, oneLine(ve.ErrorKind.LocalizedString(p))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ArgsJSON writes a call's arguments as one JSON object, in parameter
// order: strings and expressions as strings, numbers, booleans, and JSON
// values as they are.
func ArgsJSON(c Call) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	for i, a := range c.Args {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(Quote(a.Name))
		b.WriteByte(':')
		if a.Value.Kind == KindExpression {
			b.WriteString(Quote(a.Value.Str))
		} else {
			writeValue(&b, a.Value)
		}
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

type ecmaPattern struct{ re *regexp2.Regexp }

func (p ecmaPattern) MatchString(s string) bool {
	ok, err := p.re.MatchString(s)
	return err == nil && ok // a match that times out fails
}

func (p ecmaPattern) String() string { return p.re.String() }

func ecmaRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = patternTimeout
	return ecmaPattern{re}, nil
}

// noRemoteLoader refuses every URL: a tool's schema is checked with what
// it holds, never with documents fetched from the network or the disk.
type noRemoteLoader struct{}

func (noRemoteLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema refers to %s, which gear does not load; inline it under $defs", url)
}

// argsCheck compiles a tool's schema on first use.
type argsCheck struct {
	once   sync.Once
	tool   string
	raw    json.RawMessage
	schema *ArgsSchema
	err    error
}

func (a *argsCheck) check(c Call) error {
	a.once.Do(func() { a.schema, a.err = CompileArgsSchema(a.tool, a.raw) })
	if a.err != nil {
		return a.err
	}
	return a.schema.Check(c)
}

// ArgsChecker checks calls against their tools' input schemas, compiling
// each schema once, on first use. It is safe for concurrent use.
type ArgsChecker struct{ byName map[string]*argsCheck }

// NewArgsChecker makes a checker for specs; those without an InputSchema
// are not checked (their Params say everything).
func NewArgsChecker(specs []Spec) *ArgsChecker {
	a := &ArgsChecker{byName: map[string]*argsCheck{}}
	for _, s := range specs {
		if len(s.InputSchema) > 0 {
			a.byName[s.Name] = &argsCheck{tool: s.Name, raw: s.InputSchema}
		}
	}
	return a
}

// Check validates c against its tool's input schema, if it has one.
func (a *ArgsChecker) Check(c Call) error {
	if a == nil {
		return nil
	}
	if ch, ok := a.byName[c.Tool]; ok {
		return ch.check(c)
	}
	return nil
}
