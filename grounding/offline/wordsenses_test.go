package offline

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// Word senses from WordNet as a query expansion of the library index — an
// experiment, measured and left out of the engine (BENCHMARKS.md,
// "Ranking with word senses"); it lives here so that it can be measured
// again. The table is made by scripts/wordsenses (Princeton WordNet 3.0
// through internal/sensegen; nothing is shipped) and read from the path in
// GEAR_WORDNET_SENSES by TestFitRankWeights (rank_fit_test.go).
//
// A query word that no document of the library has — the query says
// "compute" where the tool says "calculates" — reaches the library's words
// that WordNet puts close to it (the same synset's words and
// derivationally related forms, in the word's frequent senses) at weight
// near, and a noun's direct hypernym's words at weight broad, each
// weighted by its idf like any query term, in the cosines of the tools
// that share a word with the query already (relevance in
// library_index.go). Expanding every word, not only those the library
// lacks, lost up to 3 points of top-1 on MetaTool; letting a reached word
// lift a tool that shares no word with the query cost a fifth of the
// blind library's abstentions.

// senseTable maps a word's stem to the stems of its close words and of
// its broader words, each without the stem itself.
type senseTable struct {
	near, broad map[string][]string
}

// parseSenses reads the gzipped table "word<TAB>close words<TAB>broader
// words" (# starts a comment line) and keys it by stems.
func parseSenses(gz []byte) (*senseTable, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	st := &senseTable{near: map[string][]string{}, broad: map[string][]string{}}
	stems := map[string]string{}
	stemOf := func(w string) string {
		s, ok := stems[w]
		if !ok {
			s = stem(w)
			stems[w] = s
		}
		return s
	}
	addAll := func(m map[string][]string, key, list string) {
		for _, w := range strings.Fields(list) {
			if s := stemOf(w); s != key && !slices.Contains(m[key], s) {
				m[key] = append(m[key], s)
			}
		}
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		key := stemOf(f[0])
		addAll(st.near, key, f[1])
		addAll(st.broad, key, f[2])
	}
	return st, sc.Err()
}

// reach is the expansion for relevance: the library terms the query's
// unknown words reach through their senses, at weights near and broad.
func (st *senseTable) reach(near, broad float64) func(ix *LibraryIndex, q map[string]float64) []reachedTerm {
	if near == 0 && broad == 0 {
		return nil
	}
	return func(ix *LibraryIndex, q map[string]float64) []reachedTerm {
		got := map[int32]float64{}
		add := func(src float64, stems []string, weight float64) {
			for _, s := range stems {
				t := "w:" + s
				if _, in := q[t]; in {
					continue
				}
				if id, ok := ix.ids[t]; ok {
					got[id] = max(got[id], weight*sublinear(src))
				}
			}
		}
		for t, src := range q {
			if _, known := ix.ids[t]; known || !strings.HasPrefix(t, "w:") {
				continue
			}
			add(src, st.near[t[len("w:"):]], near)
			add(src, st.broad[t[len("w:"):]], broad)
		}
		out := make([]reachedTerm, 0, len(got))
		for id, w := range got {
			out = append(out, reachedTerm{id, w})
		}
		slices.SortFunc(out, func(a, b reachedTerm) int { return int(a.id) - int(b.id) })
		return out
	}
}

// loadSenses reads the table at GEAR_WORDNET_SENSES, or returns nil when
// it is not set.
func loadSenses(t testing.TB) *senseTable {
	path := os.Getenv("GEAR_WORDNET_SENSES")
	if path == "" {
		return nil
	}
	gz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := parseSenses(gz)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return st
}

func gzipped(t *testing.T, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRelevanceExpansion checks the expansion's mechanics on a table of
// three lines: an unknown word reaches its senses' words in the tools that
// share a word with the query already, never a tool that shares none, a
// known word is not expanded, and the query's norm and Covered stay as
// they were.
func TestRelevanceExpansion(t *testing.T) {
	t.Parallel()
	st, err := parseSenses(gzipped(t, "# comment\ncompute\tcalculate reckon\t\nsedan\tsaloon\tcar\nmultiply\tbreed\t\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := st.near[stem("compute")]; !slices.Contains(got, stem("calculate")) {
		t.Fatalf("near[compute] = %v, want calcul among them", got)
	}
	if _, err := parseSenses([]byte("not gzip")); err == nil {
		t.Error("a damaged table read without an error")
	}
	e := New(Options{})
	specs := []tools.Spec{
		{Name: "product", Description: "Calculates the product of two numbers."},
		{Name: "clock", Description: "Calculates the current local time."},
		{Name: "rental", Description: "Finds rental cars available in a city."},
		{Name: "flights", Description: "Finds flights between two cities."},
	}
	ix := e.IndexLibrary(specs)
	reach := st.reach(0.5, 0.25)
	for _, tc := range []struct {
		query     string
		raised    []int // tools whose card's cosine rises
		unchanged []int
	}{
		// "compute" is unknown and reaches "calculates", but "product" is
		// the only tool that shares a word (product) with the query.
		{"compute the product of 443 and 349", []int{0}, []int{1, 2, 3}},
		// "sedan" reaches "car" (broader) in the tool that shares "rental".
		{"a rental sedan", []int{2}, []int{0, 1, 3}},
		// Nothing known: no tool is lifted from zero.
		{"compute", nil, []int{0, 1, 2, 3}},
		// "multiply" is unknown, but its sense's word is not in the library.
		{"multiply the product", nil, []int{0, 1, 2, 3}},
	} {
		plain := e.relevance(ix, tc.query, nil)
		expanded := e.relevance(ix, tc.query, reach)
		for _, i := range tc.raised {
			if !(expanded.Card[i] > plain.Card[i]) {
				t.Errorf("%q: %s's card %.3f, not above %.3f without senses", tc.query, specs[i].Name, expanded.Card[i], plain.Card[i])
			}
		}
		for _, i := range tc.unchanged {
			if expanded.Card[i] != plain.Card[i] {
				t.Errorf("%q: %s's card %.3f, want %.3f as without senses", tc.query, specs[i].Name, expanded.Card[i], plain.Card[i])
			}
		}
		if !slices.Equal(expanded.Covered, plain.Covered) {
			t.Errorf("%q: covered %v, want %v as without senses", tc.query, expanded.Covered, plain.Covered)
		}
	}
}
