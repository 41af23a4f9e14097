package agent

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
)

// roundTrip is the scripted server's delay before every answer.
const roundTrip = 100 * time.Millisecond

// familyQueries are one chat-mode tool turn per tool family.
var familyQueries = []struct{ family, query, tool string }{
	{"calc", calcQuery, "Calculator"},
	{"timezone", "what time is it in Tokyo right now", "CurrentTime"},
	{"weather", "will it rain in Paris tomorrow", "WeatherSearch"},
	{"wiki", "who designed the flag of Ghana", "WikiSearch"},
}

// BenchmarkChatTurn is a chat-mode tool turn of each of the four tool
// families against a local scripted server that answers every request
// after 100 ms, with the small model, the embeddings and the chat LLM all on
// it. Target: at most 4 round trips of wall time (≤ 450 ms), with 4 tools
// and with 20 — the per-tool work is concurrent. round_trips is the wall
// time in units of 100 ms.
func BenchmarkChatTurn(b *testing.B) {
	for _, route := range []grounding.RouteMode{grounding.RouteModel, grounding.RouteCombined} {
		for _, extra := range []int{0, 16} {
			for _, fq := range familyQueries {
				b.Run(fmt.Sprintf("route=%s/tools=%d/%s", route, 4+extra, fq.family), func(b *testing.B) {
					h := newHarness(b, harnessOpts{chat: llm.ServerOpenAI, modelGrounding: true, route: route,
						confirmBelow: 0.01, lib: libOpts{extra: extra}, delay: roundTrip, noDB: true})
					if err := h.ag.Prepare(context.Background()); err != nil {
						b.Fatal(err)
					}
					calls := h.srv.total()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						rec := h.ag.Start(context.Background(), Request{Text: fq.query}).Wait()
						if rec.Status != store.StatusDone || rec.Tool != fq.tool || rec.Call == nil {
							b.Fatalf("status %s (%s), tool %q, call %+v", rec.Status, rec.Error, rec.Tool, rec.Call)
						}
					}
					perTurn := b.Elapsed() / time.Duration(b.N)
					b.ReportMetric(float64(perTurn)/float64(roundTrip), "round_trips")
					b.ReportMetric(float64(h.srv.total()-calls)/float64(b.N), "model_calls/turn")
				})
			}
		}
	}
}

// BenchmarkCancel is the time from Turn.Cancel, while the answer streams,
// to the final Cancelled event (with the turn recorded). Target: ≤ 200 ms.
func BenchmarkCancel(b *testing.B) {
	h := newHarness(b, harnessOpts{chat: llm.ServerOpenAI, confirmBelow: 0.01, script: map[reqKind]func(modelRequest) reply{
		kindAnswer: func(r modelRequest) reply {
			rep := streamReply(b, "It is ")
			rep.events = rep.events[:1]
			rep.holdAfter = true
			return rep
		},
	}})
	var total time.Duration
	for i := 0; i < b.N; i++ {
		turn := h.ag.Start(context.Background(), Request{Text: calcQuery})
		var start time.Time
		for {
			ev, ok := turn.Next()
			if !ok {
				break
			}
			switch ev.(type) {
			case AnswerDelta:
				if start.IsZero() {
					start = time.Now()
					turn.Cancel()
				}
			case Cancelled:
				total += time.Since(start)
			case Done, Failed:
				b.Fatalf("turn ended with %T", ev)
			}
		}
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms_to_cancelled")
}
