package offline

import (
	"math"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// TestWordEvidence: how a query's words fall on each tool — the share it
// has, the share no tool has, whether it lacks the rarest word, and how
// much of the query the engine can read at all.
func TestWordEvidence(t *testing.T) {
	t.Parallel()
	e := New(Options{})
	specs := []tools.Spec{
		indexSpec("add_postgres_server", "Add a PostgreSQL server to the configuration"),
		indexSpec("remove_server", "Remove a server from the configuration"),
		indexSpec("get_recipe", "Find a cooking recipe", "how do I bake bread?"),
	}
	rel := e.IndexTools(specs).Relevance("remove the old server from the list")
	if rel.Words == nil {
		t.Fatal("the offline scorer should tell how the query's words fall")
	}
	// Content words: remove, old, server, list ("the", "from" are stop
	// words); "old" and "list" are no tool's.
	remove := rel.Words(1)
	if math.Abs(remove.Plain-0.5) > 1e-9 {
		t.Errorf("remove_server has 2 of 4 words: plain = %v, want 0.5", remove.Plain)
	}
	if remove.Unknown <= 0.5 || remove.Unknown >= 1 {
		t.Errorf("two of four words (the rarest ones) are no tool's: unknown = %v", remove.Unknown)
	}
	if remove.MissingTop != 1 {
		t.Errorf("the rarest word (unknown) is missing: missing_top = %v, want 1", remove.MissingTop)
	}
	if remove.Legible != 1 {
		t.Errorf("every word is in Latin letters: legible = %v", remove.Legible)
	}
	add := rel.Words(0)
	if add.Plain >= remove.Plain {
		t.Errorf("add_postgres_server lacks \"remove\": plain %v should be below remove_server's %v", add.Plain, remove.Plain)
	}
	if recipe := rel.Words(2); recipe.Plain != 0 {
		t.Errorf("get_recipe has none of the words: plain = %v", recipe.Plain)
	}

	all := e.IndexTools(specs).Relevance("how do I bake bread").Words(2)
	if all.Plain != 1 || all.MissingTop != 0 || all.Unknown != 0 {
		t.Errorf("the example has every word: %+v", all)
	}
	foreign := e.IndexTools(specs).Relevance("서버를 삭제해 주세요").Words(1)
	if foreign.Legible != 0 {
		t.Errorf("no word of a Korean query is readable: legible = %v", foreign.Legible)
	}
	if empty := e.IndexTools(specs).Relevance("?!").Words(0); empty.Plain != 0 || empty.Legible != 1 {
		t.Errorf("a query without words: %+v", empty)
	}
}
