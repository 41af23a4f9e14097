package cli

import (
	"context"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
)

// One invocation makes one client per model role: the agent's chat model
// is also grounding's router, so an unknown server is probed once.
func TestModelClientsSharedByAgentAndGrounding(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"GEAR_CHAT_MODEL": "chat-model", "GEAR_CHAT_BASE_URL": "http://127.0.0.1:9/v1",
		"GEAR_GROUNDING_MODEL": "slm", "GEAR_GROUNDING_BASE_URL": "http://127.0.0.1:9/v1",
		"GEAR_EMBEDDING_MODEL": "embedder", "GEAR_EMBEDDING_BASE_URL": "http://127.0.0.1:9/v1",
	}
	a := chatApp(t, env, nil, t.TempDir(), false)
	ctx := context.Background()
	if _, err := a.newAgent(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.groundingEngine(ctx, nil); err != nil {
		t.Fatal(err)
	}
	eng := a.fallback.model
	chat, slm, enc := a.clients[llm.RoleChat], a.clients[llm.RoleGrounding], a.clients[llm.RoleEmbedding]
	if chat == nil || slm == nil || enc == nil {
		t.Fatalf("clients %v: want one per role", a.clients)
	}
	if eng.Router != grounding.YesNo(chat) || eng.Encoder != grounding.Encoder(enc) {
		t.Errorf("grounding's router %p and encoder %p are not the invocation's chat %p and embedding %p clients",
			eng.Router, eng.Encoder, chat, enc)
	}
}

// The fallback wrapper keeps what the model engine brings for speed: the
// offline prefilter that starts the shortlist's calls, and a prober per
// query whose requests share one response budget.
func TestFallbackKeepsPrefilterAndSharedBudget(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"GEAR_GROUNDING_MODEL": "slm", "GEAR_GROUNDING_BASE_URL": "http://127.0.0.1:9/v1",
		"GEAR_EMBEDDING_MODEL": "embedder", "GEAR_EMBEDDING_BASE_URL": "http://127.0.0.1:9/v1",
	}
	a := chatApp(t, env, nil, t.TempDir(), false)
	if _, _, err := a.groundingEngine(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	eng := a.fallback.engine()
	if eng.Prefilter == nil || eng.PrefilterModel == "" {
		t.Errorf("the wrapped engine lost the prefilter: %+v", eng)
	}
	pq, ok := eng.Prober.(grounding.PerQuery)
	if !ok {
		t.Fatal("the wrapped prober makes no per-query view")
	}
	if _, ok := pq.ForQuery().(fallbackQueryProber); !ok {
		t.Errorf("ForQuery gave %T, want the model prober's per-query view behind the fallback", pq.ForQuery())
	}
}
