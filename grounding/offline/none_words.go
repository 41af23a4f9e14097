package offline

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/gear-chat/gear/grounding"
)

// Word evidence for the none model (grounding/none_model.go): how a
// query's words fall on one tool of the library — the share of its words
// the tool has, every word alike; the share (by idf²) no tool has — and
// whether the query's rarest word is among those it
// lacks. A near miss explains the query's common words and leaves its
// specific one ("add a new sql server" among other servers' tools: every
// tool has "server", none "sql").

// queryWords are a query's word terms (no bigrams, no trigrams) with their
// ids in the index (-1 when no tool has the word) and their idf.
type queryWords struct {
	ids []int32
	idf []float64
	// legible is the share of the query's words the engine can read:
	// those written in Latin letters (its stemmer and lexicon are
	// English; a word in another script meets no tool's word but by
	// sharing it verbatim).
	legible float64
}

func (e *Engine) queryWords(ix *LibraryIndex, query string) queryWords {
	q := map[string]float64{}
	e.indexTerms(aboutText(truncate(query, MaxQueryBytes)), 1, q, nil)
	keys := make([]string, 0, len(q))
	for t := range q {
		if strings.HasPrefix(t, "w:") {
			keys = append(keys, t)
		}
	}
	sort.Strings(keys)
	unknownIDF := math.Log(1 + (float64(ix.n)+0.5)/0.5)
	var qw queryWords
	read, all := 0, 0
	for _, w := range splitWords(aboutText(truncate(query, MaxQueryBytes))) {
		if !hasLetter(w) {
			continue
		}
		all++
		if latin(w) {
			read++
		}
	}
	qw.legible = 1
	if all > 0 {
		qw.legible = float64(read) / float64(all)
	}
	for _, t := range keys {
		id, known := ix.ids[t]
		if !known {
			qw.ids, qw.idf = append(qw.ids, -1), append(qw.idf, unknownIDF)
			continue
		}
		qw.ids, qw.idf = append(qw.ids, id), append(qw.idf, ix.idf[id])
	}
	return qw
}

// has reports whether tool's card or examples hold the term id.
func (ix *LibraryIndex) has(id int32, tool int) bool {
	for _, post := range [][]posting{ix.card[id], ix.all[id]} {
		// Postings are in document order (IndexLibrary places them so).
		i := sort.Search(len(post), func(k int) bool { return post[k].doc >= tool })
		if i < len(post) && post[i].doc == tool {
			return true
		}
	}
	return false
}

// wordEvidence is how the query's words fall on tool.
func (ix *LibraryIndex) wordEvidence(qw queryWords, tool int) grounding.WordEvidence {
	ev := grounding.WordEvidence{Legible: qw.legible}
	var mass, top, missingTop float64
	has := 0
	for k, id := range qw.ids {
		w := qw.idf[k] * qw.idf[k]
		mass += w
		top = math.Max(top, qw.idf[k])
		switch {
		case id < 0:
			ev.Unknown += w
		case ix.has(id, tool):
			has++
			continue
		}
		missingTop = math.Max(missingTop, qw.idf[k])
	}
	if mass > 0 {
		ev.Unknown /= mass
	}
	if len(qw.ids) > 0 {
		ev.Plain = float64(has) / float64(len(qw.ids))
	}
	if top > 0 {
		ev.MissingTop = missingTop / top
	}
	return ev
}

func hasLetter(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// latin reports whether every letter of w is a Latin one.
func latin(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) {
			return false
		}
	}
	return true
}
