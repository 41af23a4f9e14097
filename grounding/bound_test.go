package grounding_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
)

// hugeQuery is a pasted document: words, numbers and places, n bytes.
func hugeQuery(n int) string {
	unit := "what is 17 * 23 in Paris at 10:30, and who wrote the article about people and numbers? "
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}

// recorder wraps an engine and keeps the longest text each stage was given.
type recorder struct {
	grounding.Encoder
	grounding.Prober
	mu      sync.Mutex
	longest map[string]int
}

func (r *recorder) saw(stage, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.longest[stage] = max(r.longest[stage], len(text))
}

func (r *recorder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	for _, t := range texts {
		if strings.Contains(t, "17 * 23") {
			r.saw("embed", t)
		}
	}
	return r.Encoder.Embed(ctx, texts)
}

func (r *recorder) Preliminary(ctx context.Context, q string) (string, error) {
	r.saw("preliminary", q)
	return r.Prober.Preliminary(ctx, q)
}

func (r *recorder) Call(ctx context.Context, spec tools.Spec, q string) (string, error) {
	r.saw("call", q)
	return r.Prober.Call(ctx, spec, q)
}

// No stage analyses more than grounding.MaxQueryBytes of a query, however
// long it is: the offline engine cut only its own analysis, and the
// encoder read a pasted document whole.
func TestEveryStageReadsABoundedQuery(t *testing.T) {
	t.Parallel()
	reg, _ := library(t)
	eng := offline.New(offline.Options{Tools: reg.Specs()}).Grounding()
	rec := &recorder{Encoder: eng.Encoder, Prober: eng.Prober, longest: map[string]int{}}
	eng.Encoder, eng.Prober = rec, rec
	g, err := grounding.New(reg, eng, grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Ground(context.Background(), hugeQuery(480<<10))
	if err != nil {
		t.Fatal(err)
	}
	for _, stage := range []string{"embed", "preliminary", "call"} {
		if n := rec.longest[stage]; n == 0 || n > grounding.MaxQueryBytes {
			t.Errorf("%s was given %d bytes of the query, want 1..%d", stage, n, grounding.MaxQueryBytes)
		}
	}
	if len(res.Query) > grounding.MaxQueryBytes {
		t.Errorf("the result holds a query of %d bytes", len(res.Query))
	}
	if grounding.MaxQueryBytes != offline.MaxQueryBytes {
		t.Errorf("grounding bounds a query at %d bytes, the offline engine at %d", grounding.MaxQueryBytes, offline.MaxQueryBytes)
	}
}

// BenchmarkGroundHugeQuery grounds a pasted document with the offline
// engine and the calculator. Target: ≤ 100 ms for any query.
func BenchmarkGroundHugeQuery(b *testing.B) {
	reg, err := tools.NewRegistry(calc.New())
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{2 << 10, 480 << 10, 950 << 10} {
		b.Run(fmt.Sprintf("%dKiB", n>>10), func(b *testing.B) {
			g, err := grounding.New(reg, offline.New(offline.Options{Tools: reg.Specs()}).Grounding(), grounding.DefaultOptions())
			if err != nil {
				b.Fatal(err)
			}
			q, i := hugeQuery(n), 0
			for b.Loop() {
				// A new query each time: the engine keeps recent analyses.
				i++
				if _, err := g.Ground(b.Context(), fmt.Sprint(i, " ", q)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
