package grounding

import "github.com/gear-chat/gear/tools"

// ArgumentFit is how well a query fills one tool's parameters, each read
// by its type as the prober reads arguments (a number for an integer, one
// of the values for an enum, a date for a date), counting on when one is
// missing. Parameters of types the prober reads no value of are not
// counted.
type ArgumentFit struct {
	// Required are the tool's required parameters counted; Filled those
	// the query fills.
	Required, Filled int
	// Typed and TypedFilled are the same for the required parameters
	// whose value has a shape (a number, a date, a time, a place): a free
	// string can be made of almost any words of a query, a number or a
	// date cannot. Enums and EnumsFilled count the required enums apart:
	// a query may name a value in other words ("comic" for "Comedy").
	Typed, TypedFilled int
	Enums, EnumsFilled int
	// OptionalFilled are the optional parameters the query fills.
	OptionalFilled int
	// Values are the query's own values (numbers, dates, times, quoted
	// texts); Used those the tool's parameters took.
	Values, Used int
}

// scoredByArguments reports whether grounding scores spec's tool by its
// call's arguments instead of an answer: a tool without a mock of its own
// that may change something is never run to score it (probe.go).
func scoredByArguments(spec tools.Spec) bool {
	return spec.Mock == "" && spec.Effect != "" && !spec.Effect.ReadOnly()
}

// Score is the pattern score of a tool scored by its arguments: the share
// of the tool's shaped required parameters (numbers, dates, times,
// places) the query fills, 1 when it has none.
//
// GEAR's P compares the pattern of the tool's answer with the preliminary
// answer's; a tool that is never run has no answer, and its arguments'
// pattern against â says little about it (a tool with a required array
// could never be called and scored 0 whatever the query). What the
// arguments can tell is whether the query holds the values the tool
// cannot work without: an integer with no number in the query, a date
// with no date. Free strings and enums are not counted — almost any words
// make a string, and a query may name an enum's value in other words
// ("comic" for "Comedy"); counting them, even at half weight, ranked
// worse on every dev set (BENCHMARKS.md). Nor are parameters of a type
// the prober reads nothing of (an array, an object, a boolean).
func (f ArgumentFit) Score() float64 {
	if f.Typed == 0 {
		return 1
	}
	return float64(f.TypedFilled) / float64(f.Typed)
}

// patternScore is ts's P and the γ that weighs it: the fit of its
// arguments with Options.GammaArguments for a tool scored by its
// arguments whose prober read the fit, GEAR's P with Options.Gamma
// otherwise.
func (g *Grounder) patternScore(prelim Counts, ts *ToolScore, spec tools.Spec) (p, gamma float64) {
	if fitted(ts, spec) {
		return ts.Reading.Fit.Score(), g.opts.GammaArguments
	}
	if ts.Status == StatusRun || ts.Status == StatusMock {
		ps := g.opts.Patterns
		// A response that answers a free text the engine doubts is worth
		// as much as the reading of that text (doubtedText).
		p := ps.Score(prelim, ps.EncodeAs(bounded(ts.Response, maxScoredBytes), spec.OutputPattern), g.opts.Lambda)
		return p * doubtedText(*ts, spec), g.opts.Gamma
	}
	return 0, g.opts.Gamma
}

// fitted reports whether ts is scored by its arguments' fit: spec's tool
// is never run, and the prober read the fit.
func fitted(ts *ToolScore, spec tools.Spec) bool {
	return scoredByArguments(spec) && ts.Reading != nil && ts.Reading.Fit != nil &&
		(ts.Status == StatusMock || ts.Status == StatusNoCall)
}

// reach is the highest f a tool with semantic score s could reach whatever
// its call: GEAR's P at most bound (PatternSet.Bound against â), and, for
// a tool scored by its arguments, an argument fit of at most 1.
func (g *Grounder) reach(s, bound float64, spec tools.Spec) float64 {
	f := g.opts.Gamma*s + (1-g.opts.Gamma)*bound
	if scoredByArguments(spec) {
		f = max(f, g.opts.GammaArguments*s+(1-g.opts.GammaArguments))
	}
	return f
}
