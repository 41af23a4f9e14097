package agent

import (
	"strings"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
)

// agent.reuse_grounding_call decides who writes the call in chat mode: the
// chosen tool's q_i from grounding, or the chat model. The emission record
// says which path wrote it, and a q_i the machine rejects falls back to the
// chat model.
func TestReuseGroundingCall(t *testing.T) {
	t.Parallel()
	noCall := map[reqKind]func(modelRequest) reply{
		kindProbe: func(r modelRequest) reply { return chatReply(t, "I would need a calculator for that.", "") },
	}
	cases := []struct {
		name     string
		reuse    ReuseCall
		model    bool // model grounding on the chat model's server (else offline grounding)
		script   map[reqKind]func(modelRequest) reply
		emits    int
		path     store.Emission
		attempts []store.Emission
	}{
		{"auto, small model is the chat model", ReuseAuto, true, nil, 0, store.EmissionGrounding, []store.Emission{store.EmissionGrounding}},
		{"never", ReuseNever, true, nil, 1, store.EmissionGuided, []store.Emission{store.EmissionGuided}},
		{"auto, offline grounding: the chat model writes", ReuseAuto, false, nil, 1, store.EmissionGuided, []store.Emission{store.EmissionGuided}},
		{"always, offline grounding", ReuseAlways, false, nil, 0, store.EmissionOffline, []store.Emission{store.EmissionOffline}},
		{"auto, no call from grounding: falls back", ReuseAuto, true, noCall, 1, store.EmissionGuided,
			[]store.Emission{store.EmissionGrounding, store.EmissionGuided}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, modelGrounding: c.model, route: grounding.RouteCombined,
				confirmBelow: 0.01, reuse: c.reuse, script: c.script})
			_, rec := h.ask(Request{Text: calcQuery})
			if rec.Status != store.StatusDone || rec.Tool != "Calculator" || rec.Call == nil || rec.Call.Error != "" {
				t.Fatalf("status %s (%s), tool %q, call %+v", rec.Status, rec.Error, rec.Tool, rec.Call)
			}
			if got := h.srv.count(kindEmit); got != c.emits {
				t.Errorf("%d emission requests, want %d", got, c.emits)
			}
			em := rec.Emission
			if em == nil || em.Path != c.path || em.Rejected {
				t.Fatalf("emission %+v, want path %s", em, c.path)
			}
			var paths []store.Emission
			for _, a := range em.Attempts {
				paths = append(paths, a.Path)
			}
			if len(paths) != len(c.attempts) {
				t.Fatalf("attempts %v, want %v", paths, c.attempts)
			}
			for i := range paths {
				if paths[i] != c.attempts[i] {
					t.Fatalf("attempts %v, want %v", paths, c.attempts)
				}
			}
			if h.st != nil {
				if got := h.stored(rec).Emission; got != c.path {
					t.Errorf("stored emission path %q, want %q", got, c.path)
				}
			}
		})
	}
}

func TestReuseGroundingCallSetting(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]ReuseCall{"": ReuseAuto, "auto": ReuseAuto, "Always": ReuseAlways, "never": ReuseNever} {
		if got, ok := ParseReuseCall(in); !ok || got != want {
			t.Errorf("ParseReuseCall(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	lib := newLibrary(t, libOpts{})
	_, err := New(Config{Tools: lib.reg, Grounding: grounding.Engine{}, ReuseGroundingCall: "sometimes"})
	if err == nil || !strings.Contains(err.Error(), "reuse_grounding_call") {
		t.Errorf("New with reuse_grounding_call sometimes: %v", err)
	}
}
