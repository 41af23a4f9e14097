package wiki

import (
	"embed"
	"sync"

	"github.com/gear-chat/gear/tools"
)

// hintFiles are WikiSearch's word lists (hints/*.txt), which an offline
// grounding engine reads through Spec().Hints.
//
//go:embed hints/*.txt
var hintFiles embed.FS

// hints are read once; they never change.
var hints = sync.OnceValue(func() tools.Hints {
	return tools.Hints{
		Aliases: tools.EmbeddedList(hintFiles, "wiki-aliases"),
		Subjects: []tools.Subject{{
			Name:      "reference",
			Answer:    tools.AnswerFact,
			Words:     tools.EmbeddedList(hintFiles, "reference-words"),
			Spellings: tools.EmbeddedList(hintFiles, "reference-spellings"),
		}},
	}
})
