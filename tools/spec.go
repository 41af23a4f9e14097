// Package tools is the contract every part of gear reads tools through:
// a tool is described by data (Spec), called with a parsed Call, and run
// with a context. Grounding, the ToolDec machine, prompts, `gear tools` and
// user-defined tools all read the same Spec.
package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Family is the kind of job a tool does. `gear eval` scores a grounding
// decision by the family of the chosen tool, so two tools of one family
// (CurrentTime and TimezoneConverter) are interchangeable for scoring.
type Family string

// The families of the built-in tools. A user-defined tool may name its own.
const (
	FamilyCalc     Family = "calc"
	FamilyTimezone Family = "timezone"
	FamilyWeather  Family = "weather"
	FamilyLocation Family = "location"
	FamilyWiki     Family = "wiki"
)

// ParamType says what text an argument may be. Each type has one lexical
// form, shared by the call parser here and the ToolDec machine in constrain
// (see lexical.go): the machine and the parser must accept exactly the same
// calls.
type ParamType string

const (
	// TypeNumber is a decimal number literal without exponent: -12.5.
	TypeNumber ParamType = "number"
	// TypeInteger is an integer literal of at most 15 digits: -42.
	TypeInteger ParamType = "integer"
	// TypeString is a JSON string literal, non-empty, at most MaxLen runes
	// once decoded.
	TypeString ParamType = "string"
	// TypeEnum is a JSON string literal whose content is one of Param.Enum.
	TypeEnum ParamType = "enum"
	// TypeDateTime is a JSON string literal holding a date and/or time in
	// one of the shapes of DateTimePattern.
	TypeDateTime ParamType = "datetime"
	// TypeDate is a JSON string literal holding a calendar day: an ISO
	// date, "today", "tomorrow" or a weekday name.
	TypeDate ParamType = "date"
	// TypePlace is a JSON string literal naming a place, a time zone or a
	// UTC offset. Lexically it is a string of at most MaxPlaceLen runes;
	// the type tells grounding to look for a place in the query.
	TypePlace ParamType = "place"
	// TypeBoolean is the literal true or false (bare in every form).
	TypeBoolean ParamType = "boolean"
	// TypeJSON is any JSON value, written as JSON in every form: arrays,
	// objects, null, and values whose schema the other types cannot say
	// (anyOf, an enum of numbers). Param.Schema says what it must be; the
	// value is checked against it after decoding.
	TypeJSON ParamType = "json"
	// TypeExpression is a bare arithmetic expression (not quoted in the
	// canonical syntax; a JSON string in the JSON form). It must be the
	// last parameter, because it runs to the call's closing parenthesis.
	TypeExpression ParamType = "expression"
)

// Param is one typed parameter of a tool.
type Param struct {
	Name        string    `json:"name" yaml:"name"`
	Type        ParamType `json:"type" yaml:"type"`
	Description string    `json:"description" yaml:"description"`
	// Optional parameters come after all required ones and may be left out
	// from the end of a call.
	Optional bool `json:"optional,omitempty" yaml:"optional,omitempty"`
	// Enum lists the allowed values of a TypeEnum parameter.
	Enum []string `json:"enum,omitempty" yaml:"enum,omitempty"`
	// MaxLen bounds a TypeString value in runes; 0 means DefaultMaxStringLen.
	MaxLen int `json:"max_len,omitempty" yaml:"max_len,omitempty"`
	// Pattern, for a TypeString, is a content pattern (Go regexp syntax,
	// matched against the whole content) that makes the string
	// pattern-typed like an enum: no escapes, content matching exactly.
	Pattern string `json:"pattern,omitempty" yaml:"pattern,omitempty"`
	// Format is the JSON Schema format (date, date-time, uri) Pattern was
	// made for, for messages; empty for a schema's own pattern.
	Format string `json:"format,omitempty" yaml:"format,omitempty"`
	// Min and Max bound a number's value (inclusive). For an integer the
	// parser and the machine check them; for a number the input schema's
	// check after decoding does.
	Min *float64 `json:"minimum,omitempty" yaml:"minimum,omitempty"`
	Max *float64 `json:"maximum,omitempty" yaml:"maximum,omitempty"`
	// Items, for a TypeJSON parameter, says its value is an array whose
	// items are JSON values of this type (string, number, integer or
	// boolean): the machine and the parser then read it exactly.
	Items ParamType `json:"items,omitempty" yaml:"items,omitempty"`
	// Schema is the parameter's own JSON Schema, references resolved, for
	// a TypeJSON parameter (exports and listings read it).
	Schema json.RawMessage `json:"schema,omitempty" yaml:"-"`
	// Default is the value the tool assumes when the argument is left
	// out, as the schema gives it (JSON); informative only.
	Default json.RawMessage `json:"default,omitempty" yaml:"-"`
}

// Example is one usage example: a query and the call that answers it. The
// examples are the π_i of GEAR: grounding prompts the small model with them.
// Call may be empty: a question the tool answers, with no call shown (a
// tool library's examples without arguments, package catalog); grounding
// ranks by it and prompts list it as a question, not a call.
type Example struct {
	Query string `json:"query" yaml:"query"`
	Call  string `json:"call" yaml:"call"`
}

// Spec describes a tool as data.
type Spec struct {
	Name        string    `json:"name" yaml:"name"`
	Family      Family    `json:"family" yaml:"family"`
	Description string    `json:"description" yaml:"description"`
	Params      []Param   `json:"params" yaml:"params"`
	Examples    []Example `json:"examples" yaml:"examples"`
	// OutputPattern names a special GEAR pattern ("time", "weather") that
	// this tool's responses are encoded with, as in the paper's code; empty
	// means the generic patterns.
	OutputPattern string `json:"output_pattern,omitempty" yaml:"output_pattern,omitempty"`
	// Mock, when set, is the response grounding uses instead of running the
	// tool (GEAR, arXiv:2307.08775, Appendix A.3): for tools that are slow, costly
	// or have side effects. "{param}" is replaced by that argument's text.
	// It is never used when the user runs the tool.
	Mock string `json:"mock,omitempty" yaml:"mock,omitempty"`
	// Source says where the tool came from (built-in, a declared tool's
	// file, an MCP server); history records it with every call.
	Source Source `json:"source" yaml:"source,omitempty"`
	// Effect is the tool's side-effect class: only a read-only tool runs
	// during grounding or without asking.
	Effect Effect `json:"effect" yaml:"effect,omitempty"`
	// InputSchema is the tool's whole JSON Schema for its arguments, as
	// its source gave it (an MCP inputSchema, a declared tool's
	// parameters); nil for built-in tools, whose Params say everything.
	// Params are read from it; whatever they cannot express is checked
	// against it after decoding, never dropped.
	InputSchema json.RawMessage `json:"input_schema,omitempty" yaml:"-"`
	Hints       Hints           `json:"hints,omitzero" yaml:"hints,omitempty"` // what an offline engine reads about the tool (hints.go)
}

// Param returns the parameter called name.
func (s Spec) Param(name string) (Param, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// RequiredParams counts the parameters a call must give.
func (s Spec) RequiredParams() int {
	n := 0
	for _, p := range s.Params {
		if !p.Optional {
			n++
		}
	}
	return n
}

// Signature renders the spec as `Name(param: type, [opt: type])`, a JSON
// parameter's type as its schema says it ("array of string").
func (s Spec) Signature() string {
	var b strings.Builder
	b.WriteString(s.Name)
	b.WriteByte('(')
	for i, p := range s.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		if p.Optional {
			b.WriteByte('[')
		}
		b.WriteString(p.Name)
		b.WriteString(": ")
		b.WriteString(p.TypeLabel())
		if p.Optional {
			b.WriteByte(']')
		}
	}
	b.WriteByte(')')
	return b.String()
}

// MockResponse fills the spec's mock template with the call's arguments.
// It returns "" when the spec declares no mock.
func (s Spec) MockResponse(c Call) string {
	if s.Mock == "" {
		return ""
	}
	out := s.Mock
	for _, a := range c.Args {
		out = strings.ReplaceAll(out, "{"+a.Name+"}", a.Value.Text())
	}
	return out
}

// ToolNamePattern is the form of a tool name: a letter, digit or '_', then
// letters, digits, '_', '.' or '-', at most 64 bytes in all. The dot joins
// an MCP server's name to its tool's (QualifiedName); WireName maps it for
// APIs that refuse dots.
const ToolNamePattern = `^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$`

// ParamNamePattern is the form of a parameter name. JSON Schema property
// names of real tools (maxResults, file-path, user.id) fit it; the keyword
// form writes it before a ':'.
const ParamNamePattern = `^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`

// isToolName and isParamName match ToolNamePattern and ParamNamePattern
// byte by byte: Validate runs for every tool of a library (4,076 at
// Seal-Tools' size), where the regular expressions cost a tenth of the
// load. TestNamePatterns checks them against the patterns.
func isToolName(s string) bool {
	if len(s) == 0 || len(s) > 64 || !IsToolNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !IsToolNameByte(s[i]) {
			return false
		}
	}
	return true
}

func isParamName(s string) bool {
	if len(s) == 0 || len(s) > 64 || !(s[0] == '_' || s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !IsToolNameByte(s[i]) {
			return false
		}
	}
	return true
}

// IsToolNameByte reports whether c may stand in a tool name; the call
// parser and the ToolDec machine read a name as the longest run of them.
func IsToolNameByte(c byte) bool { return isAlnum(c) || c == '_' || c == '.' || c == '-' }

// IsToolNameStart reports whether c may begin a tool name.
func IsToolNameStart(c byte) bool { return isAlnum(c) || c == '_' }

// Validate checks that a spec can be called and parsed unambiguously.
func (s Spec) Validate() error {
	if !isToolName(s.Name) {
		return fmt.Errorf("tool name %q: want a letter, digit or _, then letters, digits, _, . or - (at most 64)", s.Name)
	}
	if len(s.WireName()) > MaxWireNameLen {
		return fmt.Errorf("tool name %q: longer than %d characters as model APIs receive it (%s); shorten it", s.Name, MaxWireNameLen, s.WireName())
	}
	if s.Family == "" {
		return fmt.Errorf("tool %s: no family", s.Name)
	}
	if !s.Effect.Known() {
		return fmt.Errorf("tool %s: unknown effect %q (want read-only, writes or costs)", s.Name, s.Effect)
	}
	if strings.TrimSpace(s.Description) == "" {
		return fmt.Errorf("tool %s: no description", s.Name)
	}
	seen := map[string]bool{}
	optional := false
	for i, p := range s.Params {
		if !isParamName(p.Name) {
			return fmt.Errorf("tool %s: parameter name %q: want a letter or _, then letters, digits, _, . or - (at most 64)", s.Name, p.Name)
		}
		if seen[p.Name] {
			return fmt.Errorf("tool %s: parameter %q declared twice", s.Name, p.Name)
		}
		seen[p.Name] = true
		if !p.Type.known() {
			return fmt.Errorf("tool %s: parameter %s has unknown type %q", s.Name, p.Name, p.Type)
		}
		if p.Optional {
			optional = true
		} else if optional {
			return fmt.Errorf("tool %s: required parameter %s follows an optional one", s.Name, p.Name)
		}
		if p.Type == TypeExpression && i != len(s.Params)-1 {
			return fmt.Errorf("tool %s: expression parameter %s must be the last", s.Name, p.Name)
		}
		if p.Type == TypeEnum {
			if len(p.Enum) == 0 {
				return fmt.Errorf("tool %s: enum parameter %s lists no values", s.Name, p.Name)
			}
			for _, v := range p.Enum {
				if !enumValuePattern().MatchString(v) || !utf8.ValidString(v) {
					return fmt.Errorf("tool %s: enum value %q of %s: want 1 to %d characters, no quote, backslash or control character", s.Name, v, p.Name, maxEnumValueLen)
				}
			}
		}
		if (p.Min != nil || p.Max != nil) && p.Type != TypeInteger && p.Type != TypeNumber {
			return fmt.Errorf("tool %s: parameter %s: only a number or an integer takes bounds", s.Name, p.Name)
		}
		if lo, hi := p.IntegerRange(); p.Bounded() && lo > hi {
			return fmt.Errorf("tool %s: parameter %s: no integer lies between its minimum and maximum", s.Name, p.Name)
		}
		if p.Items != "" {
			if p.Type != TypeJSON || !p.Items.itemType() {
				return fmt.Errorf("tool %s: parameter %s: items %q: want a json parameter with string, number, integer or boolean items", s.Name, p.Name, p.Items)
			}
		}
		if p.Pattern != "" {
			if p.Type != TypeString {
				return fmt.Errorf("tool %s: parameter %s: only a string takes a pattern", s.Name, p.Name)
			}
			if _, err := regexp.Compile(p.Pattern); err != nil {
				return fmt.Errorf("tool %s: parameter %s: pattern: %v", s.Name, p.Name, err)
			}
		}
		if p.MaxLen < 0 || p.MaxLen > MaxStringLen {
			return fmt.Errorf("tool %s: parameter %s: max_len must be 0..%d", s.Name, p.Name, MaxStringLen)
		}
	}
	if err := s.Hints.Validate(s.Params); err != nil {
		return fmt.Errorf("tool %s: %w", s.Name, err)
	}
	return nil
}

// itemType reports a type an array parameter's items may have.
func (t ParamType) itemType() bool {
	switch t {
	case TypeString, TypeNumber, TypeInteger, TypeBoolean:
		return true
	}
	return false
}

func (t ParamType) known() bool {
	switch t {
	case TypeNumber, TypeInteger, TypeString, TypeEnum, TypeDateTime, TypeDate, TypePlace, TypeExpression, TypeBoolean, TypeJSON:
		return true
	}
	return false
}

// Result is what a tool returns: text for people and models, and
// structured data for `--json` and the store.
type Result struct {
	Text string `json:"text"`
	Data any    `json:"data,omitempty"`
}

// Tool is a runnable tool. Run gets a call already parsed against Spec; a
// failure the caller could fix (unknown place, division by zero) is an
// *InputError, anything else (network down) a plain error. Both carry a
// message a person can act on.
type Tool interface {
	Spec() Spec
	Run(ctx context.Context, call Call) (Result, error)
}
