package grounding

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"strconv"

	"github.com/gear-chat/gear/tools"
)

// The library's index as one record of the embedding cache
// (Options.CacheLibrary). A local encoder's vectors (the offline one's) are
// computed in about a second for Seal-Tools' 4,076 descriptions; one
// record a text would be 4,076 reads, and the encoder's dense 4,096 floats
// a text 65 MB in the store. One record, keyed by a digest of every text
// and holding the unit vectors sparse, is one read of a few MB.

// LibraryIndexMinTexts is the library size (descriptions and usage
// examples) from which CacheLibrary is worth a record: below it encoding is
// as fast as reading.
const LibraryIndexMinTexts = 256

// LibraryTexts counts the texts of a library grounding embeds: each
// tool's description and the queries of its usage examples.
func LibraryTexts(specs []tools.Spec) int {
	n := 0
	for _, s := range specs {
		n++
		for _, e := range s.Examples {
			if e.Query != "" {
				n++
			}
		}
	}
	return n
}

// indexMagic opens a packed index ("GIX1"), so a record of another kind
// under the same key is never misread.
const indexMagic = 0x47495831

// indexKey is the cache's model and text for this library's index: the
// encoder's model, and a digest of the library's texts in order.
func (g *Grounder) indexKey() (model, key string) {
	h := sha256.New()
	for _, t := range g.texts.texts {
		h.Write([]byte(strconv.Itoa(len(t))))
		h.Write([]byte{0})
		h.Write([]byte(t))
	}
	return g.engine.Model + "|library-index", "library-index:" + hex.EncodeToString(h.Sum(nil))
}

// loadIndex reads the library's vectors from the cache; ok is false when
// the cache has no usable record.
func (g *Grounder) loadIndex(ctx context.Context) (vecs []vector, ok bool, warning string) {
	model, key := g.indexKey()
	got, err := g.opts.Cache.CachedEmbeddings(ctx, model, []string{key})
	if err != nil {
		return nil, false, "embedding cache: " + err.Error()
	}
	if len(got) != 1 || len(got[0]) == 0 {
		return nil, false, ""
	}
	vecs, err = unpackIndex(got[0], len(g.texts.texts))
	if err != nil {
		return nil, false, "embedding cache: the library's index is unreadable (" + err.Error() + "); computed again"
	}
	return vecs, true, ""
}

// storeIndex writes the library's vectors to the cache as one record.
func (g *Grounder) storeIndex(ctx context.Context, vecs []vector) string {
	model, key := g.indexKey()
	if err := g.opts.Cache.PutEmbeddings(ctx, model, []string{key}, [][]float32{packIndex(vecs)}); err != nil {
		return "embedding cache: " + err.Error()
	}
	return ""
}

// packIndex lays the vectors out as float32 words, integers by their bits:
// magic, count, then per vector its length and either nnz, the indexes and
// the values (sparse) or -1 and the values (dense). The store keeps a
// vector's bits exactly.
func packIndex(vecs []vector) []float32 {
	word := func(u uint32) float32 { return math.Float32frombits(u) }
	out := []float32{word(indexMagic), word(uint32(len(vecs)))}
	for _, v := range vecs {
		out = append(out, word(uint32(v.n)))
		if v.dense != nil {
			out = append(out, word(math.MaxUint32))
			out = append(out, v.dense...)
			continue
		}
		out = append(out, word(uint32(len(v.idx))))
		for _, i := range v.idx {
			out = append(out, word(i))
		}
		out = append(out, v.val...)
	}
	return out
}

var errIndexShape = errors.New("wrong shape")

// unpackIndex reads packIndex's layout back, checking every length.
func unpackIndex(w []float32, want int) ([]vector, error) {
	at := 0
	next := func() (uint32, bool) {
		if at >= len(w) {
			return 0, false
		}
		at++
		return math.Float32bits(w[at-1]), true
	}
	magic, ok1 := next()
	count, ok2 := next()
	if !ok1 || !ok2 || magic != indexMagic || int(count) != want {
		return nil, errIndexShape
	}
	vecs := make([]vector, count)
	for k := range vecs {
		n, ok1 := next()
		nnz, ok2 := next()
		if !ok1 || !ok2 {
			return nil, errIndexShape
		}
		if nnz == math.MaxUint32 {
			if at+int(n) > len(w) {
				return nil, errIndexShape
			}
			vecs[k] = vector{dense: w[at : at+int(n) : at+int(n)], n: int(n)}
			at += int(n)
			continue
		}
		if nnz > n || at+2*int(nnz) > len(w) {
			return nil, errIndexShape
		}
		v := vector{idx: make([]uint32, nnz), n: int(n)}
		prev := -1
		for i := range v.idx {
			v.idx[i] = math.Float32bits(w[at+i])
			if int(v.idx[i]) <= prev || v.idx[i] >= n {
				return nil, errIndexShape
			}
			prev = int(v.idx[i])
		}
		at += int(nnz)
		v.val = w[at : at+int(nnz) : at+int(nnz)]
		at += int(nnz)
		vecs[k] = v
	}
	if at != len(w) {
		return nil, errIndexShape
	}
	return vecs, nil
}

// wholeIndex reports whether the library's vectors are cached as one
// record (Options.CacheLibrary, a cache, and a library large enough).
func (g *Grounder) wholeIndex() bool {
	return g.opts.CacheLibrary && g.opts.Cache != nil && len(g.texts.texts) >= LibraryIndexMinTexts
}

// indexVectors is libraryVectors through the one-record index: read it, or
// encode the library (no per-text cache) and write it; extra texts are
// encoded alongside.
func (g *Grounder) indexVectors(ctx context.Context, extra []string) (lib []vector, ex [][]float32, err error) {
	var warnings []string
	lib, ok, w := g.loadIndex(ctx)
	if w != "" {
		warnings = append(warnings, w)
	}
	if ok {
		if len(extra) > 0 {
			if ex, err = embedUnit(ctx, g.engine.Encoder, extra); err != nil {
				return nil, nil, err
			}
		}
	} else {
		var more []string
		lib, ex, more, err = vectorsOf(ctx, g.engine, nil, &g.mu, g.memo, g.texts.texts, extra)
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, more...)
		if w := g.storeIndex(ctx, lib); w != "" {
			warnings = append(warnings, w)
		}
	}
	g.mu.Lock()
	if g.vectors == nil {
		g.vectors, g.warnings = lib, warnings
	}
	lib = g.vectors
	g.mu.Unlock()
	return lib, ex, nil
}
