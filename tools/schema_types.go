package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Reading one property's schema into the most exact parameter type the call
// syntax has for it (schema.go reads the document and resolves references).

// param reads one property's schema.
func (r *schemaReader) param(name string, n *jsonNode, path string) (Param, error) {
	n, path, err := r.resolve(n, path)
	if err != nil {
		return Param{}, err
	}
	if n.kind == jsonBool {
		if !n.bool {
			return Param{}, schemaErrorf(path, "the schema false allows no value at all; drop the property")
		}
		return Param{Name: name, Type: TypeJSON, Schema: json.RawMessage("true")}, nil
	}
	if n.kind != jsonObject {
		return Param{}, schemaErrorf(path, "want a schema object, found %s", n.kind)
	}
	p := Param{Name: name}
	if d, ok := n.get("description"); ok && d.kind == jsonString {
		p.Description = d.str
	} else if d, ok := n.get("title"); ok && d.kind == jsonString {
		p.Description = d.str
	}
	if d, ok := n.get("default"); ok {
		p.Default = d.raw()
	}
	if branch, bpath, ok := nullableBranch(n, path); ok {
		// anyOf [X, {"type": "null"}] (what Pydantic writes for an
		// Optional field) is read as X, as a type list with "null" is:
		// leave the argument out instead of writing null.
		q, err := r.param(name, branch, bpath)
		if err != nil {
			return Param{}, err
		}
		if q.Description == "" {
			q.Description = p.Description
		}
		if q.Default == nil {
			q.Default = p.Default
		}
		return q, nil
	}
	typ, err := schemaType(n, path)
	if err != nil {
		return Param{}, err
	}
	if g, ok := n.get(GearTypeKeyword); ok {
		return gearTyped(p, g, typ, path)
	}
	enum, hasEnum := n.get("enum")
	if c, ok := n.get("const"); ok {
		enum, hasEnum = &jsonNode{kind: jsonArray, values: []*jsonNode{c}}, true
	}
	if hasEnum && stringsOnly(enum) && (typ == "" || typ == "string") {
		return stringEnum(p, enum)
	}
	if !hasEnum && !hasAny(n, "anyOf", "oneOf", "allOf", "not", "if") {
		switch typ {
		case "string":
			return stringParam(p, n, path)
		case "number":
			p.Type = TypeNumber
			return p, nil
		case "integer":
			p.Type = TypeInteger
			p.Min, p.Max = numberBounds(n)
			if lo, hi := p.IntegerRange(); p.Bounded() && lo > hi {
				return Param{}, schemaErrorf(path, "no integer lies between minimum and maximum (%d > %d); fix the bounds", lo, hi)
			}
			return p, nil
		case "boolean":
			p.Type = TypeBoolean
			return p, nil
		}
	}
	if typ == "" && !hasEnum && !hasAny(n, "anyOf", "oneOf", "allOf", "properties", "items") {
		return Param{}, schemaErrorf(path, `no "type": say what the value is (string, number, integer, boolean, null, array, object)`)
	}
	// Anything else — arrays, objects, null, enums of other values, unions
	// — is a JSON value checked against its own schema after decoding.
	inlined, err := r.inline(n, path, nil)
	if err != nil {
		return Param{}, err
	}
	p.Type, p.Schema = TypeJSON, inlined.raw()
	if typ == "array" && !hasEnum && !hasAny(n, "anyOf", "oneOf", "allOf", "not", "if", "prefixItems") {
		p.Items = arrayItems(inlined)
	}
	return p, nil
}

// arrayItems is the type of an array's items when they are plain
// strings, numbers, integers or booleans (their own bounds, formats and
// enums are the validator's); "" otherwise.
func arrayItems(array *jsonNode) ParamType {
	items, ok := array.get("items")
	if !ok || items.kind != jsonObject || hasAny(items, "anyOf", "oneOf", "allOf", "not", "if", "const", "enum") {
		return ""
	}
	t, ok := items.get("type")
	if !ok || t.kind != jsonString {
		return ""
	}
	if pt := ParamType(t.str); pt.itemType() {
		return pt
	}
	return ""
}

// nullableBranch finds X in a schema that is only anyOf (or oneOf)
// [X, {"type": "null"}], with annotations beside it.
func nullableBranch(n *jsonNode, path string) (*jsonNode, string, bool) {
	for i, k := range n.keys {
		switch k {
		case "anyOf", "oneOf":
		case "description", "title", "default", "examples", "$comment":
			continue
		default:
			return nil, "", false
		}
		alts := n.values[i]
		if alts.kind != jsonArray || len(alts.values) != 2 {
			return nil, "", false
		}
		for j, a := range alts.values {
			if t, ok := a.get("type"); ok && t.kind == jsonString && t.str == "null" && len(a.keys) == 1 {
				other := 1 - j
				return alts.values[other], fmt.Sprintf("%s/%s/%d", path, k, other), true
			}
		}
		return nil, "", false
	}
	return nil, "", false
}

// numberBounds reads minimum, maximum and their exclusive forms (draft 6+
// numbers, or draft 4's booleans beside minimum and maximum) as inclusive
// bounds of an integer.
func numberBounds(n *jsonNode) (lo, hi *float64) {
	num := func(key string) (float64, bool) {
		v, ok := n.get(key)
		if !ok || v.kind != jsonNumber {
			return 0, false
		}
		f, err := strconv.ParseFloat(v.str, 64)
		return f, err == nil && !math.IsInf(f, 0)
	}
	flag := func(key string) bool {
		v, ok := n.get(key)
		return ok && v.kind == jsonBool && v.bool
	}
	if f, ok := num("minimum"); ok {
		if flag("exclusiveMinimum") {
			f = math.Floor(f) + 1
		}
		lo = &f
	}
	if f, ok := num("exclusiveMinimum"); ok {
		f = math.Floor(f) + 1
		if lo == nil || f > *lo {
			lo = &f
		}
	}
	if f, ok := num("maximum"); ok {
		if flag("exclusiveMaximum") {
			f = math.Ceil(f) - 1
		}
		hi = &f
	}
	if f, ok := num("exclusiveMaximum"); ok {
		f = math.Ceil(f) - 1
		if hi == nil || f < *hi {
			hi = &f
		}
	}
	return lo, hi
}

func hasAny(n *jsonNode, keys ...string) bool {
	for _, k := range keys {
		if _, ok := n.get(k); ok {
			return true
		}
	}
	return false
}

// Bounds of an enum the machine reads as content patterns: a larger one
// (a list of every country, every model name) would make a large DFA, so it
// is a JSON parameter checked against its schema after decoding.
const (
	maxMachineEnumValues = 256
	maxMachineEnumBytes  = 3000
)

// stringsOnly reports an enum of strings each written between quotes as
// it is, small enough for the machine.
func stringsOnly(enum *jsonNode) bool {
	if enum.kind != jsonArray || len(enum.values) == 0 || len(enum.values) > maxMachineEnumValues {
		return false
	}
	total := 0
	for _, v := range enum.values {
		if v.kind != jsonString || !enumValuePattern().MatchString(v.str) {
			return false
		}
		total += len(v.str)
	}
	return total <= maxMachineEnumBytes
}

// schemaType reads "type": a name; a list of one name and "null" (a value
// that may also be null is read as the name's type: leave the argument out
// instead of writing null); or "union" for a list of several.
func schemaType(n *jsonNode, path string) (string, error) {
	t, ok := n.get("type")
	if !ok {
		return "", nil
	}
	switch t.kind {
	case jsonString:
		return t.str, nil
	case jsonArray:
		var names []string
		for _, v := range t.values {
			if v.kind != jsonString {
				return "", schemaErrorf(path+"/type", "want type names, found %s", v.kind)
			}
			if v.str != "null" {
				names = append(names, v.str)
			}
		}
		if len(names) == 1 {
			return names[0], nil
		}
		return "union", nil // several types: a JSON value
	}
	return "", schemaErrorf(path+"/type", "want a type name, found %s", t.kind)
}

// gearTyped reads a property naming one of gear's own types.
func gearTyped(p Param, g *jsonNode, typ, path string) (Param, error) {
	if g.kind != jsonString {
		return Param{}, schemaErrorf(path+"/"+GearTypeKeyword, "want a type name, found %s", g.kind)
	}
	switch ParamType(g.str) {
	case TypePlace, TypeDateTime, TypeDate, TypeExpression:
		p.Type = ParamType(g.str)
	default:
		return Param{}, schemaErrorf(path+"/"+GearTypeKeyword, "%q is not one of gear's types (place, datetime, date, expression)", g.str)
	}
	if typ != "" && typ != "string" {
		return Param{}, schemaErrorf(path+"/type", "a %s is written as a string: want \"string\", found %q", g.str, typ)
	}
	return p, nil
}

// stringEnum reads an enum (or const) of strings each written between
// quotes as it is (others make a JSON value).
func stringEnum(p Param, enum *jsonNode) (Param, error) {
	for _, v := range enum.values {
		if !slices.Contains(p.Enum, v.str) {
			p.Enum = append(p.Enum, v.str)
		}
	}
	p.Type = TypeEnum
	return p, nil
}

// The content patterns of the string formats the machine reads exactly
// (RFC 3339's full-date and date-time, as JSON Schema defines them) or
// nearly (a URI: scheme, ":", then the characters a URI may hold; the
// validator checks the rest after decoding).
const (
	FormatDatePattern     = `[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])`
	FormatDateTimePattern = FormatDatePattern + `[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])`
	FormatURIPattern      = `[A-Za-z][A-Za-z0-9+.-]*:[!#$%&'()*+,\-./0-9:;=?@A-Z\[\]_a-z~]+`
)

// stringParam reads a string property: its length bound, and a content
// pattern from "format" or "pattern" when the machine can read it.
func stringParam(p Param, n *jsonNode, path string) (Param, error) {
	p.Type = TypeString
	p.MaxLen = MaxStringLen
	if v, ok := n.get("maxLength"); ok {
		max, err := strconv.Atoi(v.str)
		if v.kind != jsonNumber || err != nil || max < 0 {
			return Param{}, schemaErrorf(path+"/maxLength", "want a non-negative integer")
		}
		if max == 0 {
			return Param{}, schemaErrorf(path+"/maxLength", "0 allows only the empty string, which a call cannot pass; drop the property or raise maxLength")
		}
		p.MaxLen = min(max, MaxStringLen)
	}
	if f, ok := n.get("format"); ok && f.kind == jsonString {
		switch f.str {
		case "date":
			p.Pattern, p.Format = FormatDatePattern, f.str
		case "date-time":
			p.Pattern, p.Format = FormatDateTimePattern, f.str
		case "uri":
			p.Pattern, p.Format = FormatURIPattern, f.str
		}
	}
	if v, ok := n.get("pattern"); ok && p.Pattern == "" {
		if v.kind != jsonString {
			return Param{}, schemaErrorf(path+"/pattern", "want a regular expression, found %s", v.kind)
		}
		if content, ok := machinePattern(v.str); ok {
			p.Pattern = content
		}
	}
	if p.Pattern != "" {
		p.MaxLen = 0 // the pattern bounds the content
	}
	return p, nil
}

// Bounds of a schema's pattern the machine compiles into a DFA: beyond
// them (or with constructs a DFA cannot read: anchors inside, word
// boundaries) the string is read as a free string and the pattern checked
// after decoding.
const (
	maxPatternNodes  = 200
	maxPatternRepeat = 64
)

// machinePattern turns a JSON Schema pattern (unanchored: it matches
// anywhere in the string) into a content pattern the machine can read
// exactly: only a pattern anchored at both ends, ^...$, whose body RE2
// parses into plain regular constructs of modest size.
func machinePattern(pattern string) (string, bool) {
	if !strings.HasPrefix(pattern, "^") || !strings.HasSuffix(pattern, "$") || strings.HasSuffix(pattern, `\$`) || len(pattern) < 3 {
		return "", false
	}
	body := pattern[1 : len(pattern)-1]
	if !utf8.ValidString(body) {
		return "", false
	}
	re, err := syntax.Parse(body, syntax.Perl)
	if err != nil {
		return "", false
	}
	nodes := 0
	var plain func(re *syntax.Regexp) bool
	plain = func(re *syntax.Regexp) bool {
		nodes++
		if nodes > maxPatternNodes {
			return false
		}
		switch re.Op {
		case syntax.OpLiteral, syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpEmptyMatch:
			return true
		case syntax.OpRepeat:
			if re.Max > maxPatternRepeat || re.Min > maxPatternRepeat {
				return false
			}
		case syntax.OpCapture, syntax.OpConcat, syntax.OpAlternate, syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		default:
			return false
		}
		for _, sub := range re.Sub {
			if !plain(sub) {
				return false
			}
		}
		return true
	}
	if !plain(re) {
		return "", false
	}
	return body, true
}
