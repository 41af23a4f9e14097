package offline

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
)

// The library index in the store (grounding.LibraryIndexCodec): indexing
// Seal-Tools' 4,076 tools takes a few hundred milliseconds of stemming,
// trigrams and maps; reading the built index back is a few milliseconds.
// The record is keyed (by the grounder) by a digest of the texts indexed
// and by IndexVersion, which changes whenever the code that builds the
// index does, so a record built by another engine is never read as this
// one's.

// libraryIndexFormat is the layout of an encoded index; bump it when
// encodeIndex changes.
const libraryIndexFormat = 3

// indexMagic opens an encoded index.
var indexMagic = [4]byte{'G', 'L', 'I', 'X'}

// IndexVersion names the index this engine builds: the layout, the shape
// of LibraryIndex (a field added changes it), and a fingerprint of the
// index of a small fixed library (probeLibrary) — any change to how terms
// are read, weighted or numbered changes the fingerprint, so a cached
// index from older code is never served, without anyone remembering to
// bump a constant.
func (e *Engine) IndexVersion() string {
	e.indexVersionOnce.Do(func() {
		h := sha256.New()
		fmt.Fprintf(h, "format %d\n%s\n", libraryIndexFormat, typeShape(reflect.TypeOf(LibraryIndex{})))
		h.Write(encodeIndex(e.IndexLibrary(probeLibrary())))
		e.indexVersion = fmt.Sprintf("offline-index-v%d-%s", libraryIndexFormat, hex.EncodeToString(h.Sum(nil))[:16])
	})
	return e.indexVersion
}

// indexVersionMemo is embedded in Engine: the version is computed once.
type indexVersionMemo struct {
	indexVersionOnce sync.Once
	indexVersion     string
}

// typeShape spells a type's structure: field names and types, recursively.
func typeShape(t reflect.Type) string {
	var b strings.Builder
	var walk func(t reflect.Type, depth int)
	walk = func(t reflect.Type, depth int) {
		if depth > 8 {
			return
		}
		switch t.Kind() {
		case reflect.Struct:
			b.WriteString("{")
			for i := range t.NumField() {
				f := t.Field(i)
				b.WriteString(f.Name + " ")
				walk(f.Type, depth+1)
				b.WriteString(";")
			}
			b.WriteString("}")
		case reflect.Slice, reflect.Pointer, reflect.Array:
			b.WriteString(t.Kind().String() + " ")
			walk(t.Elem(), depth+1)
		case reflect.Map:
			b.WriteString("map[")
			walk(t.Key(), depth+1)
			b.WriteString("]")
			walk(t.Elem(), depth+1)
		default:
			b.WriteString(t.Kind().String())
		}
	}
	walk(t, 0)
	return b.String()
}

// probeLibrary is a small library that exercises every kind of term: names
// in camelCase, snake_case and dotted, parameters with descriptions and
// enums, usage examples, inflections, numerals, stop words, apostrophes.
func probeLibrary() []tools.Spec {
	return []tools.Spec{
		{Name: "getWeatherForecast", Description: "Get the weather forecast for a city's next 3 days",
			Params:   []tools.Param{{Name: "city_name", Description: "The city, e.g. Paris"}, {Name: "units", Enum: []string{"metric", "imperial"}}},
			Examples: []tools.Example{{Query: "will it rain in Oslo tomorrow?"}, {Query: "What's the forecast for Rome"}}},
		{Name: "flights.search_fares", Description: "Search and compare airfares between airports",
			Params:   []tools.Param{{Name: "from"}, {Name: "to"}, {Name: "departureDate", Description: "Departing on this date"}},
			Examples: []tools.Example{{Query: "Can you find me a cheap flight to Rome?"}}},
		{Name: "HTTPServer_status", Description: "Checks whether the HTTP servers are running and reports their statuses"},
		{Name: "translate", Description: "Translate a text into another language",
			Params: []tools.Param{{Name: "target_language", Description: "ISO 639-1 code"}}},
	}
}

// EncodeIndex is the library's index as bytes, for the store; ok is false
// when scores are not this engine's.
func (e *Engine) EncodeIndex(scores grounding.LibraryScores) ([]byte, bool) {
	l, ok := scores.(libraryScores)
	if !ok || l.e != e {
		return nil, false
	}
	return encodeIndex(l.ix), true
}

// DecodeIndex reads EncodeIndex's bytes back as the scores of specs, the
// library they were built from; a record that is not a whole index of
// len(specs) tools is an error (the caller indexes again).
func (e *Engine) DecodeIndex(specs []tools.Spec, data []byte) (grounding.LibraryScores, error) {
	ix, err := decodeIndex(data)
	if err != nil {
		return nil, err
	}
	if ix.n != len(specs) {
		return nil, fmt.Errorf("the index has %d tools, the library %d", ix.n, len(specs))
	}
	for _, t := range ix.exTool {
		if t >= ix.n {
			return nil, errIndexCorrupt
		}
	}
	nex := 0
	for _, s := range specs {
		nex += len(s.Examples)
	}
	if nex != len(ix.exTool) {
		return nil, fmt.Errorf("the index has %d examples, the library %d", len(ix.exTool), nex)
	}
	return e.scoresOf(specs, ix), nil
}

// encodeIndex lays the index out: magic, format, tool count, the terms
// (lengths, then their bytes), idf, then each posting list (card, ex,
// all: per term its length and (doc, weight) pairs) with its documents'
// norms, then exTool. Integers are uvarints; floats their 8 bytes, so the
// index read back scores bit for bit as the one built.
func encodeIndex(ix *LibraryIndex) []byte {
	terms := make([]string, len(ix.ids))
	size := 0
	for t, id := range ix.ids {
		terms[id] = t
		size += len(t)
	}
	b := make([]byte, 0, 64+size+10*len(terms))
	b = append(b, indexMagic[:]...)
	b = binary.AppendUvarint(b, libraryIndexFormat)
	b = binary.AppendUvarint(b, uint64(ix.n))
	b = binary.AppendUvarint(b, uint64(len(terms)))
	for _, t := range terms {
		b = binary.AppendUvarint(b, uint64(len(t)))
	}
	for _, t := range terms {
		b = append(b, t...)
	}
	b = appendFloats(b, ix.idf)
	for _, part := range []struct {
		post  [][]posting
		norms []float64
	}{{ix.card, ix.cardN}, {ix.ex, ix.exN}, {ix.all, ix.allN}} {
		b = binary.AppendUvarint(b, uint64(len(part.norms)))
		b = appendFloats(b, part.norms)
		total := 0
		for _, ps := range part.post {
			total += len(ps)
		}
		b = binary.AppendUvarint(b, uint64(total))
		// A term's postings take few distinct weights (a weight is the
		// term's idf times a damped count, and counts repeat): each list
		// gives its distinct weights once, then per posting the document
		// (as the step from the last) and the weight's place in that table.
		// Weights are told apart by their bits, so each comes back as it was.
		var table []uint64
		place := map[uint64]int{}
		for _, ps := range part.post {
			b = binary.AppendUvarint(b, uint64(len(ps)))
			if len(ps) == 0 {
				continue
			}
			table = table[:0]
			clear(place)
			for _, p := range ps {
				bits := math.Float64bits(p.w)
				if _, ok := place[bits]; !ok {
					place[bits] = len(table)
					table = append(table, bits)
				}
			}
			b = binary.AppendUvarint(b, uint64(len(table)))
			for _, bits := range table {
				b = binary.LittleEndian.AppendUint64(b, bits)
			}
			prev := 0
			for _, p := range ps {
				b = binary.AppendUvarint(b, uint64(p.doc-prev))
				prev = p.doc
				b = binary.AppendUvarint(b, uint64(place[math.Float64bits(p.w)]))
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(ix.exTool)))
	for _, t := range ix.exTool {
		b = binary.AppendUvarint(b, uint64(t))
	}
	return b
}

func appendFloats(b []byte, fs []float64) []byte {
	for _, f := range fs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	return b
}

var errIndexCorrupt = errors.New("the cached library index is corrupt")

// indexReader reads encodeIndex's layout, checking every length against
// what is left, so that a damaged record is an error, never a panic or a
// huge allocation.
type indexReader struct {
	b   []byte
	err error
}

func (r *indexReader) uvarint(max uint64) int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > max {
		r.err = errIndexCorrupt
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *indexReader) floats(n int) []float64 {
	if r.err != nil || n > len(r.b)/8 {
		r.err = errIndexCorrupt
		return nil
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(r.b[8*i:]))
	}
	r.b = r.b[8*n:]
	return out
}

func decodeIndex(data []byte) (*LibraryIndex, error) {
	if len(data) < len(indexMagic) || string(data[:len(indexMagic)]) != string(indexMagic[:]) {
		return nil, errIndexCorrupt
	}
	r := &indexReader{b: data[len(indexMagic):]}
	if r.uvarint(math.MaxInt32) != libraryIndexFormat {
		return nil, errIndexCorrupt
	}
	// No count can exceed the bytes left: each item takes one at least.
	left := func() uint64 { return uint64(len(r.b)) }
	ix := &LibraryIndex{n: r.uvarint(left())}
	nterms := r.uvarint(left())
	lens := make([]int, nterms)
	total := 0
	for i := range lens {
		lens[i] = r.uvarint(left())
		total += lens[i]
	}
	if r.err != nil || total > len(r.b) {
		return nil, errIndexCorrupt
	}
	all := string(r.b[:total]) // one allocation for every term
	r.b = r.b[total:]
	ix.ids = make(map[string]int32, nterms)
	at := 0
	for id, n := range lens {
		t := all[at : at+n]
		at += n
		if id > 0 && t <= all[at-n-lens[id-1]:at-n] {
			return nil, errIndexCorrupt // terms are sorted and distinct
		}
		ix.ids[t] = int32(id)
	}
	ix.idf = r.floats(nterms)
	readPart := func() ([][]posting, []float64) {
		ndocs := r.uvarint(left())
		norms := r.floats(ndocs)
		total := r.uvarint(left() / 2) // a posting takes 2 bytes at least
		if r.err != nil {
			return nil, nil
		}
		// One array for every posting of the part; read with a local
		// cursor, not through r (a tight loop of a few hundred thousand).
		backing := make([]posting, total)
		post := make([][]posting, nterms)
		b, at, used := r.b, 0, 0
		var table []float64
		for id := range post {
			np, n := binary.Uvarint(b[at:])
			if n <= 0 || np > uint64(total-used) {
				r.err = errIndexCorrupt
				return nil, nil
			}
			at += n
			if np == 0 {
				continue
			}
			nw, n := binary.Uvarint(b[at:])
			if n <= 0 || nw == 0 || nw > np || uint64(len(b)-at-n)/8 < nw {
				r.err = errIndexCorrupt
				return nil, nil
			}
			at += n
			table = table[:0]
			for range nw {
				table = append(table, math.Float64frombits(binary.LittleEndian.Uint64(b[at:])))
				at += 8
			}
			ps := backing[used : used+int(np) : used+int(np)]
			used += int(np)
			doc := 0
			for k := range ps {
				delta, n := binary.Uvarint(b[at:])
				if n <= 0 || delta > uint64(ndocs) || (k > 0 && delta == 0) {
					r.err = errIndexCorrupt
					return nil, nil
				}
				at += n
				doc += int(delta)
				w, n := binary.Uvarint(b[at:])
				if n <= 0 || doc >= ndocs || w >= nw {
					r.err = errIndexCorrupt
					return nil, nil
				}
				at += n
				ps[k] = posting{doc: doc, w: table[w]}
			}
			post[id] = ps
		}
		if used != total {
			r.err = errIndexCorrupt
			return nil, nil
		}
		r.b = b[at:]
		return post, norms
	}
	ix.card, ix.cardN = readPart()
	ix.ex, ix.exN = readPart()
	ix.all, ix.allN = readPart()
	nex := r.uvarint(left())
	if r.err == nil && nex != len(ix.exN) {
		r.err = errIndexCorrupt
	}
	if r.err == nil && nex > 0 {
		ix.exTool = make([]int, nex)
		for i := range ix.exTool {
			ix.exTool[i] = r.uvarint(math.MaxInt32)
		}
	}
	if r.err == nil && (len(r.b) != 0 || len(ix.cardN) != ix.n || len(ix.allN) != ix.n) {
		r.err = errIndexCorrupt
	}
	if r.err != nil {
		return nil, r.err
	}
	return ix, nil
}
