package grounding

import (
	"math"
	"math/rand/v2"
	"reflect"
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

// unitVector's sparse path builds, bit for bit, the vector the dense path
// builds: at every density, with negative zeros, tiny entries that scale
// to zero, and huge ones.
func TestUnitVectorSparsePath(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 400 {
		v := make([]float32, 1+rng.IntN(4096))
		density := rng.Float64() * 0.4
		for i := range v {
			if rng.Float64() < density {
				switch rng.IntN(6) {
				case 0:
					v[i] = float32(math.Copysign(0, -1))
				case 1:
					v[i] = math.SmallestNonzeroFloat32 * float32(1+rng.IntN(3))
				case 2:
					v[i] = float32(rng.NormFloat64() * 1e19)
				default:
					v[i] = float32(rng.NormFloat64())
				}
			}
		}
		if got, want := unitVector(v), unitVectorDense(v); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (%d entries): the sparse path differs from the dense one", trial, len(v))
		}
	}
}
