package cli

import (
	"context"
	"errors"
	"testing"

	"github.com/gear-chat/gear/tools"
)

type countingTool struct {
	spec tools.Spec
	runs *int
	fail bool
}

func (t countingTool) Spec() tools.Spec { return t.spec }

func (t countingTool) Run(context.Context, tools.Call) (tools.Result, error) {
	*t.runs++
	if t.fail {
		return tools.Result{}, errors.New("deadline")
	}
	return tools.Result{Text: "4"}, nil
}

// The estimate and the answer's grounding share a read-only tool's
// successful runs; a failed run, or a tool that may change something, is
// run again.
func TestMemoRunsRunAToolOnce(t *testing.T) {
	t.Parallel()
	param := []tools.Param{{Name: "x", Type: tools.TypeString}}
	var ro, w, bad int
	runs := &memoRuns{byCall: map[string]tools.Result{}}
	ts := runs.wrap([]tools.Tool{
		countingTool{spec: tools.Spec{Name: "Ro", Params: param, Effect: tools.EffectReadOnly}, runs: &ro},
		countingTool{spec: tools.Spec{Name: "W", Params: param, Effect: tools.EffectWrites}, runs: &w},
		countingTool{spec: tools.Spec{Name: "Bad", Params: param, Effect: tools.EffectReadOnly}, runs: &bad, fail: true},
	})
	for range 2 {
		for _, tool := range ts {
			tool.Run(t.Context(), tools.Call{Tool: tool.Spec().Name, Args: []tools.Arg{{Name: "x", Value: tools.String("a")}}})
		}
	}
	if ro != 1 || w != 2 || bad != 2 {
		t.Errorf("runs: read-only %d (want 1), writes %d (want 2), failing %d (want 2)", ro, w, bad)
	}
}
