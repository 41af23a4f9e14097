package grounding_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gear-chat/gear/grounding"
)

// BenchmarkGroundConcurrency grounds over 100 tools with the default
// shortlist (k = 8) against a test server that answers every request after
// 100 ms, for several bounds on the small-model requests in flight.
// round_trips is the wall time in units of 100 ms: â and the k calls go
// out in one wave only when the bound is at least k + 1, which is why
// DefaultConcurrency is 16 (k + 1 with room for a larger k or a named
// tool) rather than 8.
func BenchmarkGroundConcurrency(b *testing.B) {
	for _, c := range []int{4, 8, 16} {
		b.Run(fmt.Sprintf("concurrency=%d", c), func(b *testing.B) {
			reg := bigLibrary(b, 100)
			srv, _ := newOpenAIServer(b, scriptedModel)
			slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				time.Sleep(100 * time.Millisecond)
				srv.ServeHTTP(w, r)
			}))
			b.Cleanup(slow.Close)
			client := openAIClient{base: slow.URL, http: slow.Client()}
			opts := grounding.DefaultOptions()
			opts.Concurrency = c
			eng := grounding.Engine{Name: grounding.EngineModel, Model: "m", Encoder: wordEncoderOnly{}, Prober: grounding.SLMProber{SLM: client}}
			g, err := grounding.New(reg, eng, opts)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := g.Ground(context.Background(), "what is 48 multiplied by 4 divided by 2 with numbers"); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(100*time.Millisecond), "round_trips")
		})
	}
}

// wordEncoderOnly is the word encoder without its counters: local, so
// only the small model's requests are timed.
type wordEncoderOnly struct{}

func (wordEncoderOnly) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return (&wordEncoder{}).Embed(ctx, texts)
}
