package calc

import (
	"embed"
	"sync"

	"github.com/gear-chat/gear/tools"
)

// hintFiles are the calculator's word lists (hints/*.txt), which an
// offline grounding engine reads through Spec().Hints.
//
//go:embed hints/*.txt
var hintFiles embed.FS

// hints are read once; they never change.
var hints = sync.OnceValue(func() tools.Hints {
	return tools.Hints{
		Aliases: tools.EmbeddedList(hintFiles, "calc-aliases"),
		Subjects: []tools.Subject{{
			Name:    "arithmetic",
			Answer:  tools.AnswerNumber,
			Example: "12",
			Words:   tools.EmbeddedList(hintFiles, "arithmetic-words"),
		}},
		// The functions of series.go, for an engine that reads "the sum
		// of 1 through 100", "days between march 3 and july 19" or "90
		// days after march 3 2025".
		Params: map[string]tools.ParamHint{"expression": {Functions: map[tools.Operation]string{
			tools.OpRangeSum: "sum_range", tools.OpRangeProduct: "product_range",
			tools.OpDate: "date", tools.OpDaysBetween: "days_between", tools.OpCalendarDate: "iso_date",
			tools.OpSin: "sin", tools.OpCos: "cos", tools.OpTan: "tan",
		}}},
	}
})
