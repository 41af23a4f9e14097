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

// LibraryScorer builds a Library for a set of tools.
type LibraryScorer interface {
	IndexTools(specs []tools.Spec) LibraryScores
}

// LibraryScores scores a query against the indexed tools.
type LibraryScores interface {
	// Relevance returns one score per tool, in the order of the specs
	// indexed, in [0, 1]: how well the tool explains the query, compared
	// with what the library's other tools share with it.
	Relevance(query string) []float64
}
