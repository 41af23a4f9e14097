package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/store"
)

// writeMarkdown renders an export as a Markdown document.
func writeMarkdown(w io.Writer, d store.Dump) {
	fmt.Fprintln(w, "# gear history")
	fmt.Fprintln(w)
	note := ""
	if d.Anonymized {
		note = " · anonymized: free text removed"
	}
	fmt.Fprintf(w, "Exported %s · schema %d · %s%s\n", d.Exported.UTC().Format("2006-01-02 15:04 MST"), d.SchemaVersion,
		plural(int64(len(d.Conversations)), "conversation"), note)
	for _, c := range d.Conversations {
		fmt.Fprintln(w)
		title := mdText(c.Title)
		if title == "" {
			title = "(untitled)"
		}
		fmt.Fprintf(w, "## Conversation %d: %s\n\n", c.ID, title)
		fmt.Fprintf(w, "- Mode: %s · started %s\n", c.Mode, c.Created.UTC().Format("2006-01-02 15:04 MST"))
		fmt.Fprintf(w, "- Models: chat %s · grounding %s · embedding %s\n", roleModel(c.Chat), roleModel(c.Grounding), roleModel(c.Embedding))
		if c.ParticipantID != "" || c.StudyPhase != "" {
			fmt.Fprintf(w, "- Study: participant %s · phase %s\n", mdText(orDash(c.ParticipantID)), mdText(orDash(c.StudyPhase)))
		}
		for _, t := range c.Turns {
			writeMarkdownTurn(w, t)
		}
	}
	if len(d.Surveys) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "## Survey responses")
		for _, r := range d.Surveys {
			fmt.Fprintf(w, "\n- %s, phase %s, %s, started %s: `%s`\n", mdText(orDash(r.Version)), mdText(orDash(r.Phase)), r.Status,
				r.Started.UTC().Format("2006-01-02 15:04 MST"), strings.ReplaceAll(sanitize.Line(string(r.Answers)), "`", "'"))
		}
	}
}

func writeMarkdownTurn(w io.Writer, t store.Turn) {
	fmt.Fprintf(w, "\n### Turn %d · %s · %s\n\n", t.TurnID, t.Mode, t.Status)
	fmt.Fprintf(w, "**You:** %s\n\n", orRemoved(mdText(t.Query)))
	if t.Input != "" {
		fmt.Fprintf(w, "Typed: %s\n\n", mdText(t.Input))
	}
	if t.Tool != "" || t.Route != "" {
		line := "Route: " + routeText(t)
		if t.Tool != "" {
			line += " · tool " + mdText(t.Tool)
		}
		fmt.Fprintln(w, line+choiceText(t))
		fmt.Fprintln(w)
	}
	if d := callDoubts(t, mdCell); d != "" {
		fmt.Fprintf(w, "Call doubts: %s\n\n", d)
	}
	if len(t.Grounding) > 0 {
		probs := withProbabilities(t.Grounding)
		if probs {
			fmt.Fprintln(w, "| # | Tool | Family | S | P | f | Probability | Call | Response |")
			fmt.Fprintln(w, "|---|------|--------|---|---|---|-------------|------|----------|")
		} else {
			fmt.Fprintln(w, "| # | Tool | Family | S | P | f | Call | Response |")
			fmt.Fprintln(w, "|---|------|--------|---|---|---|------|----------|")
		}
		for _, g := range t.Grounding {
			fmt.Fprintf(w, "| %d | %s | %s | %.3f | %.3f | %.3f | ", g.Rank, mdCell(g.Tool), mdCell(g.Family), g.Semantic, g.Pattern, g.Final)
			if probs {
				fmt.Fprintf(w, "%s | ", pct(g.Probability))
			}
			fmt.Fprintf(w, "%s | %s |\n", mdCell(g.Call), responseCell(g, 80, mdCell))
		}
		fmt.Fprintln(w)
	}
	for _, c := range t.Calls {
		from := ""
		if !c.Source.IsBuiltin() {
			from = ", from " + mdText(c.Source.String())
		}
		fmt.Fprintf(w, "**Call:** `%s` (%s, %s%s)\n\n", strings.ReplaceAll(orRemoved(sanitize.Line(c.Call)), "`", "'"), c.Check, duration(c.Duration), from)
		if c.Response != "" {
			fmt.Fprintf(w, "> %s\n\n", strings.ReplaceAll(mdText(c.Response), "\n", "\n> "))
		}
		if c.Error != "" {
			fmt.Fprintf(w, "Error: %s\n\n", mdText(c.Error))
		}
	}
	if t.Answer != "" || t.Status == store.StatusDone {
		by := ""
		if t.AnsweredBy != "" {
			by = " (answered by " + string(t.AnsweredBy) + ")"
		}
		fmt.Fprintf(w, "**gear:**%s %s\n", by, orRemoved(mdText(t.Answer)))
	}
	if t.Rating != nil {
		fmt.Fprintf(w, "\nRating: %s\n", describeRating(*t.Rating))
	}
}

func mdText(s string) string { return strings.TrimSpace(sanitize.Text(s)) }

func mdCell(s string) string {
	return strings.ReplaceAll(sanitize.Line(s), "|", `\|`)
}

func orRemoved(s string) string {
	if s == "" {
		return "(removed)"
	}
	return s
}
