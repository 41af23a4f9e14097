package declared

import (
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
)

// The keys of grounding: are the YAML names of tools.Hints' fields, read
// from the type itself, so a field the tools package adds is a key here
// too — the same data the built-in tools carry.
var (
	hintKeys      = yamlKeys(reflect.TypeFor[tools.Hints]())
	subjectKeys   = yamlKeys(reflect.TypeFor[tools.Subject]())
	paramHintKeys = yamlKeys(reflect.TypeFor[tools.ParamHint]())
)

// yamlKeys lists the YAML keys of a struct type's fields.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}

// parseHints reads grounding: into tools.Hints. Unknown keys are refused
// (a typo would otherwise quietly teach grounding nothing); words are
// lower-cased, as the engine reads them.
func parseHints(ps *problems, n *yaml.Node, spec tools.Spec) tools.Hints {
	var h tools.Hints
	f, ok := readFields(ps, n, "grounding", hintKeys...)
	if !ok {
		return h
	}
	h.Aliases = wordList(ps, f.values["aliases"], "grounding.aliases")
	// A field the tools package adds later is decoded as it is.
	hv := reflect.ValueOf(&h).Elem()
	for i := 0; i < hv.NumField(); i++ {
		key, _, _ := strings.Cut(hv.Type().Field(i).Tag.Get("yaml"), ",")
		if val, ok := f.values[key]; ok && key != "aliases" && key != "subjects" && key != "params" {
			if err := val.Decode(hv.Field(i).Addr().Interface()); err != nil {
				ps.at(val, "grounding.%s: %v", key, err)
			}
		}
	}
	if subs, ok := f.values["subjects"]; ok {
		if subs.Kind != yaml.SequenceNode {
			ps.at(subs, "grounding.subjects must be a list of subjects (name, answer, words, …)")
		} else {
			for _, sn := range subs.Content {
				sf, ok := readFields(ps, sn, "a grounding subject", subjectKeys...)
				if !ok {
					continue
				}
				var s tools.Subject
				if !decodeLists(ps, sn, sf, &s) {
					continue
				}
				s.Name = strings.ToLower(strings.TrimSpace(s.Name))
				if s.Name == "" {
					ps.at(sn, "a grounding subject needs a name: (a word naming the subject, e.g. translation)")
					continue
				}
				if s.Answer != "" && !s.Answer.Known() {
					ps.at(sf.values["answer"], "answer %q: want number, time, date, weather, fact or place", s.Answer)
					continue
				}
				h.Subjects = append(h.Subjects, s)
			}
		}
	}
	if params, ok := f.values["params"]; ok {
		if params.Kind != yaml.MappingNode {
			ps.at(params, "grounding.params must map parameter names to {role, here}")
		} else {
			h.Params = map[string]tools.ParamHint{}
			for i := 0; i+1 < len(params.Content); i += 2 {
				k, v := params.Content[i], params.Content[i+1]
				if _, ok := spec.Param(k.Value); !ok {
					ps.at(k, "grounding.params names %q, which is not a parameter of the tool (%s)", k.Value, paramList(spec))
					continue
				}
				pf, ok := readFields(ps, v, "grounding.params."+k.Value, paramHintKeys...)
				if !ok {
					continue
				}
				role, _ := pf.str(ps, "role")
				var ph tools.ParamHint
				switch tools.ParamRole(role) {
				case "", tools.RoleFrom, tools.RoleTo:
					ph.Role = tools.ParamRole(role)
				default:
					ps.at(pf.values["role"], "role %q: want from or to", role)
					continue
				}
				if here, ok := pf.values["here"]; ok {
					if err := here.Decode(&ph.Here); err != nil || here.ShortTag() != "!!bool" {
						ps.at(here, "here must be true or false")
						continue
					}
				}
				if fns, ok := pf.values["functions"]; ok {
					// An expression language's functions for the operations
					// an engine reads in words (tools.ParamHint.Functions);
					// Validate checks the operations and names.
					if err := fns.Decode(&ph.Functions); err != nil || fns.Kind != yaml.MappingNode {
						ps.at(fns, "functions must map operations (range_sum, range_product, date, days_between, sin, cos, tan) to function names")
						continue
					}
				}
				h.Params[k.Value] = ph
			}
		}
	}
	return h
}

// wordList reads a list of words or phrases, lower-cased and sanitised.
func wordList(ps *problems, n *yaml.Node, what string) []string {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		ps.at(n, "%s must be a list of words or phrases", what)
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, w := range n.Content {
		if w.Kind != yaml.ScalarNode {
			ps.at(w, "%s: each entry is a word or a phrase, not %s", what, describeNode(w))
			continue
		}
		word := strings.Join(strings.Fields(strings.ToLower(sanitize.Line(w.Value))), " ")
		if word == "" || seen[word] {
			continue
		}
		seen[word] = true
		out = append(out, word)
	}
	return out
}

// decodeLists decodes a subject's mapping into s, every list of words or
// phrases lower-cased and sanitised as the engine reads them.
func decodeLists(ps *problems, n *yaml.Node, f fields, s *tools.Subject) bool {
	v := reflect.ValueOf(s).Elem()
	t := v.Type()
	ok := true
	for i := 0; i < t.NumField(); i++ {
		key, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		val, given := f.values[key]
		if !given {
			continue
		}
		switch field := v.Field(i); field.Kind() {
		case reflect.Slice:
			field.Set(reflect.ValueOf(wordList(ps, val, key)))
		case reflect.String:
			if val.Kind != yaml.ScalarNode {
				ps.at(val, "%s must be a text, not %s", key, describeNode(val))
				ok = false
				continue
			}
			field.SetString(val.Value)
		default:
			if err := val.Decode(field.Addr().Interface()); err != nil {
				ps.at(val, "%s: %v", key, err)
				ok = false
			}
		}
	}
	return ok && len(ps.list) == 0
}
