package offline

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
)

// The library index: how well each tool of the library at hand explains a
// query, by the words they share weighted by how rare each word is in that
// library. The encoder's vector (encoder.go) must not depend on the
// library — the cache keeps it per text — so it has no inverse document
// frequency, and among hundreds of tools that describe themselves in the
// same words ("get", "data", "information", "search") its cosine cannot
// tell them apart. The index is built once per library and answers a query
// through postings, never a pass over tools × vocabulary.
//
// Each tool has two kinds of documents:
//
//   - its card: the words of its name (camelCase, snake_case and dotted
//     names split), its description, and its parameters' names,
//     descriptions and enum values;
//   - each usage example's query, a document of its own.
//
// Terms are Porter stems of content words (stop words and question words
// dropped, as the encoder drops them), and the character trigrams of each
// word of four letters or more at a small weight (cardGramWeight), so that
// an inflection the stemmer misses or a typo still meets its word. A term's
// weight in a document is (1 + log tf)·idf, with idf = ln(1 + (N − df +
// 0.5)/(df + 0.5)) over the library's N tools (df counts tools, card and
// examples together); a query's term weighs its idf. Scores are cosines,
// so a long description is not favoured over a short one.
//
// Relevance combines the card and the examples (see relevance): the card
// says what the tool does in the tool author's words; an example says how a
// user asks for it, in the words users use, which the card often lacks
// ("Can you find me a cheap flight to Rome?" against "Search and compare
// airfares").
type LibraryIndex struct {
	n int
	// ids numbers the library's terms; idf, card, ex and all are by id.
	ids   map[string]int32
	idf   []float64
	card  [][]posting // term -> tools whose card has it
	cardN []float64   // tool -> its card's vector norm
	ex    [][]posting // term -> examples (index into exTool)
	exN   []float64
	// all is each tool's examples as one document.
	all  [][]posting
	allN []float64
	// exTool is the tool of each example.
	exTool []int
}

type posting struct {
	doc int
	w   float64
}

// Weights of the index's fields and terms, chosen on the benchmark dev
// sets (BENCHMARKS.md, "Offline engine at scale").
const (
	// nameWeight: a word of the tool's name says what the tool is about
	// more surely than one word of a long description.
	nameWeight = 2.0
	// paramNameWeight and paramTextWeight: parameters say what the tool
	// needs, which a query names ("in Paris", "for 3 nights"), but less
	// surely than the description says what it does.
	paramNameWeight = 1.0
	paramTextWeight = 0.5
	// cardGramWeight is a word's trigrams' share, divided among them.
	cardGramWeight = 0.3
	// bigramWeight is two adjacent content words as one term ("search
	// engine", "real estate"): a phrase the query shares with a tool is
	// surer than its two words apart.
	bigramWeight = 0.5
)

// wordTerms are one word's index terms: its stem's and its trigrams'.
type wordTerms struct {
	stem, term string
	grams      []string
	// bigrams are the bigram terms of this word followed by another,
	// built once per pair while a library is indexed.
	bigrams map[*wordTerms]string
}

// bigram is the term of the phrase a then b.
func (a *wordTerms) bigram(b *wordTerms, memo termMemo) string {
	if memo == nil {
		return "b:" + a.stem + "_" + b.stem
	}
	if t, ok := a.bigrams[b]; ok {
		return t
	}
	if a.bigrams == nil {
		a.bigrams = map[*wordTerms]string{}
	}
	t := "b:" + a.stem + "_" + b.stem
	a.bigrams[b] = t
	return t
}

// termMemo keeps each word's terms while a library is indexed: its texts
// repeat their words, and stemming is the costly part.
type termMemo map[string]*wordTerms

func (m termMemo) of(w string) *wordTerms {
	if wt, ok := m[w]; ok {
		return wt
	}
	st := stem(w)
	wt := &wordTerms{stem: st, term: "w:" + st}
	if len(w) >= 4 {
		for _, g := range trigrams(w) {
			wt.grams = append(wt.grams, "g:"+g)
		}
	}
	if m != nil {
		m[w] = wt
	}
	return wt
}

// indexTerms adds a text's index terms with their raw weights to into;
// memo may be nil.
func (e *Engine) indexTerms(text string, weight float64, into map[string]float64, memo termMemo) {
	var prev *wordTerms
	for _, w := range splitWords(text) {
		if e.lex.stop[w] || isQuestionWord(w) || isNumeral(w) || len(w) < 2 {
			prev = nil
			continue
		}
		wt := memo.of(w)
		into[wt.term] += weight
		if prev != nil {
			into[prev.bigram(wt, memo)] += weight * bigramWeight
		}
		prev = wt
		for _, g := range wt.grams {
			into[g] += weight * cardGramWeight / float64(len(wt.grams))
		}
	}
}

// splitWords lower-cases a text and splits it into words: at every
// character that is not a letter or a digit, and inside a word at a
// lower-to-upper case change ("getWeatherForecast", "HTTPServer" ->
// "http server"); an apostrophe's clitic is dropped ("user's" -> "user").
func splitWords(text string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\'' || r == '’':
			// "user's": the clitic goes with the apostrophe.
			flush()
			for i+1 < len(rs) && unicode.IsLetter(rs[i+1]) {
				i++
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if len(cur) > 0 && unicode.IsUpper(r) {
				prev := cur[len(cur)-1]
				nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
				if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
					flush()
				}
			}
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// cardTerms are a tool's card's raw term weights.
func (e *Engine) cardTerms(s tools.Spec, memo termMemo) map[string]float64 {
	m := make(map[string]float64, termsHint(s))
	e.indexTerms(s.Name, nameWeight, m, memo)
	e.indexTerms(s.Description, 1, m, memo)
	for _, p := range s.Params {
		e.indexTerms(p.Name, paramNameWeight, m, memo)
		e.indexTerms(p.Description, paramTextWeight, m, memo)
		for _, v := range p.Enum {
			e.indexTerms(v, paramTextWeight, m, memo)
		}
	}
	return m
}

// termsHint guesses how many terms a tool's card has (a word's stem, a
// bigram and a few trigrams for every few bytes), so that its map is
// made the right size once instead of growing.
func termsHint(s tools.Spec) int {
	n := len(s.Name) + len(s.Description)
	for _, p := range s.Params {
		n += len(p.Name) + len(p.Description)
		for _, v := range p.Enum {
			n += len(v)
		}
	}
	return n / 2
}

// IndexLibrary builds the index of a library.
func (e *Engine) IndexLibrary(specs []tools.Spec) *LibraryIndex {
	ix := &LibraryIndex{n: len(specs), ids: map[string]int32{}}
	memo := termMemo{}
	cards := make([]map[string]float64, len(specs))
	var exs []map[string]float64
	alls := make([]map[string]float64, len(specs))
	df := make(map[string]int, 16*len(specs))
	for i, s := range specs {
		cards[i] = e.cardTerms(s, memo)
		alls[i] = map[string]float64{}
		for _, x := range s.Examples {
			m := make(map[string]float64, len(x.Query))
			e.indexTerms(x.Query, 1, m, memo)
			exs = append(exs, m)
			ix.exTool = append(ix.exTool, i)
			for t, w := range m {
				alls[i][t] += w
			}
		}
		// df counts the tools whose card or examples have the term.
		for t := range cards[i] {
			df[t]++
		}
		for t := range alls[i] {
			if _, inCard := cards[i][t]; !inCard {
				df[t]++
			}
		}
	}
	// Terms numbered in sorted order, so that postings and float sums
	// come out the same on every run.
	terms := make([]string, 0, len(df))
	for t := range df {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	n := float64(len(specs))
	ix.idf = make([]float64, len(terms))
	for id, t := range terms {
		ix.ids[t] = int32(id)
		d := float64(df[t])
		ix.idf[id] = math.Log(1 + (n-d+0.5)/(d+0.5))
	}
	place := func(docs []map[string]float64) ([][]posting, []float64) {
		// Each document's terms by number with their raw weights, looked
		// up once, then laid out in one array with each term's postings
		// together (counted first, so no list grows).
		type termWeight struct {
			id int32
			tf float64
		}
		size := 0
		for _, m := range docs {
			size += len(m)
		}
		flat := make([]termWeight, 0, size)
		ends := make([]int, len(docs))
		counts := make([]int, len(terms))
		for d, m := range docs {
			start := len(flat)
			for t, tf := range m {
				id := ix.ids[t]
				flat = append(flat, termWeight{id, tf})
				counts[id]++
			}
			slices.SortFunc(flat[start:], func(a, b termWeight) int { return int(a.id) - int(b.id) })
			ends[d] = len(flat)
		}
		backing := make([]posting, size)
		post := make([][]posting, len(terms))
		at := 0
		for id, c := range counts {
			if c > 0 {
				post[id] = backing[at : at : at+c]
				at += c
			}
		}
		norms := make([]float64, len(docs))
		start := 0
		for d := range docs {
			var ss float64
			for _, tw := range flat[start:ends[d]] {
				w := sublinear(tw.tf) * ix.idf[tw.id]
				post[tw.id] = append(post[tw.id], posting{d, w})
				ss += w * w
			}
			norms[d] = math.Sqrt(ss)
			start = ends[d]
		}
		return post, norms
	}
	ix.card, ix.cardN = place(cards)
	ix.ex, ix.exN = place(exs)
	ix.all, ix.allN = place(alls)
	return ix
}

// sublinear damps a term's count: 1 + log(tf) past one occurrence; a
// fractional weight (a trigram's share) stays as it is.
func sublinear(tf float64) float64 {
	if tf > 1 {
		return 1 + math.Log(tf)
	}
	return tf
}

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
