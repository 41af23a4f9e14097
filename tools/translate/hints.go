package translate

import (
	"embed"
	"strings"
	"sync"

	"github.com/gear-chat/gear/tools"
)

// hintFiles are Translate's word lists (hints/*.txt), which an offline
// grounding engine reads through Spec().Hints.
//
//go:embed hints/*.txt
var hintFiles embed.FS

// hints are read once. Besides the word lists, every language's name
// after "into" is a cue ("into Japanese"; alone, or after "in", it is
// none: "Thai food", "answer in English"), and the
// language parameters write a name the query says as its code.
var hints = sync.OnceValue(func() tools.Hints {
	cues := tools.EmbeddedList(hintFiles, "translation-cues")
	words := tools.EmbeddedList(hintFiles, "translation-words")
	for _, l := range languages {
		name := strings.ToLower(l.Name)
		cues = append(cues, "into "+name)
	}
	canonical := nameSpellings()
	return tools.Hints{
		Aliases: tools.EmbeddedList(hintFiles, "translate-aliases"),
		Subjects: []tools.Subject{{
			Name:   "translation",
			Words:  words,
			Cues:   cues,
			Asking: tools.EmbeddedList(hintFiles, "translation-asking"),
		}},
		Params: map[string]tools.ParamHint{
			"target_language": {Role: tools.RoleTo, Canonical: canonical},
			"source_language": {Role: tools.RoleFrom, Canonical: canonical},
		},
	}
})
