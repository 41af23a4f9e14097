package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/survey"
)

func (a *app) reportCommand() *cobra.Command {
	var asJSON, asCSV, anonymize bool
	cmd := &cobra.Command{
		Use:   "report [DB...]",
		Short: "Report a user study: satisfaction by phase, per-tool ratios, grounding accuracy, the questionnaire",
		Long: `gear report reads one or many histories — each participant's database, or
an export of it (gear history export --all [--anonymize]) — and reports the
study the GEAR paper ran (Appendix G):

  participants, turns, each tool's share of the turns that ran a tool;
  per-tool satisfaction (thumbs up / rated, over gear turns with that tool);
  grounding accuracy (rated gear turns not flagged "wrong tool");
  satisfaction in the baseline and gear arms with the difference
  (95% intervals: Wilson for each ratio, Newcombe's hybrid score method for
  the difference — deterministic, no resampling);
  every question's answers (mean, median, histogram; yes/no shares; tools
  chosen; the open-ended answers);
  the paper's headline figures computed from the study, each with its rule.

A turn's arm is its recorded mode: baseline mode is the plain chatbot,
chat and direct are gear. Without DB, the configured history is read.
The default is a terminal report (80 columns, bar charts); --json prints
every figure for scripts; --csv a flat table (section, item, measure,
value). --anonymize leaves out participant ids, file names and the
open-ended answers.`,
		Example: `  gear report participants/*.db
  gear report --json study/*.db > report.json
  gear report --csv --anonymize p01.json p02.json > report.csv`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				args = []string{a.cfg.DB}
			}
			sources, err := a.readSources(cmd.Context(), args)
			if err != nil {
				return err
			}
			q, err := a.questionnaire()
			if err != nil {
				return err
			}
			rep := survey.Compute(sources, q.Tools())
			if anonymize {
				rep = rep.Anonymize()
			}
			w := cmd.OutOrStdout()
			switch {
			case asJSON:
				return writeJSON(w, rep)
			case asCSV:
				return writeReportCSV(w, rep)
			}
			writeReportText(w, rep)
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print every figure as one JSON object")
	f.BoolVar(&asCSV, "csv", false, "print a flat table: section,item,measure,value")
	markExclusive(cmd, "choose one output format", "json", "csv")
	f.BoolVar(&anonymize, "anonymize", false, "leave out participant ids, file names and open-ended answers")
	return cmd
}

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// readSources reads each path as a history database or a history export.
// A path given twice, a missing file or a file that is neither is the
// user's to fix.
func (a *app) readSources(ctx context.Context, paths []string) ([]survey.Source, error) {
	seen := map[string]bool{}
	var out []survey.Source
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("report: %s: %w", p, err)
		}
		if seen[abs] {
			return nil, usageErrorf("report: %s is given twice", p)
		}
		seen[abs] = true
		info, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, usageErrorf("report: %s does not exist", p)
		case err != nil:
			return nil, fmt.Errorf("report: %w", err)
		case info.IsDir():
			return nil, usageErrorf("report: %s is a directory; give the database files (e.g. %s)", p, filepath.Join(p, "*.db"))
		}
		d, err := readSource(ctx, p, info.Size())
		if err != nil {
			return nil, err
		}
		out = append(out, survey.Source{Label: p, Dump: d})
	}
	return out, nil
}

func readSource(ctx context.Context, path string, size int64) (store.Dump, error) {
	head := make([]byte, len(sqliteHeader))
	f, err := os.Open(path)
	if err != nil {
		return store.Dump{}, fmt.Errorf("report: %w", err)
	}
	n, _ := io.ReadFull(f, head)
	f.Close()
	if size == 0 || string(head[:n]) == sqliteHeader {
		st, err := store.Open(ctx, path, store.Options{ReadOnly: true})
		if err != nil {
			return store.Dump{}, err
		}
		defer st.Close()
		return st.Export(ctx)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return store.Dump{}, fmt.Errorf("report: %w", err)
	}
	d, err := store.DecodeDump(data)
	if err != nil {
		return store.Dump{}, usageErrorf("report: %s is neither a gear history database nor an export of one (gear history export --all)", path)
	}
	return d, nil
}
