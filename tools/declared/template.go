package declared

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// A template is text with holes, in a small explicit syntax:
//
//	{name}    the argument of parameter name (its text: a number in its
//	          canonical spelling, a string as it is)
//	${NAME}   the environment variable NAME (only where secrets belong:
//	          headers, query values and a command's environment)
//	{{ }}     a literal { or }
//
// Anything else between braces is an error when the file loads, so a typo
// never reaches a request.
type template struct {
	parts []part
	// src is the template as written, for messages.
	src string
}

type part struct {
	lit   string
	param string
	env   string
}

var (
	paramRefPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)
	envRefPattern   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// parseTemplate reads src; allowEnv says whether ${NAME} may appear.
func parseTemplate(src string, allowEnv bool) (template, error) {
	t := template{src: src}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.parts = append(t.parts, part{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '{' && i+1 < len(src) && src[i+1] == '{':
			lit.WriteByte('{')
			i++
		case c == '}' && i+1 < len(src) && src[i+1] == '}':
			lit.WriteByte('}')
			i++
		case c == '}':
			return t, fmt.Errorf("%q has a } that closes nothing; write }} for a literal }", src)
		case c == '$' && i+1 < len(src) && src[i+1] == '{':
			end := strings.IndexByte(src[i+2:], '}')
			if end < 0 {
				return t, fmt.Errorf("%q has a ${ that is never closed", src)
			}
			name := src[i+2 : i+2+end]
			if !envRefPattern.MatchString(name) {
				return t, fmt.Errorf("%q: ${%s} is not an environment variable's name (letters, digits, _)", src, name)
			}
			if !allowEnv {
				return t, fmt.Errorf("%q names the environment variable %s here; secrets go only in headers, query values and a command's env", src, name)
			}
			flush()
			t.parts = append(t.parts, part{env: name})
			i += 2 + end
		case c == '{':
			end := strings.IndexByte(src[i+1:], '}')
			if end < 0 {
				return t, fmt.Errorf("%q has a { that is never closed; write {{ for a literal {", src)
			}
			name := src[i+1 : i+1+end]
			if !paramRefPattern.MatchString(name) {
				return t, fmt.Errorf("%q: {%s} is not a parameter's name; write {{ and }} for literal braces", src, name)
			}
			flush()
			t.parts = append(t.parts, part{param: name})
			i += 1 + end
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return t, nil
}

// params lists the parameters the template names.
func (t template) params() []string {
	var out []string
	for _, p := range t.parts {
		if p.param != "" {
			out = append(out, p.param)
		}
	}
	return out
}

// envs lists the environment variables the template names.
func (t template) envs() []string {
	var out []string
	for _, p := range t.parts {
		if p.env != "" {
			out = append(out, p.env)
		}
	}
	return out
}

// whole returns the parameter when the template is exactly "{name}".
func (t template) whole() (string, bool) {
	if len(t.parts) == 1 && t.parts[0].param != "" {
		return t.parts[0].param, true
	}
	return "", false
}

// check reports the first parameter the template names that spec does not
// have.
func (t template) check(spec tools.Spec) error {
	for _, name := range t.params() {
		if _, ok := spec.Param(name); !ok {
			return fmt.Errorf("%q names {%s}, which is not a parameter of the tool (%s)", t.src, name, paramList(spec))
		}
	}
	return nil
}

func paramList(spec tools.Spec) string {
	if len(spec.Params) == 0 {
		return "it has none"
	}
	names := make([]string, len(spec.Params))
	for i, p := range spec.Params {
		names[i] = p.Name
	}
	return "its parameters: " + strings.Join(names, ", ")
}

// expansion is what a template is filled with.
type expansion struct {
	call   tools.Call
	getenv func(string) string
	// escape is applied to each argument's text (URL path escaping).
	escape func(string) string
	// secrets collects the environment values used, so errors can be
	// scrubbed of them.
	secrets *[]string
}

// missingEnvError is an environment variable a template needs but that is
// not set; it names the variable, never a value.
type missingEnvError struct{ name, where string }

func (e *missingEnvError) Error() string {
	return fmt.Sprintf("%s needs the environment variable %s, which is not set; export it before running gear", e.where, e.name)
}

// fill expands the template. present is false when the template names an
// optional parameter the call left out: the caller drops the whole item
// (a query parameter, a header, an argv element).
func (t template) fill(x expansion, where string) (text string, present bool, err error) {
	var b strings.Builder
	for _, p := range t.parts {
		switch {
		case p.param != "":
			v, ok := x.call.Arg(p.param)
			if !ok {
				return "", false, nil
			}
			s := v.Text()
			if x.escape != nil {
				s = x.escape(s)
			}
			b.WriteString(s)
		case p.env != "":
			v := x.getenv(p.env)
			if v == "" {
				return "", false, &missingEnvError{name: p.env, where: where}
			}
			if x.secrets != nil {
				*x.secrets = append(*x.secrets, v)
			}
			b.WriteString(v)
		default:
			b.WriteString(p.lit)
		}
	}
	return b.String(), true, nil
}

// redact replaces every secret in s with [redacted]: an error from a
// server or the network may quote a header or URL back.
func redact(s string, secrets []string) string {
	for _, v := range secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, "[redacted]")
		}
	}
	return s
}
