package offline

import (
	"slices"

	"github.com/gear-chat/gear/tools"
)

// questionWords are the words of the subjects' question grammar, from the
// tools' hints (tools.Subject: Names, Differences, Offsets, Reaching,
// Timing, Counts, Outdoors, SourceCues, TargetCues), by the shape of answer their subject asks
// for. The rules of clock.go, weather.go and senses.go read them by shape;
// they name no subject's words themselves.
type questionWords struct {
	names, differences, offsets, reaching, timing, counts, outdoors map[tools.Answer]map[string]bool
	// nameStems are the stems of names: the encoder tells their senses.
	nameStems map[tools.Answer]map[string]bool
	// sourceCues and targetCues are every subject's phrases before a
	// conversion's source and target place, each with a trailing space
	// (placeRoles).
	sourceCues, targetCues []string
}

// newQuestionWords gathers the question words of the library's subjects.
func newQuestionWords(specs []tools.Spec) questionWords {
	q := questionWords{names: map[tools.Answer]map[string]bool{}, differences: map[tools.Answer]map[string]bool{},
		offsets: map[tools.Answer]map[string]bool{}, reaching: map[tools.Answer]map[string]bool{}, timing: map[tools.Answer]map[string]bool{},
		counts: map[tools.Answer]map[string]bool{}, outdoors: map[tools.Answer]map[string]bool{}, nameStems: map[tools.Answer]map[string]bool{}}
	for _, spec := range specs {
		for _, sub := range spec.Hints.Subjects {
			sub, ok := cleanSubject(sub)
			if !ok || sub.Answer == "" {
				continue
			}
			for _, list := range []struct {
				words []string
				sets  map[tools.Answer]map[string]bool
			}{{sub.Names, q.names}, {sub.Differences, q.differences}, {sub.Offsets, q.offsets}, {sub.Reaching, q.reaching},
				{sub.Timing, q.timing}, {sub.Counts, q.counts}, {sub.Outdoors, q.outdoors}} {
				for _, w := range list.words {
					if list.sets[sub.Answer] == nil {
						list.sets[sub.Answer] = map[string]bool{}
					}
					list.sets[sub.Answer][w] = true
				}
			}
			for _, w := range sub.Names {
				if q.nameStems[sub.Answer] == nil {
					q.nameStems[sub.Answer] = map[string]bool{}
				}
				q.nameStems[sub.Answer][stem(w)] = true
			}
			for _, c := range sub.SourceCues {
				if !slices.Contains(q.sourceCues, c+" ") {
					q.sourceCues = append(q.sourceCues, c+" ")
				}
			}
			for _, c := range sub.TargetCues {
				if !slices.Contains(q.targetCues, c+" ") {
					q.targetCues = append(q.targetCues, c+" ")
				}
			}
		}
	}
	return q
}

// namesAnswer reports whether w, or w without a plural "s", is one of the
// Names of a subject of the shape ("hours", "clocks").
func (q questionWords) namesAnswer(shape tools.Answer, w string) bool {
	if q.names[shape][w] {
		return true
	}
	n := len(w)
	return n > 1 && w[n-1] == 's' && q.names[shape][w[:n-1]]
}

// anyOf reports whether one of the tokens is in the set.
func anyOf(toks []token, set map[string]bool) bool {
	for _, t := range toks {
		if set[t.text] {
			return true
		}
	}
	return false
}
