package store

import (
	"encoding/binary"
	"math"
	"testing"
)

func matchinfo(values ...uint32) []byte {
	b := make([]byte, 4*len(values))
	for i, v := range values {
		binary.NativeEndian.PutUint32(b[4*i:], v)
	}
	return b
}

func TestBM25(t *testing.T) {
	t.Parallel()
	// One phrase, one column; 100 rows averaging 10 tokens.
	idf := func(docs float64) float64 { return math.Log(1 + (100-docs+0.5)/(docs+0.5)) }
	tf := func(tf, dl float64) float64 { return tf * 2.2 / (tf + 1.2*(0.25+0.75*dl/10)) }
	tests := []struct {
		name string
		info []byte
		want float64
	}{
		{"one hit, average length", matchinfo(1, 1, 100, 10, 10, 1, 3, 3), idf(3) * tf(1, 10)},
		{"two hits, short row", matchinfo(1, 1, 100, 10, 5, 2, 9, 4), idf(4) * tf(2, 5)},
		{"no hit in this row", matchinfo(1, 1, 100, 10, 10, 0, 3, 3), 0},
		{"two phrases add", matchinfo(2, 1, 100, 10, 10, 1, 3, 3, 1, 50, 50), idf(3)*tf(1, 10) + idf(50)*tf(1, 10)},
		{"truncated blob", matchinfo(2, 1, 100, 10), 0},
		{"empty", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bm25(tt.info); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("bm25 = %v, want %v", got, tt.want)
			}
		})
	}
	rare := bm25(matchinfo(1, 1, 100, 10, 10, 1, 1, 1))
	common := bm25(matchinfo(1, 1, 100, 10, 10, 1, 90, 90))
	if !(rare > common && common > 0) {
		t.Errorf("rare %v should outscore common %v, both positive", rare, common)
	}
}
