package tools

// The JSON form, for backends that decode JSON under a schema:
//
//	{"tool": "TimezoneConverter", "args": {"datetime": "2022-01-02 22:00:00", "from_place": "Asia/Shanghai", "to_place": "America/New_York"}}
//
// Keys come in this order and arguments in parameter order (what schema-
// guided decoders emit), so the ToolDec machine can check it as it is
// written. Strings are JSON strings; an expression is a JSON string
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
	for idx, param := range spec.Params {
		if p.peek() == '}' {
			break
		}
		if idx > 0 {
			if err := p.expect(',', `"," or "}"`); err != nil {
				return Call{}, err
			}
		}
		if err := p.key(param.Name); err != nil {
			return Call{}, err
		}
		v, err := p.value(param, true)
		if err != nil {
			return Call{}, err
		}
		call.Args = append(call.Args, Arg{Name: param.Name, Value: v})
		p.space()
	}
	if len(call.Args) < spec.RequiredParams() && p.peek() == '}' {
		return Call{}, p.missingArg(spec, len(call.Args))
	}
	if p.peek() == ',' && len(call.Args) == len(spec.Params) {
		return Call{}, p.tooManyArgs(spec)
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
