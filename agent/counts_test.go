package agent

import (
	"context"
	"fmt"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
)

// The paper's chatbot makes, per tool turn, 1 routing call, n+1 small-model
// calls (â and each q_i), 1 execution-LLM call and 1 answer. gear makes the
// same plus one embedding of the query (the tool descriptions' embeddings
// are cached), and sends everything that does not depend on something else
// at once: routing, â, every q_i and the query's embedding are all in flight
// together (the server holds them until all n+3 have arrived). When the
// small model is the chat model, the chosen tool's q_i is the call
// (agent.reuse_grounding_call auto): no execution-LLM call.
func TestModelCallsPerTurn(t *testing.T) {
	t.Parallel()
	for _, reuse := range []ReuseCall{ReuseAuto, ReuseNever} {
		for _, extra := range []int{0, 16} {
			for _, fq := range familyQueries {
				testModelCalls(t, reuse, 4+extra, fq.query, fq.tool)
			}
		}
	}
}

func testModelCalls(t *testing.T, reuse ReuseCall, n int, query, tool string) {
	extra := n - 4
	t.Run(fmt.Sprintf("reuse=%s/%d tools/%s", reuse, n, tool), func(t *testing.T) {
		h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, modelGrounding: true, route: grounding.RouteModel,
			confirmBelow: 0.01, lib: libOpts{extra: extra}, reuse: reuse})
		if err := h.ag.Prepare(context.Background()); err != nil {
			t.Fatal(err)
		}
		prepared := h.srv.count(kindEmbed)
		k := min(n, grounding.DefaultShortlist)
		h.srv.gate, h.srv.gateKinds = k+3, map[reqKind]bool{kindRoute: true, kindPrelim: true, kindProbe: true, kindEmbed: true}
		_, rec := h.ask(Request{Text: query})
		if rec.Status != store.StatusDone || rec.Tool != tool || rec.Call == nil || rec.Call.Error != "" {
			t.Fatalf("status %s (%s), tool %q, call %+v", rec.Status, rec.Error, rec.Tool, rec.Call)
		}
		emits, path := 1, store.EmissionGuided
		if reuse == ReuseAuto {
			emits, path = 0, store.EmissionGrounding
		}
		if rec.Emission == nil || rec.Emission.Path != path {
			t.Errorf("emission %+v, want path %s", rec.Emission, path)
		}
		if sl := rec.Grounding.Shortlist; (sl == nil) != (n <= k) || sl != nil && (sl.K != k || sl.Late != 0 || sl.Scored != k) {
			t.Errorf("shortlist %+v, want the top %d of %d called at once", sl, k, n)
		}
		if h.st != nil {
			cut := 0
			for _, g := range h.stored(rec).Grounding {
				if g.ResponseKind == store.ResponseCut {
					cut++
				}
			}
			if cut != n-k {
				t.Errorf("%d stored grounding rows of tools outside the shortlist, want %d", cut, n-k)
			}
		}
		want := map[reqKind]int{kindRoute: 1, kindPrelim: 1, kindProbe: k, kindEmbed: 1, kindEmit: emits, kindAnswer: 1}
		for k, w := range want {
			got := h.srv.count(k)
			if k == kindEmbed {
				got -= prepared
			}
			if got != w {
				t.Errorf("%s requests: %d, want %d", k, got, w)
			}
		}
		if total := h.srv.total() - prepared; total != k+4+emits {
			t.Errorf("%d model calls, want %d", total, k+4+emits)
		}
		byRole := map[store.ModelRole]int{}
		for _, u := range rec.Usage {
			byRole[u.Role] = u.Calls
		}
		if byRole[store.RoleChat] != 2+emits || byRole[store.RoleGrounding] != k+1 || byRole[store.RoleEmbedding] != 1 {
			t.Errorf("usage per role %v, want chat %d, grounding %d, embedding 1", byRole, 2+emits, k+1)
		}
		if len(rec.ModelCalls) != k+4+emits {
			t.Errorf("%d model calls recorded", len(rec.ModelCalls))
		}
		if rec.Timings.Route <= 0 || rec.Timings.Route > rec.Timings.Ground {
			t.Errorf("routing %s should run inside grounding's %s", rec.Timings.Route, rec.Timings.Ground)
		}
	})
}
