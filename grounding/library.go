package grounding

import "github.com/gear-chat/gear/tools"

// A library scorer knows the whole library at once. An encoder's vector of
// a text cannot depend on the other texts (the cache keeps it per text), so
// its cosine weighs a word every tool uses ("get", "data", "information")
// like one only a single tool uses; among hundreds of tools that describe
// themselves in the same words that cosine cannot tell them apart. A
// LibraryScorer indexes the library (once per grounder) and scores a query
// against every tool with weights from the library at hand — the offline
// engine's is lexical (grounding/offline/library_index.go).

// LibraryScorer indexes a set of tools.
type LibraryScorer interface {
	IndexTools(specs []tools.Spec) LibraryScores
}

// LibraryScores scores a query against the indexed tools.
type LibraryScores interface {
	Relevance(query string) LibraryRelevance
}

// LibraryRelevance is one query's scores, one per tool in the order of the
// specs indexed.
type LibraryRelevance struct {
	// Scores are in [0, 1]: how well the tool explains the query, with
	// the library's own weights (a word every tool uses weighs little); a
	// negative score says the scorer has no better word than the
	// encoder's cosine for that tool, which S then keeps alone.
	Scores []float64
	// Explained is the share of the query's words (weighted by how rare
	// each is in the library) that the tool's texts contain, in [0, 1]; nil
	// when the scorer does not tell. It is a signal for calibration: a
	// query whose best tool explains little of it may need none.
	Explained []float64
	// Words tells how the query's words fall on a tool (by its index in
	// Scores), for the none model; nil when the scorer does not tell.
	Words func(tool int) WordEvidence
}
