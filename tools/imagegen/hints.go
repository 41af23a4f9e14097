package imagegen

import (
	"embed"
	"sync"

	"github.com/gear-chat/gear/tools"
)

// hintFiles are ImageGeneration's word lists (hints/*.txt), which an
// offline grounding engine reads through Spec().Hints.
//
//go:embed hints/*.txt
var hintFiles embed.FS

var hints = sync.OnceValue(func() tools.Hints {
	return tools.Hints{
		Aliases: tools.EmbeddedList(hintFiles, "image-aliases"),
		Subjects: []tools.Subject{{
			Name:  "imagery",
			Words: tools.EmbeddedList(hintFiles, "image-words"),
		}},
	}
})
