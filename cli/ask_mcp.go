package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/mcp"
)

// gear ask answers one query, and a server still connecting must not hold
// that answer when it cannot change it. The rule (docs/mcp-and-declared-tools.md):
//
//  1. gear grounds the query offline, as an estimate, over the library with
//     the servers that are ready and the tools each still-connecting server
//     offered the last time it was reached (kept in the history database).
//     Those remembered tools never run (each is scored by its arguments);
//     the library's run as in any grounding, and their answers are kept for
//     the answer's own grounding, so each runs once (memoRuns).
//  2. gear waits for a still-connecting server (up to mcp.connect_timeout)
//     only when
//     - one of its remembered tools is the best candidate or scores within
//     closeF of it, or
//     - gear remembers nothing of it and the estimate is not decisive (no
//     tool is chosen with the confidence gear would act on without
//     asking, agent.confirm_below), or the server was named with --mcp
//     for this run (gear has never seen it, and the user brought it for
//     this query).
//  3. Otherwise gear answers with what is ready, and says so on one line:
//     "note: mcp server NAME: still connecting, answered without it".
//
// A server that fails fails at once and never delays anything.

// closeF is how near a remembered tool's final score must come to the
// best's to be worth the wait: under the calibrated temperature (0.039)
// it is about a quarter of the best's probability, and a tool that is run
// for real (not scored by its arguments, as in the estimate) can gain that
// much.
const closeF = 0.05

// askRegistry is gear ask's tool library for query: the built-in and
// declared tools, and the MCP tools of the servers ready (or worth
// waiting for, by the rule above). The ready servers' listings are
// remembered for the next run.
func (a *app) askRegistry(ctx context.Context, st *store.Store, query string) (*tools.Registry, error) {
	m, err := a.mcpManager(ctx)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return a.library(nil)
	}
	runs := &memoRuns{byCall: map[string]tools.Result{}}
	if pending := connectingServers(m); len(pending) > 0 {
		if strings.HasPrefix(strings.TrimSpace(query), "/") {
			// /GEAR and the like may name any tool: all are waited for.
			m.Wait(ctx)
		} else if wait := a.serversWorthTheWait(ctx, st, m, pending, query, runs); len(wait) > 0 {
			m.WaitFor(ctx, wait...)
		}
	}
	a.noteMCPAs(m, "still connecting, answered without it")
	rememberListings(ctx, st, m)
	reg, err := a.library(m.Tools())
	if err != nil || len(runs.byCall) == 0 {
		return reg, err
	}
	return tools.NewRegistry(runs.wrap(reg.Tools())...)
}

// memoRuns keeps the answers the estimate's runs of read-only tools
// gave, so the answer's own grounding (and the call it makes) does not
// run them again: one gear ask runs a tool once.
type memoRuns struct {
	mu     sync.Mutex
	byCall map[string]tools.Result
}

func (r *memoRuns) wrap(ts []tools.Tool) []tools.Tool {
	out := make([]tools.Tool, len(ts))
	for i, t := range ts {
		if t.Spec().Effect.ReadOnly() {
			out[i] = memoTool{Tool: t, runs: r}
		} else {
			out[i] = t
		}
	}
	return out
}

// memoTool is a read-only tool whose successful runs are kept by call.
type memoTool struct {
	tools.Tool
	runs *memoRuns
}

func (t memoTool) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	key := call.String()
	t.runs.mu.Lock()
	res, ok := t.runs.byCall[key]
	t.runs.mu.Unlock()
	if ok {
		return res, nil
	}
	res, err := t.Tool.Run(ctx, call)
	if err == nil {
		// A failure (a deadline the estimate's budget set, say) is not
		// kept: the answer's grounding tries again.
		t.runs.mu.Lock()
		t.runs.byCall[key] = res
		t.runs.mu.Unlock()
	}
	return res, err
}

func connectingServers(m *mcp.Manager) []mcp.Status {
	var out []mcp.Status
	for _, s := range m.Statuses() {
		if s.State == mcp.StateConnecting {
			out = append(out, s)
		}
	}
	return out
}

// serversWorthTheWait applies the rule to the servers still connecting.
func (a *app) serversWorthTheWait(ctx context.Context, st *store.Store, m *mcp.Manager, pending []mcp.Status, query string, runs *memoRuns) []string {
	all := func() []string {
		names := make([]string, len(pending))
		for i, p := range pending {
			names[i] = p.Server
		}
		return names
	}
	var remembered []tools.Tool
	known := map[string]bool{}
	for _, p := range pending {
		specs := recalledListing(ctx, st, p)
		if specs == nil {
			continue
		}
		known[p.Server] = true
		for _, s := range specs {
			remembered = append(remembered, scoreOnly{s})
		}
	}
	estimate, err := a.estimateGrounding(ctx, m.Tools(), remembered, query, runs)
	if err != nil {
		// Without an estimate nothing says the servers cannot matter.
		return all()
	}
	flagged := map[string]bool{}
	if servers, err := a.mcpServers(); err == nil {
		for _, s := range servers {
			if _, configured := a.cfg.MCP.Servers[s.Name]; !configured {
				flagged[s.Name] = true
			}
		}
	}
	return worthTheWait(estimate, pending, known, flagged, a.cfg.Agent.ConfirmBelow)
}

// worthTheWait is the rule's decision, given the estimate over the ready
// tools and the remembered ones (whose Source names their server).
func worthTheWait(res estimate, pending []mcp.Status, known, flagged map[string]bool, confirmBelow float64) []string {
	decisive := res.result.Route.NeedsTool && res.result.Choice.Tool != grounding.None && res.result.Choice.Confidence >= confirmBelow
	if !res.result.Route.NeedsTool {
		decisive = res.result.Route.Probability <= grounding.DefaultDecisiveBelow
	}
	best, haveBest := res.result.Best()
	var wait []string
	for _, p := range pending {
		must := false
		switch {
		case !known[p.Server]:
			must = flagged[p.Server] || !decisive
		case !decisive:
			must = true
		case haveBest:
			for _, ts := range res.result.Tools {
				if res.server[ts.Tool] == p.Server && ts.F >= best.F-closeF {
					must = true
				}
			}
		}
		if must {
			wait = append(wait, p.Server)
		}
	}
	return wait
}

// estimate is a grounding result with each tool's MCP server ("" for
// the others).
type estimate struct {
	result *grounding.Result
	server map[string]string
}

// estimateGrounding grounds query offline over the library with the
// ready servers' tools, and remembered (tools of servers still
// connecting, never run: each is scored by its arguments). The library's
// read-only tools run as in any grounding, through runs, which keeps
// their answers for the answer's own grounding.
func (a *app) estimateGrounding(ctx context.Context, ready, remembered []tools.Tool, query string, runs *memoRuns) (estimate, error) {
	server := map[string]string{}
	for _, t := range append(append([]tools.Tool(nil), ready...), remembered...) {
		if s := t.Spec(); s.Source.Kind == tools.SourceMCP {
			server[s.Name] = s.Source.Name
		}
	}
	full, err := a.library(ready)
	if err != nil {
		return estimate{}, err
	}
	reg, err := tools.NewRegistry(append(runs.wrap(full.Tools()), remembered...)...)
	if err != nil {
		return estimate{}, err
	}
	opts := a.groundingOptions()
	opts.Route = grounding.RouteThreshold
	g, err := grounding.New(reg, a.offlineEngine(reg.Specs()).Grounding(), opts)
	if err != nil {
		return estimate{}, err
	}
	res, err := g.Ground(ctx, query)
	if err != nil {
		return estimate{}, err
	}
	return estimate{result: res, server: server}, nil
}

// scoreOnly is a tool as the estimate sees it: its spec, marked as one
// grounding never runs.
type scoreOnly struct{ spec tools.Spec }

func (t scoreOnly) Spec() tools.Spec {
	s := t.spec
	if s.Effect.ReadOnly() || s.Effect == "" {
		s.Effect = tools.EffectWrites
	}
	return s
}

func (t scoreOnly) Run(context.Context, tools.Call) (tools.Result, error) {
	return tools.Result{}, errors.New("not run: an estimate")
}

// listingKey is the history setting that remembers a server's tools,
// by its name and address (hashed: an address may hold a key).
func listingKey(s mcp.Status) string {
	h := sha256.Sum256([]byte(s.Address))
	return "mcp.listing." + s.Server + "." + hex.EncodeToString(h[:8])
}

// maxRemembered bounds what one server's listing may take in the history.
const maxRemembered = 2 << 20

// recalledListing is the server's tools as last listed, or nil.
func recalledListing(ctx context.Context, st *store.Store, s mcp.Status) []tools.Spec {
	if st == nil {
		return nil
	}
	v, ok, err := st.Setting(ctx, listingKey(s))
	if err != nil || !ok {
		return nil
	}
	var specs []tools.Spec
	if json.Unmarshal([]byte(v), &specs) != nil {
		return nil
	}
	for _, sp := range specs {
		if sp.Source.Kind != tools.SourceMCP || sp.Source.Name != s.Server {
			return nil
		}
	}
	return specs
}

// rememberListings keeps each ready server's tools for the next run's
// estimate. A failure to write is no reason to fail the answer.
func rememberListings(ctx context.Context, st *store.Store, m *mcp.Manager) {
	if st == nil {
		return
	}
	byServer := map[string][]tools.Spec{}
	for _, t := range m.Tools() {
		s := t.Spec()
		byServer[s.Source.Name] = append(byServer[s.Source.Name], s)
	}
	for _, s := range m.Statuses() {
		if s.State != mcp.StateReady {
			continue
		}
		data, err := json.Marshal(byServer[s.Server])
		if err != nil || len(data) > maxRemembered {
			continue
		}
		key := listingKey(s)
		if old, ok, _ := st.Setting(ctx, key); ok && old == string(data) {
			continue
		}
		_ = st.SetSetting(ctx, key, string(data))
	}
}
