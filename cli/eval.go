package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/grounding"
)

func (a *app) evalCommand() *cobra.Command {
	var asJSON, reliability bool
	var out string
	var lf libraryFlags
	cmd := &cobra.Command{
		Use:   "eval FILE.jsonl",
		Short: "Measure grounding on labelled queries: accuracy, per-label F1, confusion, calibration, speed",
		Long: `Ground every query of a JSONL file and compare the chosen tool's family with
the label. Each line is {"query": ..., "tool": a tool family or "none",
"also": [other acceptable labels]}; "id" and "source" are optional and only
reported. A prediction is right when the chosen family is the label or one of
"also" (a family no line names, such as the location tool's, is right only
where a line allows it).

Reported: n, accuracy, per-label precision / recall / F1, macro-F1 over the
labels present, the confusion matrix (label -> predicted family -> count),
the expected calibration error of the confidence (10 equal bins) and the
milliseconds per query (p50, p95; queries run one at a time). --json prints
one JSON object with keys n, accuracy, macro_f1, per_label, confusion, ece,
ms_per_query; --out writes one JSON line per query with every tool's scores;
--reliability adds the reliability diagram as a Markdown table.

With --library LIBRARY.json the tool set is that file's tools (a tool
library: docs/benchmarks.md; gear's built-in tools too with --with-builtins)
and FILE.jsonl is its query set: each line {"id", "query", "tool": the
library's tool or "none", "also": [other right tools], "candidates": [the
item's own tool set]}. An item with candidates is judged among them only.
Reported over the items labelled with a tool: top-1 (the choice is right;
an abstention is wrong), the best-ranked tool's accuracy, top-5, macro top-1
over tools and the false-abstention rate; over "none" items the abstention
rate; over all, accuracy, ECE and ms per query; per group of ids (the id
without its number) the same; and with a model engine the small-model
calls, embedding requests and tokens per query. --json prints one object
with keys n, top1, top1_ranked, top5, abstain_rate, false_abstain_rate,
macro_top1, accuracy, ece, ms_per_query {p50, p95}, groups and, with a model
engine, model_calls_per_query, embedding_calls_per_query, tokens_per_query.`,
		Example: `  gear eval --json --offline --library metatool/library.json metatool/dev.jsonl`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if reliability && asJSON {
				return usageErrorf("eval: --reliability prints a table for people; drop --json, or use --out for the predictions")
			}
			if lf.path != "" {
				return a.evalLibrary(cmd.Context(), cmd.OutOrStdout(), lf, args[0], asJSON, reliability, out)
			}
			if lf.withBuiltins {
				return usageErrorf("eval: --with-builtins adds gear's tools to a --library; give --library LIBRARY.json")
			}
			items, err := readItems("eval: ", args[0])
			if err == nil && len(items) == 0 {
				err = usageErrorf("eval: %s has no queries", args[0])
			}
			if err != nil {
				return err
			}
			g, engine, done, err := a.grounder(cmd.Context(), nil)
			if err != nil {
				return err
			}
			defer done()
			if err := g.Prepare(cmd.Context()); err != nil {
				return err
			}
			preds, err := grounding.Predict(cmd.Context(), g, items, nil)
			if err != nil {
				return fmt.Errorf("eval: %w", err)
			}
			if out != "" {
				if err := writeJSONLines(out, preds); err != nil {
					return err
				}
			}
			rep := grounding.Summarize(preds)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rep)
			}
			writeReport(cmd.OutOrStdout(), engine, rep, preds)
			if reliability {
				writeReliability(cmd.OutOrStdout(), preds)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as one JSON object")
	cmd.Flags().StringVar(&out, "out", "", "write each query's prediction and scores to this JSONL file")
	cmd.Flags().BoolVar(&reliability, "reliability", false, "also print the reliability diagram (confidence bins: n, mean confidence, accuracy) and the wrong choices made at confidence ≥ 0.9 and ≥ 0.99")
	lf.register(cmd)
	return cmd
}

// readItems reads a labelled file (the gear eval format) for a command;
// what names it in messages ("eval: FILE", "tune: --dev FILE"). A missing
// or malformed file is the user's to fix.
func readItems(what, path string) ([]grounding.Item, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usageErrorf("%s%s does not exist", what, path)
		}
		return nil, fmt.Errorf("%s%s: %w", what, path, err)
	}
	defer f.Close()
	items, err := grounding.ReadItems(f)
	if err != nil {
		return nil, usageErrorf("%s%s: %v", what, path, err)
	}
	return items, nil
}

// writeJSONLines writes one JSON line per row (gear eval --out).
func writeJSONLines[T any](path string, rows []T) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("eval: --out: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("eval: --out: %w", cerr)
		}
	}()
	w := bufio.NewWriter(f)
	for _, p := range rows {
		if err := encodeJSON(w, p, ""); err != nil {
			return fmt.Errorf("eval: --out: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("eval: --out: %w", err)
	}
	return nil
}

// writeReport prints the report for people, with a per-source breakdown
// when the lines name their source.
func writeReport(w io.Writer, engine string, rep grounding.Report, preds []grounding.Prediction) {
	fmt.Fprintf(w, "engine: %s\n", engine)
	fmt.Fprintf(w, "n %d   accuracy %.3f   macro-F1 %.3f   ECE %.3f   ms/query p50 %.3f p95 %.3f\n\n",
		rep.N, rep.Accuracy, rep.MacroF1, rep.ECE, rep.MSPerQuery.P50, rep.MSPerQuery.P95)
	labels := sortedKeys(rep.PerLabel)
	fmt.Fprintf(w, "%-10s %6s %10s %8s %8s\n", "label", "n", "precision", "recall", "f1")
	for _, l := range labels {
		s := rep.PerLabel[l]
		fmt.Fprintf(w, "%-10s %6d %10.3f %8.3f %8.3f\n", l, s.N, s.Precision, s.Recall, s.F1)
	}
	predicted := map[string]bool{}
	for _, row := range rep.Confusion {
		for p := range row {
			predicted[p] = true
		}
	}
	cols := sortedKeys(predicted)
	fmt.Fprintf(w, "\nconfusion (label -> predicted family):\n%-10s", "")
	for _, c := range cols {
		fmt.Fprintf(w, " %9s", c)
	}
	fmt.Fprintln(w)
	for _, l := range labels {
		fmt.Fprintf(w, "%-10s", l)
		for _, c := range cols {
			fmt.Fprintf(w, " %9d", rep.Confusion[l][c])
		}
		fmt.Fprintln(w)
	}
	bySource := map[string][]grounding.Prediction{}
	for _, p := range preds {
		if p.Source != "" {
			bySource[p.Source] = append(bySource[p.Source], p)
		}
	}
	if len(bySource) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%-12s %6s %9s   recall by label\n", "source", "n", "accuracy")
	for _, s := range sortedKeys(bySource) {
		r := grounding.Summarize(bySource[s])
		fmt.Fprintf(w, "%-12s %6d %9.3f  ", s, r.N, r.Accuracy)
		for _, l := range sortedKeys(r.PerLabel) {
			fmt.Fprintf(w, " %s %.3f (%d)", l, r.PerLabel[l].Recall, r.PerLabel[l].N)
		}
		fmt.Fprintln(w)
	}
}
