package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/tools"
)

// TestGroundingDoesNotWaitOnAHangingTool: a read-only tool of a real (in
// process) server that never answers is run to score it, but within
// grounding's budget for external tools, not the built-in tools' one —
// here an hour, so a grounding that waited on it would never return. The
// tool is then scored by its arguments, and says so.
func TestGroundingDoesNotWaitOnAHangingTool(t *testing.T) {
	t.Parallel()
	entered := make(chan struct{}, 1)
	s := sdk.NewServer(&sdk.Implementation{Name: "slow", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "define_word", Description: "Look up the definition of an English word in the dictionary.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"word":{"type":"string","description":"the word"}},"required":["word"]}`)},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			entered <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		})
	ctx := t.Context()
	c, err := Connect(ctx, inProcess(t, ctx, "dict", s), Options{CallTimeout: time.Hour}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ts, _, err := c.Tools(ctx)
	if err != nil || len(ts) != 1 {
		t.Fatalf("%d tools, %v", len(ts), err)
	}
	reg, err := tools.NewRegistry(ts[0])
	if err != nil {
		t.Fatal(err)
	}
	opts := grounding.DefaultOptions()
	opts.ToolTimeout, opts.ExternalToolTimeout = time.Hour, 200*time.Millisecond
	g, err := grounding.New(reg, offline.New(offline.Options{Tools: reg.Specs()}).Grounding(), opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Ground(ctx, "define the word serendipity")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		// Under heavy load the budget may pass before the request left;
		// the probe must read the same either way.
		t.Log("the call never reached the tool")
	}
	got := res.Tools[0]
	if got.Status != grounding.StatusMock || !strings.Contains(got.Error, "no answer within 200ms") || got.Response == "" {
		t.Errorf("probe %+v", got)
	}
	if res.Choice.Tool != "dict.define_word" {
		t.Errorf("choice %+v", res.Choice)
	}
}
