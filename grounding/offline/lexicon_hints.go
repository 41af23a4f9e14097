package offline

// Reading the tools' hints safely: the bounds on a subject, the cleaning
// that makes one safe to read, and the digest that keys vectors by the
// hints they were built from (lexicon.go builds the lexicon from them).

import (
	"encoding/json"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// hintsDigest is a short digest of the hints' subjects, in order: two
// libraries with the same subjects give the same vectors.
func hintsDigest(specs []tools.Spec) string {
	h := fnv.New64a()
	for _, spec := range specs {
		for _, sub := range spec.Hints.Subjects {
			b, _ := json.Marshal(sub) // plain data: never fails
			h.Write(b)
			h.Write([]byte{0})
		}
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// Bounds on what one subject of a tool's hints may hold: hints come from
// files people write and servers gear does not control, and the lexicon
// is built on every library change.
const (
	maxHintEntries    = 5000
	maxHintEntryBytes = tools.MaxHintEntryLen
)

// cleanSubject makes a subject of a tool's hints safe to read: entries
// lower case with single spaces, no empty or overlong ones, no "|" (the
// phrase separator), at most maxHintEntries per list, an answer shape the
// engine knows or none. A subject with no name is dropped.
func cleanSubject(s tools.Subject) (tools.Subject, bool) {
	s.Name = strings.ToLower(strings.Join(strings.Fields(s.Name), " "))
	if s.Name == "" || len(s.Name) > maxHintEntryBytes {
		return s, false
	}
	if !s.Answer.Known() {
		s.Answer = ""
	}
	clean := func(list []string) []string {
		var out []string
		for _, e := range list {
			e = strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(e, "|", " ")), " "))
			if e == "" || e == "=" || len(e) > maxHintEntryBytes {
				continue
			}
			if out = append(out, e); len(out) == maxHintEntries {
				break
			}
		}
		return out
	}
	for _, list := range []*[]string{&s.Words, &s.Cues, &s.Openers, &s.Asking, &s.Idioms, &s.Things, &s.Modifiers,
		&s.Readings, &s.Conditions, &s.States, &s.Gradable, &s.Spellings,
		&s.Names, &s.Differences, &s.Offsets, &s.Reaching, &s.Timing, &s.Counts, &s.Outdoors, &s.SourceCues, &s.TargetCues} {
		*list = clean(*list)
	}
	if len(s.Example) > maxHintEntryBytes {
		s.Example = ""
	}
	return s, true
}
