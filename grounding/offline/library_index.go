package offline

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

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
