package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
)

func (a *app) replayCommand() *cobra.Command {
	var since string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "replay [--since DATE]",
		Short: "Re-ground past queries with the current tools and engines and list where the decision changed",
		Long: `gear replay is a regression check for anyone changing tools, models or
grounding settings: it takes the recorded turns (since DATE, YYYY-MM-DD in
local time, or an RFC 3339 time) and grounds each query again — routing and
GEAR's choice — with the current tool library, engine and configuration,
then lists the turns whose routing ("needs a tool?") or chosen tool changed.

Only grounding runs: as in a live turn's grounding, each tool's probe call
runs the tool (the calculator and the clocks, locally) or takes the tool's
mock response (weather, location and Wikipedia declare one, so nothing is
fetched); no call is emitted or executed and no answer is written, and the
history is not changed.

A turn whose routing grounding decided is compared on routing and tool; a
direct-mode turn (/GEAR) or one where you named the tool, on the tool
grounding ranks first. Baseline turns and exact calls had no grounding and
are skipped. Turns you flagged "wrong tool" say whether the new choice is
the tool you wanted; turns you rated up that changed are marked.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var from time.Time
			if since != "" {
				q, err := store.ParseQuery("since:"+since, time.Local)
				if err != nil {
					return usageErrorf("replay: --since %s: want YYYY-MM-DD or an RFC 3339 time", since)
				}
				from = q.Since
			}
			res, err := a.replay(cmd.Context(), from)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), res)
			}
			writeReplay(cmd.OutOrStdout(), res)
			return nil
		},
	}
	cmd.Flags().StringVar(&since, "since", "", "only turns started on or after this day (YYYY-MM-DD) or time")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

type replayResult struct {
	Engine   string         `json:"engine"`
	Since    *time.Time     `json:"since,omitempty"`
	Replayed int            `json:"replayed"`
	Skipped  map[string]int `json:"skipped"`
	// RouteChanged and ToolChanged count the changes (a turn may count in
	// both); Fixed counts flagged turns whose new choice is the wanted
	// tool, of Flagged; ApprovedChanged counts turns rated up that changed.
	RouteChanged    int `json:"route_changed"`
	ToolChanged     int `json:"tool_changed"`
	Flagged         int `json:"flagged"`
	Fixed           int `json:"fixed"`
	ApprovedChanged int `json:"approved_changed"`
	// Unavailable counts changed turns whose recorded tool is not in the
	// library now (its MCP server or declared file is not loaded): a
	// change of the library, not of grounding.
	Unavailable int            `json:"unavailable"`
	Changes     []replayChange `json:"changes"`
}

type replayChange struct {
	TurnID  int64     `json:"turn_id"`
	Started time.Time `json:"started"`
	Query   string    `json:"query"`
	// DecidedBy is what decided the recorded route: grounding, mode
	// (direct) or user (a named tool).
	DecidedBy     string  `json:"decided_by"`
	Was           string  `json:"was"`
	Now           string  `json:"now"`
	NowConfidence float64 `json:"now_confidence"`
	RouteChanged  bool    `json:"route_changed"`
	ToolChanged   bool    `json:"tool_changed"`
	// WasSource is where the recorded tool came from, when it was called;
	// WasMissing says it is not in the library now.
	WasSource string `json:"was_source,omitempty"`
	// WasCallReading is the recorded call confidence (nil when none was
	// recorded); NowCallReading the new grounding's reading of the
	// chosen tool's call (nil when its prober gives none).
	WasCallReading *store.CallReading     `json:"was_call_reading,omitempty"`
	NowCallReading *grounding.CallReading `json:"now_call_reading,omitempty"`
	WasMissing     bool                   `json:"was_missing,omitempty"`
	Note           string                 `json:"note,omitempty"`
}

// Why a turn is not replayed.
const (
	replaySkipBaseline   = "baseline turns (no grounding)"
	replaySkipUngrounded = "exact calls and turns that failed before grounding"
)

func (a *app) replay(ctx context.Context, since time.Time) (replayResult, error) {
	res := replayResult{Skipped: map[string]int{}, Changes: []replayChange{}}
	if !since.IsZero() {
		res.Since = &since
	}
	st, err := a.openStore(ctx)
	if err != nil {
		return res, err
	}
	defer st.Close()
	dump, err := st.Export(ctx)
	if err != nil {
		return res, err
	}
	g, engine, done, err := a.grounder(ctx, st)
	if err != nil {
		return res, err
	}
	defer done()
	res.Engine = engine
	for _, c := range dump.Conversations {
		for _, t := range c.Turns {
			if t.Started.Before(since) {
				continue
			}
			switch {
			case t.Mode == store.ModeBaseline:
				res.Skipped[replaySkipBaseline]++
				continue
			case !survey.GroundingRan(t) || strings.TrimSpace(t.Query) == "":
				res.Skipped[replaySkipUngrounded]++
				continue
			}
			now, err := g.Ground(ctx, t.Query)
			if err != nil {
				return res, fmt.Errorf("replay: turn %d: %w", t.TurnID, err)
			}
			res.Replayed++
			if ch, changed := compareTurn(t, now); changed {
				if ch.WasMissing {
					res.Unavailable++
				}
				res.Changes = append(res.Changes, ch)
				if ch.RouteChanged {
					res.RouteChanged++
				}
				if ch.ToolChanged {
					res.ToolChanged++
				}
				if t.Rating != nil && t.Rating.Score == store.ScoreUp && !t.Rating.WrongTool {
					res.ApprovedChanged++
				}
			}
			if r := t.Rating; r != nil && r.WrongTool && r.WantedTool != "" {
				res.Flagged++
				if strings.EqualFold(choiceOf(now), r.WantedTool) {
					res.Fixed++
				}
			}
		}
	}
	return res, nil
}

// recordedBest is the tool the recorded grounding ranked first.
func recordedBest(t store.Turn) string {
	best := ""
	top := 0.0
	for _, s := range t.Grounding {
		if best == "" || s.Final > top {
			best, top = s.Tool, s.Final
		}
	}
	if best == "" {
		return t.Tool
	}
	return best
}

// choiceOf is grounding's choice: a tool, or none.
func choiceOf(r *grounding.Result) string {
	if !r.Route.NeedsTool {
		return grounding.None
	}
	return r.Choice.Tool
}

// compareTurn compares a recorded turn with its new grounding.
func compareTurn(t store.Turn, now *grounding.Result) (replayChange, bool) {
	ch := replayChange{TurnID: t.TurnID, Started: t.Started, Query: t.Query, WasCallReading: t.CallReading}
	best, _ := now.Best()
	switch {
	case t.RouteBy != "" && t.RouteBy != store.RouteByMode && t.RouteBy != store.RouteByUser:
		ch.DecidedBy = "grounding"
		ch.Was = grounding.None
		if t.Route == store.RouteTool {
			ch.Was = recordedBest(t)
		}
		ch.Now, ch.NowConfidence = choiceOf(now), now.Choice.Confidence
		if now.Route.NeedsTool {
			ch.NowCallReading = now.Choice.Reading
		}
		ch.RouteChanged = (t.Route == store.RouteTool) != now.Route.NeedsTool
		ch.ToolChanged = !ch.RouteChanged && ch.Was != ch.Now
	default:
		ch.DecidedBy = "user"
		if t.RouteBy == store.RouteByMode {
			ch.DecidedBy = "mode"
		}
		ch.Was, ch.Now, ch.NowConfidence = recordedBest(t), best.Tool, best.Probability
		ch.NowCallReading = best.Reading
		ch.ToolChanged = ch.Was != ch.Now
	}
	if ch.Was != grounding.None && ch.Was != "" {
		for _, c := range t.Calls {
			if c.Tool == ch.Was && !c.Source.IsBuiltin() {
				ch.WasSource = c.Source.String()
			}
		}
		ch.WasMissing = true
		for _, ts := range now.Tools {
			if ts.Tool == ch.Was {
				ch.WasMissing = false
			}
		}
	}
	if ch.WasMissing {
		from := ""
		if ch.WasSource != "" {
			from = " (from " + ch.WasSource + ")"
		}
		ch.Note = ch.Was + from + " is not in the library now: load its server or file (--mcp, mcp.servers, --tools) to compare"
		return ch, ch.RouteChanged || ch.ToolChanged
	}
	if r := t.Rating; r != nil {
		switch {
		case r.WrongTool && r.WantedTool != "" && strings.EqualFold(ch.Now, r.WantedTool):
			ch.Note = "flagged wrong, wanted " + r.WantedTool + ": now right"
		case r.WrongTool && r.WantedTool != "":
			ch.Note = "flagged wrong, wanted " + r.WantedTool + ": still not chosen"
		case r.WrongTool:
			ch.Note = "flagged wrong"
		case r.Score == store.ScoreUp:
			ch.Note = "was rated up: check the new choice"
		}
	}
	return ch, ch.RouteChanged || ch.ToolChanged
}

func writeReplay(w io.Writer, r replayResult) {
	since := ""
	if r.Since != nil {
		since = " since " + r.Since.Local().Format("2006-01-02 15:04")
	}
	fmt.Fprintf(w, "replayed %s%s\n", plural(int64(r.Replayed), "turn"), since)
	fmt.Fprintf(w, "engine: %s\n", oneLine(r.Engine))
	for _, k := range sortedKeys(r.Skipped) {
		fmt.Fprintf(w, "skipped %d %s\n", r.Skipped[k], k)
	}
	fmt.Fprintln(w, "grounding only: probes ran the local tools or took the mocks; no call emitted, no answer written")
	fmt.Fprintf(w, "changed: %d (routing %d, tool %d); flagged turns now right: %d of %d; rated-up turns changed: %d\n",
		len(r.Changes), r.RouteChanged, r.ToolChanged, r.Fixed, r.Flagged, r.ApprovedChanged)
	if r.Unavailable > 0 {
		fmt.Fprintf(w, "of the changes, %d recorded a tool that is not in the library now\n", r.Unavailable)
	}
	if len(r.Changes) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, c := range r.Changes {
		what := "tool changed"
		if c.RouteChanged {
			what = "routing changed"
		}
		line := fmt.Sprintf("turn %d  %s  %s -> %s (%.2f)  %s", c.TurnID, c.Started.Local().Format("2006-01-02"),
			oneLine(c.Was), oneLine(c.Now), c.NowConfidence, what)
		fmt.Fprintln(w, clipCells(line, reportWidth))
		fmt.Fprintln(w, clipCells("    "+oneLine(c.Query), reportWidth))
		if c.DecidedBy != "grounding" {
			fmt.Fprintf(w, "    decided by %s: compared on the tool grounding ranks first\n", c.DecidedBy)
		}
		if c.Note != "" {
			fmt.Fprintln(w, clipCells("    "+oneLine(c.Note), reportWidth))
		}
	}
}
