package offline

import (
	"maps"
	"reflect"
	"slices"
	"testing"
)

// TestStages: each stage returns its own result and leaves the stages
// before it as they were.
func TestStages(t *testing.T) {
	e := testEngine()
	tests := []struct {
		query          string
		slipDays       []string
		datetimes      []string
		dates          []string
		places         []string
		operands       int
		expr           string
		foreignWeather bool
	}{
		{query: "will it rain in Oslo tomorow", slipDays: []string{"tomorrow"}, dates: []string{"tomorrow"}, places: []string{"Oslo"}},
		{query: "what is 5pm in Tokyo in Paris time", datetimes: []string{"5pm"}, places: []string{"Tokyo", "Paris"}},
		{query: "what is 48 multiplied by 4", operands: 2, expr: "48 * 4"},
		{query: "quel temps fait-il à Marseille demain", dates: []string{"tomorrow"}, places: []string{"Marseille"}, foreignWeather: true},
		{query: "convert 5 miles to km, then tell me about the history of the metre", operands: 1, expr: "5 * 1609.344 / 1000"},
	}
	for _, tt := range tests {
		tok := e.readTokens(tt.query)
		tokCopy := tokenStage{lx: tok.lx, query: tok.query, lower: tok.lower, toks: slices.Clone(tok.toks), words: slices.Clone(tok.words), slipDays: slices.Clone(tok.slipDays)}
		if !slices.Equal(tok.slipDays, tt.slipDays) {
			t.Errorf("%q: slip days %v, want %v", tt.query, tok.slipDays, tt.slipDays)
		}
		sp := e.readSpans(tok)
		var places []string
		for _, p := range sp.places {
			places = append(places, p.Name)
		}
		if !slices.Equal(sp.datetimes, tt.datetimes) || !slices.Equal(sp.dates, tt.dates) || !slices.Equal(places, tt.places) || len(sp.operands) != tt.operands {
			t.Errorf("%q: spans datetimes %v dates %v places %v operands %d; want %v %v %v %d",
				tt.query, sp.datetimes, sp.dates, places, len(sp.operands), tt.datetimes, tt.dates, tt.places, tt.operands)
		}
		spCopy := spanStage{numbers: slices.Clone(sp.numbers), spans: slices.Clone(sp.spans), operands: slices.Clone(sp.operands),
			datetimes: slices.Clone(sp.datetimes), dates: slices.Clone(sp.dates), places: slices.Clone(sp.places)}
		fr := e.readFrames(tok, sp)
		if fr.expr != tt.expr || fr.foreignWeather != tt.foreignWeather {
			t.Errorf("%q: frames expr %q foreign weather %v, want %q %v", tt.query, fr.expr, fr.foreignWeather, tt.expr, tt.foreignWeather)
		}
		if !reflect.DeepEqual(tok, tokCopy) || !reflect.DeepEqual(sp, spCopy) {
			t.Errorf("%q: a later stage changed an earlier one's result", tt.query)
		}
		// The frame stages, one by one: each gives what readFrames gives,
		// and none changes the frames before it.
		layout := readLayout(tok)
		layoutCopy := layoutFrame{sents: slices.Clone(layout.sents), clauses: slices.Clone(layout.clauses), idiom: maps.Clone(layout.idiom),
			foreignWeather: layout.foreignWeather, foreignClock: layout.foreignClock}
		arith := readArithmetic(tok, sp, layout)
		arithCopy := arithmeticFrame{expr: arith.expr, explicit: arith.explicit, measures: maps.Clone(arith.measures), how: arith.how, opExpr: arith.opExpr, opHow: arith.opHow}
		request := readRequest(tok, sp, layout, arith)
		world := e.readWorld(tok, sp, layout, arith, request)
		if !reflect.DeepEqual(layout, layoutCopy) || !reflect.DeepEqual(arith, arithCopy) {
			t.Errorf("%q: a later frame stage changed an earlier one's result", tt.query)
		}
		if !reflect.DeepEqual(frameStage{layout, arith, request, world}, fr) {
			t.Errorf("%q: the frame stages one by one differ from readFrames", tt.query)
		}
	}
}
