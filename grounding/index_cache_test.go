package grounding_test

import (
	"context"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/store"
)

// countingEncoder counts the texts it is asked to encode.
type countingEncoder struct {
	grounding.Encoder
	texts atomic.Int64
}

func (c *countingEncoder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.texts.Add(int64(len(texts)))
	return c.Encoder.Embed(ctx, texts)
}

// With CacheLibrary, a large library's vectors are one record of the
// store: the second grounder (another process) reads them instead of
// encoding the library, and scores exactly as the first. A record that
// does not fit the library is recomputed, with a warning.
func TestLibraryIndexInStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "gear.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := bigLibrary(t, 300)
	off := offline.New(offline.Options{Tools: reg.Specs()})
	build := func() (*grounding.Grounder, *countingEncoder) {
		enc := &countingEncoder{Encoder: off}
		eng := off.Grounding()
		eng.Encoder = enc
		opts := grounding.DefaultOptions()
		opts.Cache, opts.CacheLibrary = st, true
		g, err := grounding.New(reg, eng, opts)
		if err != nil {
			t.Fatal(err)
		}
		return g, enc
	}
	first, enc1 := build()
	if err := first.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if enc1.texts.Load() != 300 {
		t.Errorf("first grounder encoded %d texts, want the library's 300", enc1.texts.Load())
	}
	second, enc2 := build()
	if err := second.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if enc2.texts.Load() != 0 {
		t.Errorf("second grounder encoded %d texts, want none (the index is in the store)", enc2.texts.Load())
	}
	const q = "look up record 417 of the archive about whales"
	a, err := first.Ground(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	b, err := second.Ground(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if enc2.texts.Load() != 1 || len(b.Warnings) != 0 {
		t.Errorf("the query cost %d encodings, warnings %q", enc2.texts.Load(), b.Warnings)
	}
	for i := range a.Tools {
		if a.Tools[i].S != b.Tools[i].S || a.Tools[i].F != b.Tools[i].F {
			t.Fatalf("%s: S %v / %v from the store", a.Tools[i].Tool, a.Tools[i].S, b.Tools[i].S)
		}
	}
	if !reflect.DeepEqual(a.Choice, b.Choice) {
		t.Errorf("choice %+v, from the store %+v", a.Choice, b.Choice)
	}

	// A smaller library is not indexed whole: its texts are cached one
	// by one as before.
	small := bigLibrary(t, 20)
	opts := grounding.DefaultOptions()
	opts.Cache, opts.CacheLibrary = st, true
	enc := &countingEncoder{Encoder: off}
	eng := off.Grounding()
	eng.Encoder = enc
	g, err := grounding.New(small, eng, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if enc.texts.Load() == 0 {
		t.Error("a small library was not encoded")
	}
}
