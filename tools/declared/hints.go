package declared

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
)

// The keys of grounding: — a declared tool's grounding knowledge, the
// same data the built-in tools carry (tools.Hints).
var (
	hintKeys    = []string{"aliases", "subjects", "params"}
	subjectKeys = []string{"name", "answer", "words", "asking", "idioms", "things", "readings",
		"conditions", "states", "gradable", "spellings"}
	paramHintKeys = []string{"role", "here"}
)

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
	if subs, ok := f.values["subjects"]; ok {
		if subs.Kind != yaml.SequenceNode {
			ps.at(subs, "grounding.subjects must be a list of subjects (name, answer, words, …)")
		} else {
			for _, sn := range subs.Content {
				sf, ok := readFields(ps, sn, "a grounding subject", subjectKeys...)
				if !ok {
					continue
				}
				name, _ := sf.str(ps, "name")
				answer, _ := sf.str(ps, "answer")
				s := tools.Subject{
					Name:       strings.ToLower(strings.TrimSpace(name)),
					Answer:     tools.Answer(answer),
					Words:      wordList(ps, sf.values["words"], "words"),
					Asking:     wordList(ps, sf.values["asking"], "asking"),
					Idioms:     wordList(ps, sf.values["idioms"], "idioms"),
					Things:     wordList(ps, sf.values["things"], "things"),
					Readings:   wordList(ps, sf.values["readings"], "readings"),
					Conditions: wordList(ps, sf.values["conditions"], "conditions"),
					States:     wordList(ps, sf.values["states"], "states"),
					Gradable:   wordList(ps, sf.values["gradable"], "gradable"),
					Spellings:  wordList(ps, sf.values["spellings"], "spellings"),
				}
				if s.Name == "" {
					ps.at(sn, "a grounding subject needs a name: (a word naming the subject, e.g. translation)")
					continue
				}
				if s.Answer != "" && !s.Answer.Known() {
					ps.at(sf.values["answer"], "answer %q: want number, time, date, weather, fact or place", answer)
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
