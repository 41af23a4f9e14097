package catalog

import (
	"context"
	"math/rand/v2"
	"testing"
)

// ProbeLibrary is the probe library's text, for the external tests.
const ProbeLibrary = probeLibrary

// LoadCachedAnySize is LoadCached caching files of any size (the tests'
// libraries are small).
func LoadCachedAnySize(ctx context.Context, path string, cache Cache) (*Library, error) {
	return loadCached(ctx, path, cache, 0)
}

// Every cut and many corruptions of a record are errors or a library,
// never a panic or a huge allocation.
func TestDecodeLibraryDamaged(t *testing.T) {
	t.Parallel()
	lib, err := parse([]byte(probeLibrary), "probe.json")
	if err != nil {
		t.Fatal(err)
	}
	data, err := encodeLibrary(lib)
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := decodeLibrary(data[:n], "p"); err == nil {
			t.Errorf("the first %d of %d bytes decoded", n, len(data))
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		bad := append([]byte(nil), data...)
		for range 1 + rng.IntN(4) {
			bad[rng.IntN(len(bad))] = byte(rng.IntN(256))
		}
		_, _ = decodeLibrary(bad, "p")
	}
}

func FuzzDecodeLibrary(f *testing.F) {
	lib, err := parse([]byte(probeLibrary), "probe.json")
	if err != nil {
		f.Fatal(err)
	}
	data, err := encodeLibrary(lib)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("GLIB\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = decodeLibrary(data, "p")
	})
}

// The reader's version is stable for one build.
func TestReaderVersion(t *testing.T) {
	t.Parallel()
	if a, b := readerVersion(), readerVersion(); a != b || a == "" {
		t.Errorf("readerVersion %q then %q", a, b)
	}
}
