package offline

import "testing"

// Hooks for the fitting test of the word senses' weights
// (rank_fit_test.go, wordsenses_test.go).

// SenseWeights are the word senses' weights TestFitRankWeights varies.
type SenseWeights struct{ Near, Broad float64 }

// SenseTable is the table of word senses at GEAR_WORDNET_SENSES.
type SenseTable = senseTable

// LoadSenses reads the table at GEAR_WORDNET_SENSES, nil when unset.
func LoadSenses(t testing.TB) *SenseTable { return loadSenses(t) }

// RelevanceWith is Relevance with the word senses at weights w.
func (e *Engine) RelevanceWith(ix *LibraryIndex, query string, st *SenseTable, w SenseWeights) Relevance {
	return e.relevance(ix, query, st.reach(w.Near, w.Broad))
}

// Combined is tool i's relevance before the bend.
func (r Relevance) Combined(i int, examples bool) float64 { return r.combined(i, examples) }
