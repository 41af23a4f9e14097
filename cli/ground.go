package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/builtin"
)

func (a *app) groundCommand() *cobra.Command {
	var asJSON bool
	var lf libraryFlags
	cmd := &cobra.Command{
		Use:   "ground QUERY",
		Short: "Show how GEAR grounds a query: every tool's S, P, f, call and response, the route and the choice",
		Long: `Ground one query with GEAR and show the whole decision: the preliminary
answer, every tool's semantic score S, pattern score P, final score f,
probability, generated call and response (or mock, or why there is none),
whether the query needs a tool at all, and the chosen tool with its
calibrated confidence. The engine that ran is named: "offline" (built in, no
network) unless a grounding model is configured. Words after QUERY are
joined to it, so quoting is optional. With --library LIBRARY.json the tools
are that file's (docs/benchmarks.md), gear's own too with --with-builtins.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			query := strings.TrimSpace(strings.Join(args, " "))
			if query == "" {
				return usageErrorf("ground: the query is empty")
			}
			var g *grounding.Grounder
			var engine string
			var done func()
			var err error
			switch {
			case lf.path != "":
				st, closeStore := a.libraryStore(cmd.Context(), lf)
				defer closeStore()
				reg, _, lerr := a.libraryRegistry(cmd.Context(), "ground: --library: ", lf, st)
				if lerr != nil {
					return lerr
				}
				g, engine, done, err = a.grounderOver(cmd.Context(), st, reg)
			case lf.withBuiltins:
				return usageErrorf("ground: --with-builtins adds gear's tools to a --library; give --library LIBRARY.json")
			default:
				g, engine, done, err = a.grounder(cmd.Context(), nil)
			}
			if err != nil {
				return err
			}
			defer done()
			res, err := g.Ground(cmd.Context(), query)
			if err != nil {
				return fmt.Errorf("ground: %w", err)
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), res)
			}
			writeGrounding(cmd.OutOrStdout(), engine, res)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole result as one JSON object")
	lf.register(cmd)
	return cmd
}

// groundingOptions maps the configuration onto GEAR's options.
func (a *app) groundingOptions() grounding.Options {
	opts := grounding.DefaultOptions()
	g := a.cfg.Grounding
	opts.Gamma, opts.Lambda = g.Gamma, g.Lambda
	opts.Threshold, opts.Temperature, opts.NoneScore = g.Threshold, g.Temperature, g.NoneScore
	opts.Confidence = grounding.ConfidenceMap{
		None: grounding.Platt{A: g.ConfidenceNone.A, B: g.ConfidenceNone.B},
		// The call's evidence terms are fitted with A and B and are not
		// configured: they keep the shipped fit.
		Tool: grounding.Platt{A: g.ConfidenceTool.A, B: g.ConfidenceTool.B,
			NoCall: opts.Confidence.Tool.NoCall, FreeText: opts.Confidence.Tool.FreeText, Doubted: opts.Confidence.Tool.Doubted},
	}
	opts.Route = grounding.RouteMode(g.Route)
	if g.ToolTimeout > 0 {
		opts.ToolTimeout = g.ToolTimeout.D()
	}
	if g.ExternalToolTimeout > 0 {
		opts.ExternalToolTimeout = g.ExternalToolTimeout.D()
	}
	opts.Shortlist, opts.Concurrency, opts.SpeculativeRoute = g.Shortlist, g.Concurrency, g.SpeculativeRoute
	return opts
}

// grounder builds GEAR over the tool library with the configured engine:
// the model engine when the grounding role names a model, otherwise the
// offline engine. It also returns a one-line description of the engine and
// a function to call when done. A model encoder's description embeddings
// are kept in the history database, so they are computed once per model
// across runs: in st, the command's open history, or when st is nil in the
// history opened here (one that cannot be opened only costs that cache).
func (a *app) grounder(ctx context.Context, st *store.Store) (*grounding.Grounder, string, func(), error) {
	reg, err := a.registry()
	if err != nil {
		return nil, "", func() {}, err
	}
	return a.grounderOver(ctx, st, reg)
}

// grounderOver is grounder over a given library (gear eval --library).
func (a *app) grounderOver(ctx context.Context, st *store.Store, reg *tools.Registry) (*grounding.Grounder, string, func(), error) {
	eng, describe, opts, done, err := a.groundingSetup(ctx, st, reg.Specs())
	if err != nil {
		return nil, "", done, err
	}
	g, err := grounding.New(reg, eng, opts)
	if err != nil {
		done()
		return nil, "", func() {}, err
	}
	return g, describe, done, nil
}

// groundingSetup is the engine (with its description) and the options
// grounding over specs runs with, the embedding cache included (see
// grounder), and the function to call when done.
func (a *app) groundingSetup(ctx context.Context, st *store.Store, specs []tools.Spec) (grounding.Engine, string, grounding.Options, func(), error) {
	done := func() {}
	eng, describe, err := a.groundingEngine(ctx, specs)
	if err != nil {
		return grounding.Engine{}, "", grounding.Options{}, done, err
	}
	opts := a.groundingOptions()
	// The offline encoder's vectors are cached only as a large library's
	// index, one record (grounding.Options.CacheLibrary): a small
	// library's are computed as fast as they are read.
	local := offline.IsEncoderModel(eng.Model)
	opts.CacheLibrary = local
	if !local || grounding.LibraryTexts(specs) >= grounding.LibraryIndexMinTexts {
		if st == nil {
			if opened, err := a.openStore(ctx); err == nil {
				st, done = opened, func() { _ = opened.Close() }
			}
		}
		if st != nil {
			opts.Cache = a.groundingCache(st)
		}
	}
	return eng, describe, opts, done, nil
}

// groundingEngine picks the engine. The small model is the grounding role;
// the encoder is the embedding role when it names a model, else the
// offline lexical encoder; the routing yes/no goes to the chat role when it
// names a model, else to the small model.
// specs are the library grounded over, whose hints the offline engine reads.
func (a *app) groundingEngine(ctx context.Context, specs []tools.Spec) (grounding.Engine, string, error) {
	off := a.offlineEngine(specs)
	slmEP := llm.Resolve(a.cfg, llm.RoleGrounding)
	if slmEP.Offline {
		why := "no grounding model configured"
		if a.cfg.Offline {
			why = "offline forced"
		}
		return off.Grounding(), "offline (lexical encoder, rule-based calls; " + why + ")", nil
	}
	slm, err := a.llmClient(llm.RoleGrounding)
	if err != nil {
		return grounding.Engine{}, "", err
	}
	eng := grounding.Engine{Name: grounding.EngineModel, Prober: grounding.SLMProber{SLM: slm}, Router: slm}
	describe := "model (small model " + slmEP.Model
	if embEP := llm.Resolve(a.cfg, llm.RoleEmbedding); embEP.Offline {
		eng.Encoder, eng.Model = off, off.Model()
		describe += ", offline lexical encoder"
	} else {
		enc, err := a.llmClient(llm.RoleEmbedding)
		if err != nil {
			return grounding.Engine{}, "", err
		}
		eng.Encoder = enc
		// The offline encoder ranks the library while the query's
		// embedding is on its way, so the shortlist's calls start at once.
		eng.Prefilter, eng.PrefilterModel = off, offline.EncoderModel+"|prefilter"
		// The cache key is stored in the history: a password in the base
		// URL stays out of it.
		eng.Model = fmt.Sprintf("%s|%s|%d", config.RedactText(embEP.BaseURL), embEP.Model, embEP.Dimensions)
		describe += ", encoder " + embEP.Model
	}
	if chatEP := llm.Resolve(a.cfg, llm.RoleChat); !chatEP.Offline {
		chat, err := a.llmClient(llm.RoleChat)
		if err != nil {
			return grounding.Engine{}, "", err
		}
		eng.Router = chat
	}
	// A server that is down or refuses the key leaves grounding to the
	// offline engine rather than failing every question.
	servers, err := a.serverChecks()
	if err != nil {
		return grounding.Engine{}, "", err
	}
	a.fallback = &groundingFallback{model: eng, offline: off.Grounding(), servers: servers}
	if servers.checked() {
		// Already known (gear ask checks first): name the engine that serves.
		if err := a.fallback.check(ctx); err != nil {
			return off.Grounding(), "offline (lexical encoder, rule-based calls; the model server cannot answer)", nil
		}
		return eng, describe + ")", nil
	}
	return a.fallback.engine(), describe + ")", nil
}

// groundingCache is the embedding cache grounding is given: st, used only
// while the model engine serves.
func (a *app) groundingCache(st *store.Store) grounding.EmbeddingCache {
	if a.fallback == nil {
		return st
	}
	a.fallback.cache = st
	return fallbackCache{a.fallback}
}

// offlineEngine builds the offline engine over the library's specs with
// the gazetteer (loaded on the first query, shared with the tools) and the
// calculator's evaluator.
// A gazetteer that fails to load leaves the engine finding only UTC
// offsets and zone abbreviations.
func (a *app) offlineEngine(specs []tools.Spec) *offline.Engine {
	opts := offline.Options{Tools: specs, Evaluate: builtin.Evaluate}
	opts.Places = builtin.LazyGazetteer(a.places)
	return offline.New(opts)
}

// writeGrounding prints a grounding result for people. Everything that
// came from a tool or a model is sanitized.
func writeGrounding(w io.Writer, engine string, r *grounding.Result) {
	fmt.Fprintf(w, "engine: %s\n", sanitize.Line(engine))
	fmt.Fprintf(w, "query: %s\n", sanitize.Line(r.Query))
	fmt.Fprintf(w, "preliminary answer: %s\n\n", sanitize.Line(r.Preliminary))
	fmt.Fprintf(w, "  %-18s %-9s %6s %6s %6s %6s  %s\n", "tool", "family", "S", "P", "f", "p", "call -> response")
	row := func(t grounding.ToolScore) {
		fmt.Fprintf(w, "  %-18s %-9s %6.3f %6.3f %6.3f %6.3f  %s\n", t.Tool, t.Family, t.S, t.P, t.F, t.Probability, probeLine(t))
	}
	var below []grounding.ToolScore
	shownTools := r.Tools
	if r.Shortlist == nil && len(r.Tools) > maxToolRows {
		// A large library without a shortlist (the offline engine scores
		// every tool): its best tools by f, the rest counted.
		shownTools = r.Ranked()[:maxToolRows]
	}
	for _, t := range shownTools {
		if r.Shortlist != nil && !t.Shortlisted {
			below = append(below, t)
			continue
		}
		row(t)
	}
	if len(shownTools) < len(r.Tools) {
		fmt.Fprintf(w, "  … %d more tools with a lower f (--json lists every tool)\n", len(r.Tools)-len(shownTools))
	}
	if sl := r.Shortlist; sl != nil {
		// The cut: tools below it were not called (f = γS); the best of
		// them are shown, the rest counted.
		fmt.Fprintf(w, "  -- shortlist cut: %d of %d tools called (top %d by %s, cut %.3f); %d below the cut, f = γS --\n",
			sl.Scored, sl.Of, sl.K, sl.By, sl.Cut, len(below))
		sort.SliceStable(below, func(i, j int) bool { return below[i].F > below[j].F })
		const shown = 5
		for i, t := range below {
			if i == shown {
				fmt.Fprintf(w, "  … %d more\n", len(below)-shown)
				break
			}
			row(t)
		}
	}
	fmt.Fprintf(w, "  %-18s %-9s %6s %6s %6s %6.3f\n", grounding.None, grounding.None, "", "", "", r.NoneProbability)
	if slices.ContainsFunc(r.Tools, func(t grounding.ToolScore) bool { return t.ByArguments }) {
		// Such a tool's P is no pattern of an answer; say what it is.
		fmt.Fprintln(w, "  (a tool that is never run scores P by its arguments: the share of its required numbers and dates the query gives)")
	}
	fmt.Fprintln(w)
	route := "needs a tool"
	if !r.Route.NeedsTool {
		route = "needs no tool"
	}
	fmt.Fprintf(w, "route: %s (p = %.3f, threshold %.2f, decided by %s", route, r.Route.Probability, r.Route.Threshold, r.Route.By)
	if r.Route.ModelAsked {
		fmt.Fprintf(w, "; model said %s", r.Route.ModelSaid)
	}
	fmt.Fprintln(w, ")")
	if r.NoneEvidence != nil {
		fmt.Fprintf(w, "none model: %s\n", r.NoneEvidence)
	}
	if r.Choice.Tool == grounding.None {
		fmt.Fprintf(w, "choice: none, confidence %.2f\n", r.Choice.Confidence)
	} else {
		fmt.Fprintf(w, "choice: %s [%s], confidence %.2f\n", r.Choice.Tool, r.Choice.Family, r.Choice.Confidence)
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", sanitize.Line(warn))
	}
}

// maxToolRows bounds the rows gear ground prints for a library scored
// whole: the best tools by f are shown.
const maxToolRows = 20

// probeLine is a tool's call and response on one line.
func probeLine(t grounding.ToolScore) string {
	call := t.Call
	if call == "" {
		call = t.Generated
	}
	switch t.Status {
	case grounding.StatusCut:
		return "(not shortlisted: not called)"
	case grounding.StatusNoCall:
		if t.Error != "" {
			return "(no call: " + oneLine(t.Error) + ")"
		}
		return "(no call)"
	case grounding.StatusUnparsable:
		return oneLine(call) + " (unparsable: " + oneLine(t.Error) + ")"
	case grounding.StatusFailed:
		return oneLine(call) + " -> (failed: " + oneLine(t.Error) + ")"
	case grounding.StatusTimedOut:
		return oneLine(call) + " -> (timed out)"
	case grounding.StatusMock:
		return oneLine(call) + " -> (mock) " + clip(oneLine(t.Response), 60)
	}
	return oneLine(call) + " -> " + clip(oneLine(t.Response), 60)
}
