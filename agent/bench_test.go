package agent

import (
	"context"
	"fmt"
	"path/filepath"
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

// BenchmarkChatTurn is a tool turn of each of the four tool families
// against a local scripted server that answers every request after 100 ms,
// with the small model, the embeddings and the chat LLM all on it (the same
// model for every role, so the chosen tool's call from grounding is reused
// unless reuse=never). round_trips is the turn's wall time in units of
// 100 ms (process start and set-up off the clock); model_calls/turn counts
// chat and small-model requests, embeddings/turn embedding requests;
// decisive is the share of turns grounding routed without the model.
//
//	mode=chat/route=combined  grounding decisive: target ≤ 2.2 round trips
//	mode=chat/route=model     the model asked to route: ≤ 2.3
//	speculative               combined routing with the yes/no asked
//	                          alongside grounding, cancelled when decisive
//	mode=direct               /GEAR: ≤ 1.2
//	first=warm                the first turn of a new process (a new agent,
//	                          nothing in memory, the same model server), the
//	                          library embedded by an earlier one (in the store)
//	first=cold                the first turn of a new process and library
//
// tools=6 is the built-in library's size; tools=100 adds synthetic tools,
// so grounding calls the shortlist's k only.
func BenchmarkChatTurn(b *testing.B) {
	type variant struct {
		name   string
		mode   store.Mode
		route  grounding.RouteMode
		reuse  ReuseCall
		first  string // "", "warm" or "cold"
		prefix string
		// speculative asks the routing question with grounding's
		// requests in combined mode (grounding.speculative_route).
		speculative bool
	}
	variants := []variant{
		{name: "mode=chat/route=combined", mode: store.ModeChat, route: grounding.RouteCombined},
		{name: "mode=chat/route=combined/reuse=never", mode: store.ModeChat, route: grounding.RouteCombined, reuse: ReuseNever},
		{name: "mode=chat/route=combined/speculative", mode: store.ModeChat, route: grounding.RouteCombined, speculative: true},
		{name: "mode=chat/route=model", mode: store.ModeChat, route: grounding.RouteModel},
		{name: "mode=direct", mode: store.ModeDirect, route: grounding.RouteCombined, prefix: "/GEAR "},
		{name: "mode=chat/route=combined/first=warm", mode: store.ModeChat, route: grounding.RouteCombined, first: "warm"},
		{name: "mode=chat/route=combined/first=cold", mode: store.ModeChat, route: grounding.RouteCombined, first: "cold"},
	}
	for _, v := range variants {
		for _, n := range []int{6, 100} {
			for _, fq := range familyQueries {
				b.Run(fmt.Sprintf("%s/tools=%d/%s", v.name, n, fq.family), func(b *testing.B) {
					benchTurn(b, v.mode, v.route, v.reuse, v.speculative, v.first, n, v.prefix+fq.query, fq.tool)
				})
			}
		}
	}
}

func benchTurn(b *testing.B, mode store.Mode, route grounding.RouteMode, reuse ReuseCall, speculative bool, first string, n int, query, tool string) {
	dir := b.TempDir()
	opts := func(db string) harnessOpts {
		return harnessOpts{chat: llm.ServerOpenAI, modelGrounding: true, route: route, reuse: reuse, speculative: speculative,
			confirmBelow: 0.01, lib: libOpts{converter: true, extra: n - 5}, delay: roundTrip,
			noDB: first == "", dbPath: db}
	}
	var h *harness
	var server *modelServer // the model server every new process talks to
	if first == "" {
		h = newHarness(b, opts(""))
		if err := h.ag.Prepare(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	var elapsed time.Duration
	var calls, embeds, decisive int
	for i := 0; i < b.N; i++ {
		if first != "" {
			// A new process: a new agent and server (nothing in memory);
			// "warm" keeps the database an earlier process filled.
			b.StopTimer()
			db := filepath.Join(dir, fmt.Sprintf("gear-%d.db", i))
			if first == "warm" {
				db = filepath.Join(dir, "gear.db")
				if i == 0 {
					prep := newHarness(b, opts(db))
					if err := prep.ag.Prepare(context.Background()); err != nil {
						b.Fatal(err)
					}
					prep.st.Close()
					server = prep.srv
				}
			}
			o := opts(db)
			o.server = server
			h = newHarness(b, o)
			server = h.srv
			b.StartTimer()
		}
		c0, e0 := h.srv.total(), h.srv.count(kindEmbed)
		start := time.Now()
		rec := h.ag.Start(context.Background(), Request{Text: query, Mode: mode}).Wait()
		elapsed += time.Since(start)
		if rec.Status != store.StatusDone || rec.Tool != tool || rec.Call == nil {
			b.Fatalf("status %s (%s), tool %q, call %+v", rec.Status, rec.Error, rec.Tool, rec.Call)
		}
		if rec.Route != nil && rec.Route.By == "decisive" {
			decisive++
		}
		e := h.srv.count(kindEmbed) - e0
		embeds += e
		calls += h.srv.total() - c0 - e
		if first != "" {
			b.StopTimer()
			h.st.Close()
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(elapsed)/float64(b.N)/float64(roundTrip), "round_trips")
	b.ReportMetric(float64(calls)/float64(b.N), "model_calls/turn")
	b.ReportMetric(float64(embeds)/float64(b.N), "embeddings/turn")
	b.ReportMetric(float64(decisive)/float64(b.N), "decisive")
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
