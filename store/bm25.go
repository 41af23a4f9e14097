package store

import (
	"encoding/binary"
	"math"
)

// bm25Name is the SQL function ranking full-text hits:
// gear_bm25(matchinfo(table, 'pcnalx')). FTS4 has no built-in ranking, so
// gear computes Okapi BM25 from matchinfo's counters.
const bm25Name = "gear_bm25"

// BM25 parameters: the usual k1 and b.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// bm25 scores one row from matchinfo 'pcnalx', a native-endian array of
// 32-bit counters: p phrases, c columns, n rows, a (average tokens per
// column, c values), l (tokens in this row per column, c values), then x
// (per phrase and column: hits in this row, hits in all rows, rows with a
// hit). Higher is better. The idf is the Lucene form, log(1 + (N - n +
// 0.5) / (n + 0.5)), which stays positive for terms in most rows.
func bm25(info []byte) float64 {
	words := len(info) / 4
	at := func(i int) float64 {
		if i >= words {
			return 0
		}
		return float64(binary.NativeEndian.Uint32(info[i*4:]))
	}
	if words < 3 {
		return 0
	}
	phrases, cols := int(at(0)), int(at(1))
	rows := at(2)
	avgAt, lenAt, hitsAt := 3, 3+cols, 3+2*cols
	if hitsAt+3*phrases*cols > words {
		return 0
	}
	score := 0.0
	for p := 0; p < phrases; p++ {
		for c := 0; c < cols; c++ {
			x := hitsAt + 3*(p*cols+c)
			tf, docs := at(x), at(x+2)
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (rows-docs+0.5)/(docs+0.5))
			avg := at(avgAt + c)
			if avg <= 0 {
				avg = 1
			}
			norm := 1 - bm25B + bm25B*at(lenAt+c)/avg
			score += idf * tf * (bm25K1 + 1) / (tf + bm25K1*norm)
		}
	}
	return score
}
