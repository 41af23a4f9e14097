package tools

// The JSON form, for backends that decode JSON under a schema:
//
//	{"tool": "TimezoneConverter", "args": {"datetime": "2022-01-02 22:00:00", "from_place": "Asia/Shanghai", "to_place": "America/New_York"}}
//
// Keys come in this order and arguments in parameter order (what schema-
// guided decoders emit; optional arguments may be left out anywhere), so
// the ToolDec machine can check it as it is written. Strings are JSON strings; an expression is a JSON string
// holding the expression on one line.

func (p *parser) jsonCall() (Call, error) {
	p.i++ // {
	if err := p.key("tool"); err != nil {
		return Call{}, err
	}
	if err := p.expect('"', `a quoted tool name`); err != nil {
		return Call{}, err
	}
	nameEnd := p.i
	for nameEnd < len(p.s) && p.s[nameEnd] != '"' {
		nameEnd++
	}
	spec, err := p.toolName(nameEnd)
	if err != nil {
		return Call{}, err
	}
	if err := p.expect('"', `the end of the tool name`); err != nil {
		return Call{}, err
	}
	p.space()
	if err := p.expect(',', `","`); err != nil {
		return Call{}, err
	}
	if err := p.key("args"); err != nil {
		return Call{}, err
	}
	if err := p.expect('{', `"{"`); err != nil {
		return Call{}, err
	}
	call := Call{Tool: spec.Name}
	p.space()
	next := 0 // the lowest parameter index the next key may name
	for p.peek() != '}' {
		if len(call.Args) > 0 {
			if err := p.expect(',', `"," or "}"`); err != nil {
				return Call{}, err
			}
			if next >= len(spec.Params) {
				return Call{}, p.tooManyArgs(spec)
			}
			p.space()
		}
		idx, err := p.argKey(spec, next)
		if err != nil {
			return Call{}, err
		}
		param := spec.Params[idx]
		v, err := p.value(param, true)
		if err != nil {
			return Call{}, err
		}
		call.Args = append(call.Args, Arg{Name: param.Name, Value: v})
		call.Named = call.Named || idx != next
		next = idx + 1
		p.space()
	}
	if next < spec.RequiredParams() {
		return Call{}, p.missingArg(spec, next)
	}
	if err := p.expect('}', `"}"`); err != nil {
		return Call{}, err
	}
	p.space()
	if err := p.expect('}', `"}"`); err != nil {
		return Call{}, err
	}
	p.space()
	if p.i < len(p.s) {
		return Call{}, p.fail(p.i, "unexpected text after the call: %s", p.found())
	}
	return call, nil
}

// argKey reads an argument's key, "name", then white space, ":" and white
// space; keys follow the parameter order and may skip only optional
// parameters (keywordIndex).
func (p *parser) argKey(spec Spec, next int) (int, error) {
	start := p.i
	if p.peek() != '"' {
		return 0, p.fail(p.i, "expected a quoted parameter name, found %s", p.found())
	}
	j := p.i + 1
	if j < len(p.s) && IsParamNameStart(p.s[j]) {
		for j++; j < len(p.s) && IsParamNameByte(p.s[j]); j++ {
		}
	}
	if j == p.i+1 || j >= len(p.s) || p.s[j] != '"' {
		return 0, p.fail(start, "expected a quoted parameter name, found %s", describeToken(p.s, start))
	}
	name := p.s[p.i+1 : j]
	idx, err := p.keywordIndex(spec, name, next)
	if err != nil {
		return 0, err
	}
	p.i = j + 1
	p.space()
	if err := p.expect(':', `":"`); err != nil {
		return 0, err
	}
	p.space()
	return idx, nil
}

// key reads white space, the quoted key, white space, ":" and white space.
func (p *parser) key(name string) error {
	p.space()
	lit := `"` + name + `"`
	if len(p.s)-p.i < len(lit) || p.s[p.i:p.i+len(lit)] != lit {
		return p.fail(p.i, "expected %s, found %s", lit, p.found())
	}
	p.i += len(lit)
	p.space()
	if err := p.expect(':', `":"`); err != nil {
		return err
	}
	p.space()
	return nil
}
