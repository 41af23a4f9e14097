package offline

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/catalog"
)

var _ grounding.LibraryIndexCodec = (*Engine)(nil)

// devLibrary is a benchmark dev set's library (testdata/benchmarks-dev).
func devLibrary(t testing.TB, set string) []tools.Spec {
	t.Helper()
	lib, err := catalog.Load("../../testdata/benchmarks-dev/" + set + "/library.json")
	if err != nil {
		t.Fatal(err)
	}
	specs := make([]tools.Spec, len(lib.Tools))
	for i, x := range lib.Tools {
		specs[i] = x.Spec()
	}
	return specs
}

// An index read back is the index built, field for field, on the three
// dev libraries (with and without usage examples) and the probe library,
// and it scores every query bit for bit the same.
func TestIndexEncodingRoundTrip(t *testing.T) {
	t.Parallel()
	e := New(Options{})
	libs := map[string][]tools.Spec{"probe": probeLibrary(), "empty": nil}
	for _, set := range []string{"metatool", "bfcl", "sealtools"} {
		libs[set] = devLibrary(t, set)
	}
	for name, specs := range libs {
		built := e.IndexTools(specs)
		data, ok := e.EncodeIndex(built)
		if !ok {
			t.Fatalf("%s: not encoded", name)
		}
		read, err := e.DecodeIndex(specs, data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(built.(libraryScores).ix, read.(libraryScores).ix) {
			t.Errorf("%s: the index read back differs from the one built", name)
		}
		if !reflect.DeepEqual(built, read) {
			t.Errorf("%s: the scores read back differ", name)
		}
		for _, q := range []string{"what's the weather in Paris tomorrow", "translate good morning into French", "find me a cheap flight"} {
			a, b := built.Relevance(q), read.Relevance(q)
			if !reflect.DeepEqual(a.Scores, b.Scores) || !reflect.DeepEqual(a.Explained, b.Explained) {
				t.Errorf("%s: %q scores differently from the store", name, q)
			}
			// Words is a function (the none model's evidence, read on
			// demand): compare what it tells of every tool.
			for i := range a.Scores {
				if a.Words(i) != b.Words(i) {
					t.Errorf("%s: %q: tool %d's word evidence differs from the store", name, q, i)
					break
				}
			}
		}
		// Another library of the same size is refused only by the
		// caller's key; a library of another size is refused here.
		if len(specs) > 1 {
			if _, err := e.DecodeIndex(specs[1:], data); err == nil {
				t.Errorf("%s: an index of %d tools was read as one of %d", name, len(specs), len(specs)-1)
			}
		}
	}
	// Scores of another engine are not this engine's to encode.
	if _, ok := New(Options{}).EncodeIndex(e.IndexTools(probeLibrary())); ok {
		t.Error("another engine's index was encoded")
	}
}

// Every cut and many corruptions of an encoded index are errors, never a
// panic or a huge allocation.
func TestIndexDecodingDamaged(t *testing.T) {
	t.Parallel()
	e := New(Options{})
	specs := probeLibrary()
	data := encodeIndex(e.IndexLibrary(specs))
	for n := range len(data) {
		if _, err := e.DecodeIndex(specs, data[:n]); err == nil {
			t.Errorf("the first %d of %d bytes decoded", n, len(data))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		bad := append([]byte(nil), data...)
		for range 1 + rng.IntN(4) {
			bad[rng.IntN(len(bad))] = byte(rng.IntN(256))
		}
		_, _ = e.DecodeIndex(specs, bad) // must not panic
	}
}

func FuzzDecodeIndex(f *testing.F) {
	e := New(Options{})
	specs := probeLibrary()
	f.Add(encodeIndex(e.IndexLibrary(specs)))
	f.Add([]byte("GLIX"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := e.DecodeIndex(specs, data)
		if err == nil {
			s.Relevance("weather in Oslo tomorrow") // a decoded index scores without panicking
		}
	})
}

// The index version is stable for one build and names the format.
func TestIndexVersion(t *testing.T) {
	t.Parallel()
	a, b := New(Options{}).IndexVersion(), New(Options{}).IndexVersion()
	if a != b || a == "" {
		t.Errorf("IndexVersion %q then %q, want one non-empty version", a, b)
	}
	if typeShape(reflect.TypeOf(LibraryIndex{})) == typeShape(reflect.TypeOf(posting{})) {
		t.Error("typeShape does not tell two shapes apart")
	}
}
