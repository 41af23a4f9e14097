package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/survey"
)

// minTuneLabels is the fewest labelled queries gear tune fits on.
const minTuneLabels = 20

func (a *app) tuneCommand() *cobra.Command {
	var devFile, generate string
	var write, force, asJSON bool
	cmd := &cobra.Command{
		Use:   "tune [--dev FILE] [--write]",
		Short: "Fit grounding's gamma, routing threshold and confidence calibration from your ratings",
		Long: `gear tune learns from feedback. Rated turns in the history give labelled
queries:

  flagged "wrong tool" naming the wanted tool   the wanted tool's family
  the tool named by you (/use, "use X instead")  its family, unless rated down
  rated up after a tool ran                     that tool's family
  rated up when chat answered without a tool    none

Rated down without a flag (the answer was blamed, not the choice), flags
that name no tool, baseline turns and exact calls give no label. --dev FILE
adds a labelled JSONL file in gear eval's format.

Every query is grounded once with the current tools and engine; GEAR's
decision is then re-made from each query's semantic and pattern scores.
One query in four (by a hash of its text, so a query repeated in the
history never lands on both sides) is held out; on the rest gear tune
fits gamma (f = gamma*S + (1-gamma)*P, grid 0..1), the temperature and the
"none" score (minimum log loss, as gear eval's calibration), the routing
threshold (best mean recall over the labels) and the confidence map (the
choice's share to the confidence shown, for a mix of equally common
labels; docs/calibration.md), and prints accuracy,
mean recall, macro-F1 and calibration error (ECE) on the held-out queries
before and after. Routing is re-made by the threshold; with a chat model
deciding routing (grounding.route model or combined) the threshold only
matters where the model is not asked.

--generate FILE.go fits the calibration gear ships instead (package
grounding/calibration; go generate ./grounding/calibration runs it): the
--dev file alone, grounded offline over the built-in tools with the
default options, whatever the config says; the temperature and none score
by log loss, the threshold by mean recall, and the confidence map (the
choice's softmax share to the confidence shown, for a mix in which every
label is equally common) on every other line, the rest held out.

--write saves grounding.gamma, threshold, temperature, none_score,
confidence_none and confidence_tool to the config file, keeping its other settings and comments; it refuses when
held-out accuracy would fall, unless --force.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if generate != "" {
				if write || asJSON {
					return usageErrorf("tune: --generate writes Go source for gear itself; it does not go with --write or --json")
				}
				if devFile == "" {
					return usageErrorf("tune: --generate needs --dev FILE")
				}
				return a.generateCalibration(cmd.Context(), cmd.OutOrStdout(), devFile, generate)
			}
			res, err := a.tune(cmd.Context(), devFile)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if write {
				if res.After.Accuracy < res.Before.Accuracy && !force {
					writeTune(w, res, "")
					return fmt.Errorf("tune: not written: held-out accuracy would fall from %.3f to %.3f; keep the current values, or gather more ratings (--force writes anyway)",
						res.Before.Accuracy, res.After.Accuracy)
				}
				path, err := a.writeGroundingConfig(res.Fitted)
				if err != nil {
					return err
				}
				res.Written = path
			}
			if asJSON {
				return writeJSON(w, res)
			}
			writeTune(w, res, a.tuneConfigPath())
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&devFile, "dev", "", "also fit on this labelled JSONL file (gear eval's format)")
	f.BoolVar(&write, "write", false, "write the fitted values to the config file")
	f.BoolVar(&force, "force", false, "with --write: write even when held-out accuracy falls")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	f.StringVar(&generate, "generate", "", "fit gear's shipped calibration on --dev alone (offline engine, built-in tools, defaults) and write it as Go source to this file")
	return cmd
}

// tuneParams are the parameters gear tune fits.
type tuneParams struct {
	Gamma       float64 `json:"gamma"`
	Threshold   float64 `json:"threshold"`
	Temperature float64 `json:"temperature"`
	NoneScore   float64 `json:"none_score"`
	// Confidence maps the choice's share to the confidence shown
	// (grounding.FitConfidenceMap), fitted after the others.
	Confidence grounding.ConfidenceMap `json:"confidence"`
}

// decision is the parameters as grounding's Decision.
func (p tuneParams) decision() grounding.Decision {
	return grounding.Decision{Temperature: p.Temperature, NoneScore: p.NoneScore, Threshold: p.Threshold, Confidence: p.Confidence}
}

// tuneScore is one side's figures.
type tuneScore struct {
	N          int     `json:"n"`
	Accuracy   float64 `json:"accuracy"`
	MeanRecall float64 `json:"mean_recall"`
	MacroF1    float64 `json:"macro_f1"`
	ECE        float64 `json:"ece"`
}

type tuneResult struct {
	Engine string `json:"engine"`
	// Labels counts the labelled queries by where they came from
	// ("history: wrong-tool", "dev file"); Skipped the rated turns that gave
	// none, by reason.
	Labels      map[string]int `json:"labels"`
	Skipped     map[string]int `json:"skipped"`
	Train       int            `json:"train"`
	HeldOut     int            `json:"held_out"`
	Current     tuneParams     `json:"before"`
	Fitted      tuneParams     `json:"after"`
	Before      tuneScore      `json:"held_out_before"`
	After       tuneScore      `json:"held_out_after"`
	TrainBefore tuneScore      `json:"train_before"`
	TrainAfter  tuneScore      `json:"train_after"`
	// BySource is held-out accuracy before and after per source.
	BySource map[string][2]float64 `json:"held_out_accuracy_by_source"`
	Written  string                `json:"written,omitempty"`
}

func (a *app) tune(ctx context.Context, devFile string) (tuneResult, error) {
	res := tuneResult{Labels: map[string]int{}, Skipped: map[string]int{}, BySource: map[string][2]float64{}}
	reg, err := a.registry()
	if err != nil {
		return res, err
	}
	familyOf := func(tool string) (string, bool) {
		for _, s := range reg.Specs() {
			if strings.EqualFold(s.Name, tool) {
				return string(s.Family), true
			}
		}
		for _, s := range reg.Specs() {
			if strings.EqualFold(string(s.Family), tool) {
				return string(s.Family), true
			}
		}
		return "", false
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
	labels, skipped := survey.FeedbackLabels(dump, familyOf)
	res.Skipped = skipped
	var items []grounding.Item
	for _, l := range labels {
		items = append(items, grounding.Item{ID: fmt.Sprintf("turn-%d", l.TurnID), Query: l.Query, Tool: l.Family, Source: "history"})
		res.Labels["history: "+l.Reason]++
	}
	if devFile != "" {
		dev, err := readItems("tune: --dev ", devFile)
		if err != nil {
			return res, err
		}
		for _, it := range dev {
			it.Source = "dev file"
			items = append(items, it)
		}
		res.Labels["dev file"] = len(dev)
	}
	if len(items) < minTuneLabels {
		return res, usageErrorf("tune: %d labelled queries; at least %d are needed: rate answers in the chat (thumbs up, or flag the wrong tool and name the right one), or add --dev FILE",
			len(items), minTuneLabels)
	}
	g, engine, done, err := a.grounder(ctx, st)
	if err != nil {
		return res, err
	}
	defer done()
	res.Engine = engine
	if err := g.Prepare(ctx); err != nil {
		return res, err
	}
	preds, err := grounding.Predict(ctx, g, items, nil)
	if err != nil {
		return res, fmt.Errorf("tune: %w", err)
	}
	var train, test []grounding.Prediction
	for _, p := range preds {
		if heldOut(p.Query) {
			test = append(test, p)
		} else {
			train = append(train, p)
		}
	}
	res.Train, res.HeldOut = len(train), len(test)
	if len(test) < 5 || len(train) < minTuneLabels*3/4 {
		return res, usageErrorf("tune: %d queries to fit on and %d held out; more labelled queries are needed (rate more answers, or add --dev FILE)",
			len(train), len(test))
	}
	opts := g.Options()
	res.Current = tuneParams{Gamma: opts.Gamma, Threshold: opts.Threshold, Temperature: opts.Temperature, NoneScore: opts.NoneScore, Confidence: opts.Confidence}
	res.Fitted, err = fitParams(train, res.Current.Gamma)
	if err != nil {
		return res, err
	}
	res.Before, res.After = evaluate(test, res.Current), evaluate(test, res.Fitted)
	res.TrainBefore, res.TrainAfter = evaluate(train, res.Current), evaluate(train, res.Fitted)
	bySource := map[string][]grounding.Prediction{}
	for _, p := range test {
		bySource[p.Source] = append(bySource[p.Source], p)
	}
	for src, ps := range bySource {
		res.BySource[src] = [2]float64{evaluate(ps, res.Current).Accuracy, evaluate(ps, res.Fitted).Accuracy}
	}
	return res, nil
}

func writeTune(w io.Writer, r tuneResult, configPath string) {
	fmt.Fprintf(w, "labelled queries: %d (%d to fit on, %d held out)\n", r.Train+r.HeldOut, r.Train, r.HeldOut)
	for _, k := range sortedKeys(r.Labels) {
		fmt.Fprintf(w, "  %4d  %s\n", r.Labels[k], k)
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintln(w, "rated turns that give no label:")
		for _, k := range sortedKeys(r.Skipped) {
			fmt.Fprintf(w, "  %4d  %s\n", r.Skipped[k], k)
		}
	}
	fmt.Fprintf(w, "engine: %s\n", oneLine(r.Engine))
	fmt.Fprintln(w, "decisions re-made from each query's S and P, routed by the threshold")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-12s %8s %8s\n", "parameter", "before", "after")
	for _, row := range []struct {
		name   string
		before float64
		after  float64
	}{{"gamma", r.Current.Gamma, r.Fitted.Gamma}, {"threshold", r.Current.Threshold, r.Fitted.Threshold},
		{"temperature", r.Current.Temperature, r.Fitted.Temperature}, {"none_score", r.Current.NoneScore, r.Fitted.NoneScore}} {
		fmt.Fprintf(w, "%-12s %8.4f %8.4f\n", row.name, row.before, row.after)
	}
	fmt.Fprintf(w, "confidence map (a, b): none (%.4f, %.4f) -> (%.4f, %.4f), tool (%.4f, %.4f) -> (%.4f, %.4f)\n",
		r.Current.Confidence.None.A, r.Current.Confidence.None.B, r.Fitted.Confidence.None.A, r.Fitted.Confidence.None.B,
		r.Current.Confidence.Tool.A, r.Current.Confidence.Tool.B, r.Fitted.Confidence.Tool.A, r.Fitted.Confidence.Tool.B)
	fmt.Fprintf(w, "\n%-18s %8s %11s %8s %6s\n", "", "accuracy", "mean recall", "macro-F1", "ECE")
	line := func(label string, s tuneScore) {
		fmt.Fprintf(w, "%-18s %8.3f %11.3f %8.3f %6.3f\n", label, s.Accuracy, s.MeanRecall, s.MacroF1, s.ECE)
	}
	line("held out before", r.Before)
	line("held out after", r.After)
	line("fitted on, before", r.TrainBefore)
	line("fitted on, after", r.TrainAfter)
	if len(r.BySource) > 1 {
		for _, src := range sortedKeys(r.BySource) {
			v := r.BySource[src]
			fmt.Fprintf(w, "held out, %-8s accuracy %.3f -> %.3f\n", src, v[0], v[1])
		}
	}
	fmt.Fprintln(w)
	switch {
	case r.Written != "":
		fmt.Fprintf(w, "Wrote grounding.gamma, threshold, temperature, none_score, confidence_none and confidence_tool to %s.\n", r.Written)
	case configPath != "":
		fmt.Fprintf(w, "Not written: run gear tune --write to save them to %s.\n", configPath)
	}
}

// tuneConfigPath is the file --write edits: --config, GEAR_CONFIG, or the
// default path.
func (a *app) tuneConfigPath() string {
	path, _ := config.FilePath(a.configPath, a.deps.Getenv)
	return path
}
