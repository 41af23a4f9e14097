package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/survey"
)

// reportWidth is the terminal report's width.
const reportWidth = 80

// barWidth is a full (100%) bar.
const barWidth = 24

// writeReportText prints the report for people, in 80 columns. Names and
// answers come from participants' files: every one is sanitised.
func writeReportText(w io.Writer, r survey.Report) {
	p := &printer{w: w}
	p.linef("gear study report: %s, %s", plural(int64(r.Participants.N), "participant"), plural(int64(r.Turns.N), "turn"))
	p.linef("questionnaire %s: %s used", oneLine(r.Questionnaire), plural(int64(r.Surveys.Used), "response"))
	p.wrap("", "sources: "+sourcesLine(r))
	if r.Anonymized {
		p.line("anonymized: participant ids, file names and open-ended answers are left out")
	}

	p.heading("The paper's headline figures (Appendix G), computed from this study")
	for _, h := range r.Headlines {
		p.headline(h)
	}

	s := r.Satisfaction
	p.heading("Satisfaction: thumbs up / rated, by arm")
	p.linef("  %-18s %-*s %7s %6s   %s", "", barWidth, "", "ratio", "n", "95% CI (Wilson)")
	p.proportionRow("baseline", s.Baseline)
	p.proportionRow("gear", s.Gear)
	if s.Baseline.N > 0 && s.Gear.N > 0 {
		p.linef("  difference gear - baseline: %+.1f points (95%% CI %+.1f to %+.1f, Newcombe);",
			100*s.Difference.Value, 100*s.Difference.Low, 100*s.Difference.High)
		p.linef("  relative increase %+.1f%%", 100*s.RelativeIncrease)
	}
	p.wrap("  ", "rule: "+s.Rule)

	p.heading("Tool usage: share of the turns that ran a tool")
	if len(r.ToolUsage) == 0 {
		p.line("  no tool ran")
	}
	for _, u := range r.ToolUsage {
		p.linef("  %-18s %s %6.1f%% %6d turns  %3d users", clipCells(oneLine(u.Tool), 18), bar(u.Share), 100*u.Share, u.Turns, u.Participants)
	}
	if r.Turns.WithTool > 0 {
		p.linef("  %d of %d turns ran a tool", r.Turns.WithTool, r.Turns.N)
	}

	p.heading("Per-tool satisfaction: thumbs up / rated gear turns with the tool")
	if len(r.ToolSatisfaction) == 0 {
		p.line("  no rated turn ran a tool")
	}
	for _, t := range r.ToolSatisfaction {
		p.proportionRow(clipCells(oneLine(t.Tool), 18), t.Proportion)
	}
	p.wrap("  ", "rule: "+r.ToolSatisfactionRule)

	g := r.Grounding
	p.heading("Grounding accuracy: rated gear turns not flagged \"wrong tool\"")
	p.proportionRow("right", g.Proportion)
	p.linef("  %d flagged wrong of %d rated", g.Wrong, g.N)

	p.heading("Participants and turns")
	p.linef("  participants %d; with a complete questionnaire %d", r.Participants.N, r.Participants.WithSurvey)
	p.linef("  participants by phase: %s", counts(r.Participants.ByPhase))
	p.linef("  turns %d by mode: %s", r.Turns.N, counts(r.Turns.ByMode))
	p.linef("  turns by phase: %s", counts(r.Turns.ByPhase))
	p.linef("  rated (thumbs) %d; wrong-tool flags %d", r.Turns.Rated, r.Turns.WrongTool)
	var missing []string
	for _, pt := range r.Participants.List {
		if pt.Survey != "complete" {
			missing = append(missing, oneLine(pt.ID))
		}
	}
	if len(missing) > 0 {
		p.wrap("  ", "without a complete questionnaire: "+strings.Join(missing, ", "))
	}

	p.heading(fmt.Sprintf("Questionnaire: %d used (complete %d, unfinished %d)",
		r.Surveys.Used, r.Surveys.Complete, r.Surveys.InProgress))
	p.wrap("  ", "rule: "+r.Surveys.Rule)
	for _, v := range sortedKeys(r.Surveys.OtherVersions) {
		p.linef("  %d responses to questionnaire %s are not analysed", r.Surveys.OtherVersions[v], clipCells(oneLine(v), 30))
	}
	for _, q := range r.Questions {
		p.question(q, r.Anonymized)
	}
}

// printer writes lines no wider than reportWidth.
type printer struct{ w io.Writer }

func (p *printer) line(s string) { fmt.Fprintln(p.w, ansi.Truncate(s, reportWidth, "…")) }

func (p *printer) linef(format string, args ...any) { p.line(fmt.Sprintf(format, args...)) }

func (p *printer) heading(s string) {
	fmt.Fprintln(p.w)
	p.line(s)
	p.line(strings.Repeat("─", min(ansi.StringWidth(s), reportWidth)))
}

// wrap writes text wrapped at the report's width, every line indented.
func (p *printer) wrap(indent, text string) {
	p.wrapHanging(indent, indent, text)
}

func (p *printer) wrapHanging(first, rest, text string) {
	lines := strings.Split(ansi.Wrap(text, reportWidth-ansi.StringWidth(rest), " "), "\n")
	for i, l := range lines {
		prefix := rest
		if i == 0 {
			prefix = first
		}
		p.line(prefix + strings.TrimRight(l, " "))
	}
}

func (p *printer) headline(h survey.Headline) {
	p.line("")
	p.line(oneLine(h.Claim))
	switch {
	case h.N == 0:
		p.line("  this study: no data")
	case h.ID == "increase_over_baseline":
		p.linef("  this study: %+.1f points (95%% CI %+.1f to %+.1f, n %d)", 100*h.Value, 100*h.Low, 100*h.High, h.N)
	default:
		p.linef("  this study: %.1f%% (95%% CI %.1f-%.1f, n %d)", 100*h.Value, 100*h.Low, 100*h.High, h.N)
	}
	if h.Detail != "" {
		p.wrapHanging("              ", "              ", oneLine(h.Detail))
	}
	p.wrapHanging("  paper:      ", "              ", oneLine(h.Paper))
	p.wrapHanging("  rule: ", "        ", h.Rule)
}

func (p *printer) proportionRow(label string, x survey.Proportion) {
	if x.N == 0 {
		p.linef("  %-18s %-*s %7s %6d", label, barWidth, "", "-", 0)
		return
	}
	p.linef("  %-18s %s %6.1f%% %6d   %.1f-%.1f", label, bar(x.Ratio), 100*x.Ratio, x.N, 100*x.Low, 100*x.High)
}

func (p *printer) question(q survey.QuestionSummary, anonymized bool) {
	p.line("")
	p.wrapHanging(fmt.Sprintf("%2d. ", q.Number), "    ", oneLine(q.Text))
	switch {
	case q.Distribution != nil:
		d := q.Distribution
		if d.N == 0 {
			p.line("    no answers")
			return
		}
		p.linef("    n %d   mean %.2f   median %.1f", d.N, d.Mean, d.Median)
		cell := 3
		if len(d.Histogram) > 0 && d.Histogram[0].High > d.Histogram[0].Low {
			cell = 7
		}
		var labels, countRow, bars strings.Builder
		most := 0
		for _, b := range d.Histogram {
			most = max(most, b.Count)
		}
		for _, b := range d.Histogram {
			label := strconv.Itoa(b.Low)
			if b.High > b.Low {
				label += "-" + strconv.Itoa(b.High)
			}
			fmt.Fprintf(&labels, "%*s", cell, label)
			fmt.Fprintf(&countRow, "%*d", cell, b.Count)
			fmt.Fprintf(&bars, "%*s", cell, spark(b.Count, most))
		}
		p.line("    answer" + labels.String())
		p.line("    count " + countRow.String())
		p.line("          " + bars.String())
	case q.Yes != nil:
		if q.Yes.N == 0 {
			p.line("    no answers")
			return
		}
		p.linef("    yes %s %5.1f%%  (%d of %d; 95%% CI %.1f-%.1f)", bar(q.Yes.Ratio), 100*q.Yes.Ratio, q.Yes.X, q.Yes.N,
			100*q.Yes.Low, 100*q.Yes.High)
	case q.Kind == survey.KindChoice:
		p.linef("    %d answered; share of them choosing each tool:", q.Answered)
		for _, c := range q.Choices {
			p.linef("    %-18s %s %5.1f%% %4d", clipCells(oneLine(c.Option), 18), bar(c.Share), 100*c.Share, c.Count)
		}
	default:
		switch {
		case q.Answered == 0:
			p.line("    no answers")
		case anonymized:
			p.linef("    %d answers (left out: anonymized)", q.Answered)
		default:
			p.linef("    %d answers:", q.Answered)
			for _, a := range q.Answers {
				p.wrapHanging("    - ", "      ", oneLine(a))
			}
		}
	}
}

// bar draws ratio (0..1) as a bar of barWidth cells, in eighths.
func bar(ratio float64) string {
	ratio = math.Max(0, math.Min(1, ratio))
	eighths := int(math.Round(ratio * barWidth * 8))
	full, part := eighths/8, eighths%8
	b := strings.Repeat("█", full)
	if part > 0 {
		b += string([]rune("▏▎▍▌▋▊▉")[part-1])
	}
	return b + strings.Repeat(" ", barWidth-ansi.StringWidth(b))
}

// spark is one histogram bar in a single cell, scaled to the largest.
func spark(n, most int) string {
	if n == 0 || most == 0 {
		return "·"
	}
	levels := []rune("▁▂▃▄▅▆▇█")
	i := int(math.Ceil(float64(n)/float64(most)*float64(len(levels)))) - 1
	return string(levels[max(0, min(i, len(levels)-1))])
}

func counts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := sortedKeys(m)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", oneLine(k), m[k])
	}
	return strings.Join(parts, ", ")
}

func sourcesLine(r survey.Report) string {
	if r.Anonymized || len(r.Sources) > 4 {
		return fmt.Sprintf("%d", len(r.Sources))
	}
	names := make([]string, len(r.Sources))
	for i, s := range r.Sources {
		names[i] = oneLine(s)
	}
	return strings.Join(names, ", ")
}

// clipCells cuts s to n terminal cells.
func clipCells(s string, n int) string { return ansi.Truncate(s, n, "…") }

// writeReportCSV writes every figure as a row: section, item, measure,
// value.
func writeReportCSV(w io.Writer, r survey.Report) error {
	cw := csv.NewWriter(w)
	row := func(section, item, measure string, value any) {
		var v string
		switch x := value.(type) {
		case float64:
			v = strconv.FormatFloat(x, 'f', -1, 64)
		case int:
			v = strconv.Itoa(x)
		case string:
			v = x
		default:
			v = fmt.Sprint(x)
		}
		cw.Write([]string{csvCell(section), csvCell(item), csvCell(measure), csvCell(v)})
	}
	prop := func(section, item string, p survey.Proportion) {
		row(section, item, "x", p.X)
		row(section, item, "n", p.N)
		row(section, item, "ratio", p.Ratio)
		row(section, item, "ci_low", p.Low)
		row(section, item, "ci_high", p.High)
	}
	cw.Write([]string{"section", "item", "measure", "value"})
	row("report", "questionnaire", "version", r.Questionnaire)
	row("report", "sources", "n", len(r.Sources))
	row("participants", "all", "n", r.Participants.N)
	row("participants", "all", "with_complete_survey", r.Participants.WithSurvey)
	for _, k := range sortedKeys(r.Participants.ByPhase) {
		row("participants", "phase="+k, "n", r.Participants.ByPhase[k])
	}
	for _, pt := range r.Participants.List {
		row("participant", pt.ID, "baseline_turns", pt.BaselineTurns)
		row("participant", pt.ID, "gear_turns", pt.GearTurns)
		row("participant", pt.ID, "rated_turns", pt.Rated)
		row("participant", pt.ID, "survey", pt.Survey)
	}
	row("turns", "all", "n", r.Turns.N)
	row("turns", "all", "with_tool", r.Turns.WithTool)
	row("turns", "all", "rated", r.Turns.Rated)
	row("turns", "all", "wrong_tool_flags", r.Turns.WrongTool)
	for _, k := range sortedKeys(r.Turns.ByMode) {
		row("turns", "mode="+k, "n", r.Turns.ByMode[k])
	}
	for _, k := range sortedKeys(r.Turns.ByPhase) {
		row("turns", "phase="+k, "n", r.Turns.ByPhase[k])
	}
	for _, u := range r.ToolUsage {
		row("tool_usage", u.Tool, "turns", u.Turns)
		row("tool_usage", u.Tool, "share", u.Share)
		row("tool_usage", u.Tool, "participants", u.Participants)
		row("tool_usage", u.Tool, "participant_share", u.ParticipantShare)
	}
	for _, t := range r.ToolSatisfaction {
		prop("tool_satisfaction", t.Tool, t.Proportion)
	}
	prop("grounding_accuracy", "right", r.Grounding.Proportion)
	prop("satisfaction", "baseline", r.Satisfaction.Baseline)
	prop("satisfaction", "gear", r.Satisfaction.Gear)
	d := r.Satisfaction.Difference
	row("satisfaction", "difference", "value", d.Value)
	row("satisfaction", "difference", "ci_low", d.Low)
	row("satisfaction", "difference", "ci_high", d.High)
	row("satisfaction", "difference", "method", d.Method)
	row("satisfaction", "relative_increase", "value", r.Satisfaction.RelativeIncrease)
	row("surveys", "all", "used", r.Surveys.Used)
	row("surveys", "all", "complete", r.Surveys.Complete)
	row("surveys", "all", "in_progress", r.Surveys.InProgress)
	for _, q := range r.Questions {
		row("question", q.ID, "answered", q.Answered)
		if x := q.Distribution; x != nil {
			row("question", q.ID, "mean", x.Mean)
			row("question", q.ID, "median", x.Median)
			for _, b := range x.Histogram {
				label := strconv.Itoa(b.Low)
				if b.High > b.Low {
					label += "-" + strconv.Itoa(b.High)
				}
				row("question", q.ID, "count_"+label, b.Count)
			}
		}
		if q.Yes != nil {
			prop("question", q.ID, *q.Yes)
		}
		for _, c := range q.Choices {
			row("question", q.ID, "chose_"+c.Option, c.Count)
		}
		for _, a := range q.Answers {
			row("answer", q.ID, "text", a)
		}
	}
	for _, h := range r.Headlines {
		row("headline", h.ID, "value", h.Value)
		row("headline", h.ID, "n", h.N)
		row("headline", h.ID, "ci_low", h.Low)
		row("headline", h.ID, "ci_high", h.High)
		row("headline", h.ID, "paper", h.Paper)
		if h.Detail != "" {
			row("headline", h.ID, "detail", h.Detail)
		}
		row("headline", h.ID, "rule", h.Rule)
	}
	cw.Flush()
	return cw.Error()
}

// sortedKeys are m's keys in order, for printing a map the same way every
// time.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
