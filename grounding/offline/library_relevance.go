package offline

import (
	"math"
	"sort"
	"strings"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
)

// The library index at query time: a query's scores against every tool of
// the index (Relevance: the card's cosine, the examples', the share of the
// query the tool explains), and the engine as a grounding.LibraryScorer
// that weighs them into one relevance per tool. The index itself and how
// it is built are in library_index.go.

// Relevance is a query's scores against every tool of the index, in the
// library's order: Card the cosine with the tool's card, Example the best
// cosine with one of its usage examples, and Covered the share of the
// query's word weight (idf², words only, trigrams aside) that the tool's
// card or examples contain — how much of the query the tool explains.
type Relevance struct {
	Card, Example, Covered []float64
	// Examples is the cosine with all the tool's examples as one document.
	Examples []float64
}

// aboutText is the part of a query that says what it asks for: without
// its paths and URLs, which are values for a tool's arguments ("read the
// file /tmp/TestServer/notes.txt"), not words of what the tool does. A
// quoted string stays: it is a value too, but often one in the tool's
// subject ("translate \"good morning\" into French"), and leaving quoted
// strings out cost Seal-Tools two queries in 200. A query that is nothing
// else is kept whole.
func aboutText(query string) string {
	fields := strings.Fields(query)
	kept := fields[:0]
	for _, f := range fields {
		if strings.Contains(f, "://") || strings.Count(f, "/") >= 2 || strings.Contains(f, "\\") {
			continue
		}
		kept = append(kept, f)
	}
	if len(kept) == 0 {
		return query
	}
	return strings.Join(kept, " ")
}

// Relevance scores query against the library.
func (e *Engine) Relevance(ix *LibraryIndex, query string) Relevance {
	return e.relevance(ix, query, nil)
}

// reachedTerm is a library term the query does not have, reached from its
// words by a query expansion, with its weight in the query before idf.
type reachedTerm struct {
	id int32
	w  float64
}

// relevance is Relevance with a query expansion: reach, given the
// query's terms and raw weights, returns library terms the query does not
// have (sorted by id, so float sums come out the same on every run). They
// count in the cosines of the tools that share a word with the query
// already, and neither in the query's norm nor in Covered. The engine
// ships none (reach is nil): word senses from WordNet were measured this
// way and left out (BENCHMARKS.md, "Ranking with word senses";
// wordsenses_test.go).
func (e *Engine) relevance(ix *LibraryIndex, query string, reach func(ix *LibraryIndex, q map[string]float64) []reachedTerm) Relevance {
	q := map[string]float64{}
	e.indexTerms(aboutText(truncate(query, MaxQueryBytes)), 1, q, nil)
	r := Relevance{Card: make([]float64, ix.n), Example: make([]float64, ix.n), Covered: make([]float64, ix.n), Examples: make([]float64, ix.n)}
	keys := make([]string, 0, len(q))
	for t := range q {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	var qss, wordMass float64
	unknownIDF := math.Log(1 + (float64(ix.n)+0.5)/0.5)
	exScore := make([]float64, len(ix.exTool))
	covered := make([]float64, ix.n)
	// hitBy[tool] is the last word term (its number, from 1) that counted
	// the tool as covering it: a word is covered once per tool however
	// many of its documents have it.
	hitBy := make([]int, ix.n)
	wordNo := 0
	for _, t := range keys {
		// A word no tool has counts in the query's length at the
		// highest idf: the query asks for something the library does not
		// mention.
		id, known := ix.ids[t]
		idf := unknownIDF
		if known {
			idf = ix.idf[id]
		}
		w := sublinear(q[t]) * idf
		qss += w * w
		isWord := strings.HasPrefix(t, "w:")
		if isWord {
			wordMass += idf * idf
		}
		if !known {
			continue
		}
		if isWord {
			wordNo++
		}
		for _, p := range ix.card[id] {
			r.Card[p.doc] += w * p.w
			if isWord && hitBy[p.doc] != wordNo {
				hitBy[p.doc] = wordNo
				covered[p.doc] += idf * idf
			}
		}
		for _, p := range ix.all[id] {
			r.Examples[p.doc] += w * p.w
		}
		for _, p := range ix.ex[id] {
			exScore[p.doc] += w * p.w
			if tool := ix.exTool[p.doc]; isWord && hitBy[tool] != wordNo {
				hitBy[tool] = wordNo
				covered[tool] += idf * idf
			}
		}
	}
	var reached []reachedTerm
	if reach != nil {
		reached = reach(ix, q)
	}
	for _, x := range reached {
		w := x.w * ix.idf[x.id]
		for _, p := range ix.card[x.id] {
			if hitBy[p.doc] > 0 {
				r.Card[p.doc] += w * p.w
			}
		}
		for _, p := range ix.all[x.id] {
			if hitBy[p.doc] > 0 {
				r.Examples[p.doc] += w * p.w
			}
		}
		for _, p := range ix.ex[x.id] {
			if hitBy[ix.exTool[p.doc]] > 0 {
				exScore[p.doc] += w * p.w
			}
		}
	}
	qn := math.Sqrt(qss)
	if qn == 0 {
		return r
	}
	for i := range r.Card {
		if ix.cardN[i] > 0 {
			r.Card[i] /= qn * ix.cardN[i]
		}
		if ix.allN[i] > 0 {
			r.Examples[i] /= qn * ix.allN[i]
		}
		if wordMass > 0 {
			r.Covered[i] = covered[i] / wordMass
		}
	}
	for d, s := range exScore {
		if ix.exN[d] > 0 {
			s /= qn * ix.exN[d]
		}
		if t := ix.exTool[d]; s > r.Example[t] {
			r.Example[t] = s
		}
	}
	return r
}

// Weights of a tool's three scores in its relevance (see
// libraryScores.Relevance), measured on the benchmark dev sets
// (BENCHMARKS.md, "Offline engine at scale"): the card alone, and the
// examples alone, each miss what the other has.
const (
	relevanceCard = 1.0
	// relevanceExample is the best single example: one phrasing close to
	// the query. Measured at 0.5 and 1 beside the examples' document, it
	// adds nothing (MetaTool 0.609 and lower against 0.618 without it):
	// the document already holds that example's words.
	relevanceExample = 0.0
	// relevanceExamples is all the examples as one document: the words
	// users use for the tool, whichever example has them.
	relevanceExamples = 1.0
	// relevancePower bends the relevance (a cosine of sparse vectors,
	// rarely above 0.5 even for the right tool) onto the scale of the
	// encoder's cosine that grounding's none score was fitted on: S =
	// relevance^power. It is monotone, so it orders the tools as the
	// relevance does; it sets where "none" begins (BENCHMARKS.md).
	relevancePower = 0.33
)

// IndexTools is the engine as a grounding.LibraryScorer: it indexes specs.
func (e *Engine) IndexTools(specs []tools.Spec) grounding.LibraryScores {
	return e.scoresOf(specs, e.IndexLibrary(specs))
}

// scoresOf are the scores of specs through ix, their index (built, or
// read from the store).
func (e *Engine) scoresOf(specs []tools.Spec, ix *LibraryIndex) libraryScores {
	known := make([]bool, len(specs))
	examples := make([]bool, len(specs))
	for i, s := range specs {
		known[i] = len(s.Hints.Subjects) > 0
		examples[i] = len(s.Examples) > 0
	}
	return libraryScores{e: e, ix: ix, known: known, examples: examples}
}

type libraryScores struct {
	e  *Engine
	ix *LibraryIndex
	// known marks the tools whose subjects the encoder knows from their
	// hints: its cosine already weighs their words (the thesaurus, the
	// question forms), and its scale is the one grounding's calibration
	// was fitted on, so they keep it (relevance -1).
	known []bool
	// examples marks the tools with usage examples.
	examples []bool
}

// Relevance is each tool's weighted mean of its card's cosine and its
// examples' together as one document (the card alone for a tool without
// examples), bent by relevancePower.
func (l libraryScores) Relevance(query string) grounding.LibraryRelevance {
	r := l.e.Relevance(l.ix, query)
	out := make([]float64, len(r.Card))
	for i := range out {
		if l.known[i] {
			out[i] = -1
			continue
		}
		out[i] = math.Pow(math.Max(0, math.Min(r.combined(i, l.examples[i]), 1)), relevancePower)
	}
	qw := l.e.queryWords(l.ix, query)
	words := func(tool int) grounding.WordEvidence { return l.ix.wordEvidence(qw, tool) }
	return grounding.LibraryRelevance{Scores: out, Explained: r.Covered, Words: words}
}

// combined is tool i's relevance before the bend: the weighted mean of its
// card's cosine and its examples' (the card's alone when it has no
// examples).
func (r Relevance) combined(i int, examples bool) float64 {
	if !examples {
		return r.Card[i]
	}
	return (relevanceCard*r.Card[i] + relevanceExample*r.Example[i] + relevanceExamples*r.Examples[i]) /
		(relevanceCard + relevanceExample + relevanceExamples)
}
