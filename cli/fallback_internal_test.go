package cli

import (
	"context"
	"errors"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
)

// The fallback engine's prober gives the serving prober's call
// confidence: the offline engine's once the model's server is down, none
// while a model prober (which reads no confidence) serves.
func TestFallbackProberReadsThroughTheServingEngine(t *testing.T) {
	t.Parallel()
	a := chatApp(t, nil, nil, t.TempDir(), true)
	reg, err := a.registry()
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := reg.Spec("Calculator")
	off := a.offlineEngine(reg.Specs()).Grounding()
	model := off
	model.Prober = perQueryProber{plainProber{off.Prober}}
	for _, tc := range []struct {
		name    string
		down    map[llm.Role]error
		reading bool
	}{
		{"model serves", map[llm.Role]error{}, false},
		{"server down", map[llm.Role]error{llm.RoleGrounding: errors.New("server unreachable")}, true},
	} {
		f := &groundingFallback{model: model, offline: off, servers: &serverCheck{done: true, down: tc.down}}
		probers := []grounding.Prober{f.engine().Prober}
		if pq, ok := f.engine().Prober.(grounding.PerQuery); ok {
			probers = append(probers, pq.ForQuery())
		}
		for _, p := range probers {
			reader, ok := p.(grounding.CallReader)
			if !ok {
				t.Fatalf("%s: %T gives no readings", tc.name, p)
			}
			call, r, err := reader.ReadCall(context.Background(), spec, "what is 17 * 23")
			if err != nil || call == "" {
				t.Fatalf("%s: call %q, %v", tc.name, call, err)
			}
			if _, perQuery := p.(fallbackQueryProber); len(probers) != 2 || (p != probers[0]) != perQuery {
				t.Errorf("%s: %T: want the fallback prober, then its per-query view", tc.name, p)
			}
			if (r != nil) != tc.reading {
				t.Errorf("%s (%T): reading %+v, want one: %v", tc.name, p, r, tc.reading)
			}
		}
	}
}

// perQueryProber is a model prober with per-query views (as the model
// engine's is), so that the fallback hands out its per-query prober.
type perQueryProber struct{ grounding.Prober }

func (p perQueryProber) ForQuery() grounding.Prober { return p }
