package offline_test

import (
	"context"
	"testing"

	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/place"
	"github.com/gear-chat/gear/tools/timezone"
)

// TestZoneCallsAgreeWithTheTool: the place grounding writes into a clock
// call is the zone the tool answers for when a person writes the zone the
// way the query did — one resolver (tools/place) reads both.
func TestZoneCallsAgreeWithTheTool(t *testing.T) {
	g, err := place.Load()
	if err != nil {
		t.Fatal(err)
	}
	spec := timezone.NewCurrentTime(timezone.Options{}).Spec()
	eng := offline.New(offline.Options{Places: g, Tools: []tools.Spec{spec}})
	r := timezone.NewResolver(g)
	tests := []struct{ query, written string }{
		{"what time is it in pacific time", "Pacific Time"},
		{"what time is it in eastern standard time", "Eastern Standard Time"},
		{"what's the time in Lisbon", "Lisbon"},
		{"current time in PST", "PST"},
	}
	for _, tt := range tests {
		text, err := eng.Call(context.Background(), spec, tt.query)
		if err != nil || text == "" {
			t.Errorf("%q: no call (%v)", tt.query, err)
			continue
		}
		call, err := tools.Parse(text, func(string) (tools.Spec, bool) { return spec, true })
		if err != nil || len(call.Args) != 1 {
			t.Errorf("%q: call %s: %v", tt.query, text, err)
			continue
		}
		got, err := r.Resolve(call.Args[0].Value.Text())
		if err != nil {
			t.Errorf("%q: the call's place %s does not resolve: %v", tt.query, text, err)
			continue
		}
		want, err := r.Resolve(tt.written)
		if err != nil {
			t.Errorf("%q: the tool does not read %q: %v", tt.query, tt.written, err)
			continue
		}
		if got.Name != want.Name {
			t.Errorf("%q: grounding calls %s (%s), the tool reads %q as %s", tt.query, text, got.Name, tt.written, want.Name)
		}
	}
}
