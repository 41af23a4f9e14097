package agent

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
)

// permitAgent has the calculator and files.save, a tool that writes, from
// an MCP server.
func permitAgent(t *testing.T, allowed func(string) bool) (*Agent, *atomic.Int32, *store.Store) {
	t.Helper()
	runs := &atomic.Int32{}
	save := stubTool{spec: tools.Spec{Name: "files.save", Family: "files", Description: "save two numbers to a file",
		Effect: tools.EffectWrites, Source: tools.Source{Kind: tools.SourceMCP, Name: "files"},
		Params: []tools.Param{{Name: "a", Type: tools.TypeNumber}, {Name: "b", Type: tools.TypeNumber}}},
		run: func(context.Context, tools.Call) (tools.Result, error) { return tools.Result{Text: "saved"}, nil }, runs: runs}
	reg, err := tools.NewRegistry(calc.New(), save)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "gear.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	off := offline.New(offline.Options{Places: placeFinder{}, Tools: reg.Specs()})
	ag, err := New(Config{Tools: reg, Grounding: off.Grounding(), GroundingOptions: grounding.DefaultOptions(),
		ConfirmBelow: 0.5, Recorder: st, Allowed: allowed})
	if err != nil {
		t.Fatal(err)
	}
	return ag, runs, st
}

// runAnswering runs a turn, answering a run question with answer.
func runAnswering(t *testing.T, ag *Agent, req Request, answer string) (Record, []Confirmation) {
	t.Helper()
	turn := ag.Start(context.Background(), req)
	var asked []Confirmation
	deadline := time.After(20 * time.Second)
	for {
		evs := make(chan Event, 1)
		go func() {
			if ev, ok := turn.Next(); ok {
				evs <- ev
			} else {
				close(evs)
			}
		}()
		select {
		case ev, ok := <-evs:
			if !ok {
				return turn.Wait(), asked
			}
			if c, isQ := ev.(ConfirmationNeeded); isQ {
				asked = append(asked, c.Confirmation)
				if err := turn.Confirm(answer); err != nil {
					t.Fatal(err)
				}
			}
		case <-deadline:
			turn.Cancel()
			t.Fatal("the turn did not end")
		}
	}
}

func TestAToolThatWritesAsksBeforeItRuns(t *testing.T) {
	t.Parallel()
	ag, runs, st := permitAgent(t, nil)

	rec, asked := runAnswering(t, ag, Request{Text: "/GEAR files.save(2, 3)"}, NoTool)
	if len(asked) != 1 || asked[0].Kind != ConfirmRun || asked[0].Source != "mcp:files" || asked[0].Effect != "writes" ||
		asked[0].Candidates[0].Tool != "files.save" {
		t.Fatalf("asked %+v", asked)
	}
	if runs.Load() != 0 || !strings.Contains(rec.Answer, "files.save was not run") || rec.Permission == nil || rec.Permission.Chosen != NoTool {
		t.Errorf("declined: %d runs, answer %q, permission %+v", runs.Load(), rec.Answer, rec.Permission)
	}

	rec, asked = runAnswering(t, ag, Request{Text: "/GEAR files.save(2, 3)"}, "files.save")
	if len(asked) != 1 || runs.Load() != 1 || rec.Call == nil || rec.Call.Response != "saved" {
		t.Errorf("accepted: asked %d, %d runs, call %+v", len(asked), runs.Load(), rec.Call)
	}
	if rec.Source == nil || rec.Source.String() != "mcp:files" || rec.Call.Source.Name != "files" {
		t.Errorf("source: %+v / %+v", rec.Source, rec.Call.Source)
	}
	turn, err := st.Turn(context.Background(), rec.TurnID)
	if err != nil || len(turn.Calls) != 1 || turn.Calls[0].Source != (store.ToolSource{Kind: "mcp", Name: "files"}) {
		t.Errorf("stored call: %+v, %v", turn.Calls, err)
	}

	// --yes answers the question; Allow stops it being asked.
	rec, asked = runAnswering(t, ag, Request{Text: "/GEAR files.save(2, 3)", Yes: true}, NoTool)
	if len(asked) != 0 || runs.Load() != 2 || rec.Permission == nil || !rec.Permission.Auto {
		t.Errorf("--yes: asked %d, %d runs, permission %+v", len(asked), runs.Load(), rec.Permission)
	}
	ag.Allow("files.save")
	_, asked = runAnswering(t, ag, Request{Text: "/GEAR files.save(2, 3)"}, NoTool)
	if len(asked) != 0 || runs.Load() != 3 {
		t.Errorf("allowed: asked %d, %d runs", len(asked), runs.Load())
	}

	// The read-only calculator never asks.
	_, asked = runAnswering(t, ag, Request{Text: "/GEAR Calculator(2 + 3)"}, NoTool)
	if len(asked) != 0 {
		t.Errorf("the calculator asked: %+v", asked)
	}
}

func TestAllowedInTheConfigRunsWithoutAsking(t *testing.T) {
	t.Parallel()
	ag, runs, _ := permitAgent(t, func(tool string) bool { return tool == "files.save" })
	_, asked := runAnswering(t, ag, Request{Text: "/GEAR files.save(2, 3)"}, NoTool)
	if len(asked) != 0 || runs.Load() != 1 {
		t.Errorf("asked %d, %d runs", len(asked), runs.Load())
	}
}
