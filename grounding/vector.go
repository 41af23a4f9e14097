package grounding

import "math"

// vector is a library text's unit vector, kept sparse when most of its
// entries are zero. The offline encoder's vectors have 4,096 dimensions
// and a few dozen features a text: dense, Seal-Tools' 4,076 descriptions
// took 65 MB and a query's cosines with them 17 million multiplications;
// sparse, about 1 MB and a few hundred thousand. A model's embeddings are
// dense and stay so. The cosine is the same either way, bit for bit: the
// sparse sum adds the same non-zero terms in the same order (adding a
// zero changes no float).
type vector struct {
	dense []float32 // nil when sparse
	idx   []uint32  // sparse: the non-zero dimensions, ascending
	val   []float32 // and their values
	n     int       // the length
}

// sparseAt is the share of non-zero entries at or below which a vector is
// kept sparse (an index and a value take twice a dense entry's bytes).
const sparseAt = 0.25

// unitVector normalises v and keeps it in the smaller form.
func unitVector(v []float32) vector {
	// Most library texts are sparse: their unit vector is built from the
	// non-zero entries alone, without a dense copy. The sum of squares
	// skips only zeros (adding 0 changes no bit), and an entry that
	// scales to 0 is dropped as the dense path drops it, so both paths
	// give the same vector bit for bit (TestUnitVectorSparsePath).
	var ss float64
	nz := 0
	for _, x := range v {
		if x != 0 {
			ss += float64(x) * float64(x)
			nz++
		}
	}
	if ss != 0 && !math.IsInf(ss, 0) && !math.IsNaN(ss) && float64(nz) <= sparseAt*float64(len(v)) {
		inv := float32(1 / math.Sqrt(ss))
		s := vector{idx: make([]uint32, 0, nz), val: make([]float32, 0, nz), n: len(v)}
		for i, x := range v {
			if x == 0 {
				continue
			}
			if y := x * inv; y != 0 {
				s.idx = append(s.idx, uint32(i))
				s.val = append(s.val, y)
			}
		}
		return s
	}
	return unitVectorDense(v)
}

// unitVectorDense is unitVector through the dense unit vector.
func unitVectorDense(v []float32) vector {
	u := normalize(v)
	nnz := 0
	for _, x := range u {
		if x != 0 {
			nnz++
		}
	}
	if float64(nnz) > sparseAt*float64(len(u)) {
		return vector{dense: u, n: len(u)}
	}
	s := vector{idx: make([]uint32, 0, nnz), val: make([]float32, 0, nnz), n: len(u)}
	for i, x := range u {
		if x != 0 {
			s.idx = append(s.idx, uint32(i))
			s.val = append(s.val, x)
		}
	}
	return s
}

// dotWith is the dot product with a dense vector q (0 when the lengths
// differ, as dot's).
func (d vector) dotWith(q []float32) float64 {
	if d.dense != nil {
		return dot(q, d.dense)
	}
	if d.n != len(q) {
		return 0
	}
	var s float32
	for i, j := range d.idx {
		s += q[j] * d.val[i]
	}
	return float64(s)
}

// similarityTo is similarity (S) between a query's unit vector and a
// library text's.
func similarityTo(q []float32, d vector) float64 {
	return math.Max(0, math.Min(d.dotWith(q), 1))
}
