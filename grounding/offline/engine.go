// Package offline is gear's built-in grounding engine: no network, no
// model, deterministic. It fills GEAR's two model roles with rules, and says
// so — its name is "offline" wherever grounding is shown.
//
// It names no tool. What it knows of a tool's subject comes from the
// tool's Spec: its name, description, examples and parameters, and its
// Hints (tools/hints.go) — the vocabularies of its subject with the shape
// of answer they ask for, idioms, senses, cue phrases, what its place
// parameters mean, and the words of the question grammar of its subject
// (the nouns that name its answer, "ahead", "call … now", "how many days
// until", "nice out", "the time in X" as a conversion's target:
// tools.Subject's Names, Differences, Offsets, Reaching, Timing, Counts,
// Outdoors, SourceCues, TargetCues; grammar.go) — which the built-in
// tools keep as word lists beside their code and a declared tool writes in
// its YAML. The rules of clock.go and weather.go read those lists by the
// shape of answer their subject asks for; they name no subject's words. Options.Tools (or
// ForLibrary) gives the engine its library. Places and zones are read only
// by tools/place, the resolver the tools use.
//
// A query is read in stages with typed results (analysis.go): tokens,
// spans (quantities, dates and times, places), frames (layout, arithmetic,
// request, world question: each its own stage, reading only the frames
// before it), the answer's shape, and the focus that the calls read.
//
//   - the encoder (enc of §3.1) is lexical: stems, word senses, the
//     subjects of the library's tools (lexicon.go), the form of the
//     question and the frame of the
//     request — a question, a request to be told about something, a quiz
//     clue, a search-box fragment, a request for an action — and character
//     trigrams, hashed into a vector (encoder.go, senses.go, frames.go,
//     reference.go, fragment.go, clock.go, weather.go, multilingual.go,
//     typo.go); a message of several sentences is read by its question,
//     with the rest as context (focus.go);
//   - the small model's calls (q_i = SLM(π_i + Q)) are extracted by rules
//     driven by each tool's typed parameters: an arithmetic expression from
//     numbers and operator words, fractions and percentages of amounts,
//     percentage changes, shapes, shares and unit conversions (arith.go,
//     lexemes.go, units.go, change.go, measure.go, wordproblem.go), places
//     from the gazetteer, UTC offsets and zone names and abbreviations,
//     date-times (spoken ones too, spoken.go) and dates of the shapes the
//     tools read, enum values named in the query, and for a string the
//     question's focus without the tool's own words (extract.go,
//     focal.go). A call is made
//     only when the query supplies every required argument — except that a
//     required place the query does not name is "here" (or Options.Home)
//     when the tool's hints say so and the query asks for what the tool
//     answers ("will it rain?") —
//     and a tool whose parameters are all optional, which could otherwise
//     be called on any query, only when the query asks for an answer of
//     its output pattern;
//   - the preliminary answer (â = SLM(Q)) is the shape of answer the
//     question asks for — a number for "how many", a clock time for "what
//     time", a weather reading for "will it rain" — written as a short
//     example of that shape, not an answer (answer.go).
package offline

import (
	"context"
	"sync"
	"unicode/utf8"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/place"
)

// PlaceFinder finds the places a text names; *place.Gazetteer is one,
// fast enough to run on every query.
type PlaceFinder interface {
	Scan(text string) []place.Mention
}

// Options configure the engine.
type Options struct {
	// Places finds place names; nil finds only UTC offsets and zone
	// abbreviations.
	Places PlaceFinder
	// Home is the place a call names for a required place the query does
	// not name (see the package doc); empty means "here".
	Home string
	// Tools are the library the engine grounds over: their hints
	// (tools.Hints) are its vocabulary of subjects. A tool not among them
	// is still grounded on its description, examples and parameters.
	Tools []tools.Spec
	// Evaluate computes an explicit arithmetic expression for the
	// preliminary answer (the calculator's evaluator); nil leaves the
	// answer a number-shaped placeholder.
	Evaluate func(expr string) (string, error)
}

// Engine is the offline engine. It is safe for concurrent use.
type Engine struct {
	lex      *lexicon
	places   PlaceFinder
	evaluate func(string) (string, error)
	home     string

	mu    sync.Mutex
	memo  map[string]*memoEntry
	order []string

	// toolWordCache holds each tool's own words (focal.go).
	toolWordCache sync.Map

	// The library index's version (library_index_cache.go).
	indexVersionMemo
}

type memoEntry struct {
	once sync.Once
	a    *analysis
}

// memoSize bounds the queries whose analysis is kept: grounding asks for
// one query's analysis n+1 times at once, never for old ones.
const memoSize = 64

// MaxQueryBytes bounds what the engine reads of a query: a question is
// short, and a pasted document must not make grounding slow. The rest is
// ignored (cut at a character boundary).
const MaxQueryBytes = 2000

// New makes the engine.
func New(opts Options) *Engine {
	home := opts.Home
	if home == "" {
		home = "here"
	}
	return &Engine{lex: newLexicon(opts.Tools), places: opts.Places, evaluate: opts.Evaluate, home: home, memo: map[string]*memoEntry{}}
}

// ForLibrary returns an engine like e over another library: its
// vocabulary is the new tools' hints. A library that changes (an MCP
// server's tools/list_changed, a declared tool's file) gets a new engine;
// e is unchanged and may still be in use.
func (e *Engine) ForLibrary(specs []tools.Spec) *Engine {
	return &Engine{lex: newLexicon(specs), places: e.places, evaluate: e.evaluate, home: e.home, memo: map[string]*memoEntry{}}
}

// Grounding returns the engine in grounding's terms: name "offline", the
// lexical encoder, and the rule-based prober. It has no yes/no model, so
// routing goes by the confidence threshold.
func (e *Engine) Grounding() grounding.Engine {
	return grounding.Engine{Name: grounding.EngineOffline, Model: e.Model(), Encoder: e, Prober: e, Library: e}
}

// analysisOf returns the query's analysis, computing it once however many
// tools ask at the same time.
func (e *Engine) analysisOf(query string) *analysis {
	e.mu.Lock()
	ent, ok := e.memo[query]
	if !ok {
		ent = &memoEntry{}
		e.memo[query] = ent
		e.order = append(e.order, query)
		if len(e.order) > memoSize {
			delete(e.memo, e.order[0])
			e.order = e.order[1:]
		}
	}
	e.mu.Unlock()
	ent.once.Do(func() { ent.a = e.analyze(truncate(query, MaxQueryBytes)) })
	return ent.a
}

// Preliminary returns the shape of answer the query asks for.
func (e *Engine) Preliminary(ctx context.Context, query string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return e.preliminary(e.analysisOf(query)), nil
}

// Call extracts a call of spec's tool from the query, or "" when the query
// does not supply its required arguments.
func (e *Engine) Call(ctx context.Context, spec tools.Spec, query string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return e.extract(e.analysisOf(query), spec), nil
}

// truncate cuts s to at most n bytes at a character boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
