package grounding

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"reflect"
	"slices"

	"github.com/gear-chat/gear/internal/buildinfo"
	"github.com/gear-chat/gear/tools"
)

// A library scorer's index in the store. Indexing a large library is
// hundreds of milliseconds of the engine's own reading (the offline
// engine's stems, trigrams and postings for 4,076 tools); reading it back
// is a few. With Options.CacheLibrary, a cache that keeps blobs (the
// store) and a scorer that can encode its index (LibraryIndexCodec), the
// grounder keeps the index as one record, keyed by everything it was built
// from: the scorer's IndexVersion (its code) and a digest of every field
// of every spec. A record that does not decode is indexed again and
// overwritten, with a warning.

// LibraryIndexCodec is a LibraryScorer whose index can be kept.
type LibraryIndexCodec interface {
	LibraryScorer
	// IndexVersion names the code that builds the index and its
	// encoding: it must change whenever either does.
	IndexVersion() string
	// EncodeIndex is the index of scores (built by IndexTools) as bytes;
	// ok is false when it cannot be encoded.
	EncodeIndex(scores LibraryScores) (data []byte, ok bool)
	// DecodeIndex reads EncodeIndex's bytes as the scores of specs; an
	// error when data is not a whole index of these specs.
	DecodeIndex(specs []tools.Spec, data []byte) (LibraryScores, error)
}

// BlobCache keeps derived records across runs; *store.Store satisfies it.
// CachedBlob returns nil, nil when it has no record.
type BlobCache interface {
	CachedBlob(ctx context.Context, kind, key string) ([]byte, error)
	PutBlob(ctx context.Context, kind, key string, data []byte) error
}

// libraryIndexKind is the cache's kind of record for a library's index.
const libraryIndexKind = "library-scores"

// indexLibrary builds the library scorer's index, or reads it from the
// cache; warnings say what went wrong with the cache.
func (g *Grounder) indexLibrary(ctx context.Context) (LibraryScores, []string) {
	lib := g.engine.Library
	codec, canCode := lib.(LibraryIndexCodec)
	blobs, canKeep := g.opts.Cache.(BlobCache)
	if !canCode || !canKeep || !g.opts.CacheLibrary || len(g.texts.texts) < LibraryIndexMinTexts {
		return lib.IndexTools(g.specs), nil
	}
	// The index outlives the query that asked for it first.
	ctx = context.WithoutCancel(ctx)
	key := g.engine.Name + "|" + codec.IndexVersion() + "|" + buildinfo.Stamp() + "|" + SpecsDigest(g.specs)
	var warnings []string
	data, err := blobs.CachedBlob(ctx, libraryIndexKind, key)
	switch {
	case err != nil:
		warnings = append(warnings, "library index cache: "+err.Error())
	case data != nil:
		scores, err := codec.DecodeIndex(g.specs, data)
		if err == nil {
			return scores, nil
		}
		warnings = append(warnings, "library index cache: the stored index is unreadable ("+err.Error()+"); indexed again")
	}
	scores := lib.IndexTools(g.specs)
	if data, ok := codec.EncodeIndex(scores); ok {
		if err := blobs.PutBlob(ctx, libraryIndexKind, key, data); err != nil {
			warnings = append(warnings, "library index cache: "+err.Error())
		}
	}
	return scores, warnings
}

// SpecsDigest is a digest of every field of every spec, in order: a key
// for anything derived from a library. The fields are written one by one
// (a reflective walk of 4,076 specs costs more than the index it keys);
// TestSpecsDigestCoversEveryField sets every field of tools.Spec, found by
// reflection, and fails on one the digest misses, so a field added later
// cannot be forgotten. Hints, rare and nested, are walked by reflection.
func SpecsDigest(specs []tools.Spec) string {
	d := digester{b: make([]byte, 0, 1<<16)}
	h := sha256.New()
	for i := range specs {
		d.spec(&specs[i])
		if len(d.b) >= 1<<15 {
			h.Write(d.b)
			d.b = d.b[:0]
		}
	}
	h.Write(d.b)
	return hex.EncodeToString(h.Sum(nil))
}

func (d *digester) str(s string) {
	d.b = binary.AppendUvarint(d.b, uint64(len(s)))
	d.b = append(d.b, s...)
}

func (d *digester) num(n int) { d.b = binary.AppendVarint(d.b, int64(n)) }

func (d *digester) flag(f bool) {
	if f {
		d.b = append(d.b, 1)
	} else {
		d.b = append(d.b, 0)
	}
}

func (d *digester) float(f *float64) {
	d.flag(f != nil)
	if f != nil {
		d.b = binary.LittleEndian.AppendUint64(d.b, math.Float64bits(*f))
	}
}

func (d *digester) spec(s *tools.Spec) {
	d.str(s.Name)
	d.str(string(s.Family))
	d.str(s.Description)
	d.num(len(s.Params))
	for i := range s.Params {
		p := &s.Params[i]
		d.str(p.Name)
		d.str(string(p.Type))
		d.str(p.Description)
		d.flag(p.Optional)
		d.num(len(p.Enum))
		for _, v := range p.Enum {
			d.str(v)
		}
		d.num(p.MaxLen)
		d.str(p.Pattern)
		d.str(p.Format)
		d.float(p.Min)
		d.float(p.Max)
		d.str(string(p.Items))
		d.str(string(p.Schema))
		d.str(string(p.Default))
	}
	d.num(len(s.Examples))
	for _, x := range s.Examples {
		d.str(x.Query)
		d.str(x.Call)
	}
	d.str(s.OutputPattern)
	d.str(s.Mock)
	d.str(string(s.Source.Kind))
	d.str(s.Source.Name)
	d.str(string(s.Effect))
	d.str(string(s.InputSchema))
	h := &s.Hints
	if len(h.Aliases) == 0 && len(h.Subjects) == 0 && len(h.Params) == 0 {
		d.b = append(d.b, 0) // a library's tools have none
		return
	}
	d.b = append(d.b, 1)
	d.value(reflect.ValueOf(h).Elem())
}

// digester writes values unambiguously: every string and list with its
// length, every pointer with whether it is nil, maps in key order.
type digester struct{ b []byte }

func (d *digester) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		d.b = binary.AppendUvarint(d.b, uint64(v.Len()))
		d.b = append(d.b, v.String()...)
	case reflect.Bool:
		if v.Bool() {
			d.b = append(d.b, 1)
		} else {
			d.b = append(d.b, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.b = binary.AppendVarint(d.b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		d.b = binary.AppendUvarint(d.b, v.Uint())
	case reflect.Float32, reflect.Float64:
		d.b = binary.LittleEndian.AppendUint64(d.b, math.Float64bits(v.Float()))
	case reflect.Slice:
		d.b = binary.AppendUvarint(d.b, uint64(v.Len()))
		if v.Type().Elem().Kind() == reflect.Uint8 {
			d.b = append(d.b, v.Bytes()...)
			return
		}
		for i := range v.Len() {
			d.value(v.Index(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			d.value(v.Index(i))
		}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			d.b = append(d.b, 0)
			return
		}
		d.b = append(d.b, 1)
		d.value(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			d.value(v.Field(i))
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			var da, db digester
			da.value(a)
			db.value(b)
			return slices.Compare(da.b, db.b)
		})
		d.b = binary.AppendUvarint(d.b, uint64(len(keys)))
		for _, k := range keys {
			d.value(k)
			d.value(v.MapIndex(k))
		}
	default:
		// Functions and channels are not data: a spec has none (a test
		// says so), and if one had, it would not be part of the key.
		d.b = append(d.b, byte(v.Kind()))
	}
}
