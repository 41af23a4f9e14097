package grounding

import (
	"slices"
	"testing"
)

// The packed index reads back exactly, sparse and dense vectors alike; a
// record cut short, padded or of another library's size is refused.
func TestPackIndex(t *testing.T) {
	t.Parallel()
	sparse := make([]float32, 64)
	sparse[3], sparse[40] = 0.6, -0.8
	dense := []float32{1, 2, 3, 4}
	vecs := []vector{unitVector(sparse), unitVector(dense), unitVector(make([]float32, 8))}
	if vecs[0].dense != nil || vecs[1].dense == nil {
		t.Fatalf("forms: %+v", vecs)
	}
	packed := packIndex(vecs)
	got, err := unpackIndex(packed, 3)
	if err != nil {
		t.Fatal(err)
	}
	q := unitVector(dense).dense
	for i := range vecs {
		if got[i].n != vecs[i].n || !slices.Equal(got[i].idx, vecs[i].idx) || !slices.Equal(got[i].val, vecs[i].val) || !slices.Equal(got[i].dense, vecs[i].dense) {
			t.Errorf("vector %d: %+v, want %+v", i, got[i], vecs[i])
		}
	}
	if s := similarityTo(q, got[1]); s < 0.999 {
		t.Errorf("cosine with itself %v", s)
	}
	for name, w := range map[string][]float32{
		"cut short":     packed[:len(packed)-1],
		"padded":        append(slices.Clone(packed), 0),
		"empty":         nil,
		"another count": packed,
	} {
		want := 3
		if name == "another count" {
			want = 4
		}
		if _, err := unpackIndex(w, want); err == nil {
			t.Errorf("%s: read", name)
		}
	}
}

// The sparse cosine is the dense one, bit for bit.
func TestSparseCosineIsDense(t *testing.T) {
	t.Parallel()
	a := make([]float32, 4096)
	b := make([]float32, 4096)
	for i := 0; i < 4096; i += 37 {
		a[i] = float32(i%11) - 5
	}
	for i := 0; i < 4096; i += 3 {
		b[i] = float32(i%7) + 0.5
	}
	ua, ub := normalize(a), normalize(b)
	sa := unitVector(a)
	if sa.dense != nil {
		t.Fatal("a is not kept sparse")
	}
	if got, want := similarityTo(ub, sa), similarity(ub, ua); got != want {
		t.Errorf("sparse %v, dense %v", got, want)
	}
}
