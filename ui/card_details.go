package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// The open card (ctrl+g): what grounding saw, what was asked, the call and
// its doubts, the response and the stages' times.

// detailLines are the open card: every tool's scores, the call and the
// response.
func (p *painter) detailLines(r agent.Record, inner int) []string {
	st := p.st
	var out []string
	if g := r.Grounding; g != nil {
		if g.Preliminary != "" {
			out = append(out, st.cardLabel.Render("preliminary answer ")+clip(cleanLine(g.Preliminary), inner-19))
		}
		out = append(out, p.scoreTable(g, inner)...)
		for _, w := range g.Warnings {
			out = append(out, st.errorText.Render("! "+cleanLine(w)))
		}
	}
	if c := r.Confirmation; c != nil && c.Chosen != "" {
		who := "you chose " + c.Chosen
		if c.Auto {
			who = "run without asking (--yes)"
		}
		if c.Chosen == agent.NoTool {
			who = "you answered without a tool"
		}
		what := fmt.Sprintf("confidence under %s: %s", pct(c.Threshold), who)
		if c.Kind == agent.ConfirmNone {
			what = fmt.Sprintf("no tool, but only %s sure (offers tools under %s): %s", pct(c.NoneConfidence), pct(c.Threshold), who)
		}
		out = append(out, st.cardLabel.Render("asked    ")+cleanLine(what))
	}
	if c := r.Permission; c != nil && c.Kind == agent.ConfirmCall && c.Chosen != "" {
		who := "you said run"
		switch {
		case c.Auto:
			who = "run without asking (--yes)"
		case c.Chosen == agent.NoTool:
			who = "you said do not run"
		}
		out = append(out, st.cardLabel.Render("asked    ")+fmt.Sprintf("call confidence under %s: %s", pct(c.Threshold), who))
	}
	if rd := callReading(r); rd != nil {
		for _, d := range rd.Doubts {
			out = append(out, st.cardLabel.Render("doubt    ")+cleanLine(d))
		}
	}
	if em := r.Emission; em != nil {
		how := string(em.Path)
		if em.Path == store.EmissionOffline {
			// Not "offline" alone, which reads as the tool being offline.
			how = "written by the offline engine"
		}
		switch {
		case em.Rejected:
			out = append(out, st.cardLabel.Render("call     ")+st.errorText.Render("rejected by the ToolDec machine, not run: ")+
				cleanLine(em.Original))
		default:
			out = append(out, st.cardLabel.Render("call     ")+cleanLine(em.Call)+st.note.Render("  · "+how))
			if em.Original != "" && em.Original != em.Call {
				out = append(out, st.cardLabel.Render("emitted  ")+cleanLine(em.Original))
			}
		}
		for _, fix := range em.Repairs {
			out = append(out, st.cardLabel.Render("repair   ")+cleanLine(fix))
		}
	} else if r.Call != nil {
		out = append(out, st.cardLabel.Render("call     ")+cleanLine(r.Call.Call))
	}
	if run := r.Call; run != nil {
		const label = "response "
		if run.FromGrounding {
			out = append(out, st.note.Render("grounding had already run this call: its response was used"))
		}
		if run.Error != "" {
			out = append(out, st.cardLabel.Render(label)+st.errorText.Render(cleanLine(run.Error)))
		} else {
			lines := wrapLines(clean(run.Response), inner-9)
			if len(lines) > responseLines {
				lines = append(lines[:responseLines], "…")
			}
			for i, l := range lines {
				if i == 0 {
					out = append(out, st.cardLabel.Render(label)+l)
				} else {
					out = append(out, "         "+l)
				}
			}
		}
	}
	if line := stageTimes(r); line != "" {
		out = append(out, st.cardLabel.Render("times    ")+st.note.Render(line))
	}
	return out
}

// stageTimes is each stage's own wall time: grounding (routing runs
// inside it), writing the call (none when grounding's call was reused),
// the tool, the answer.
func stageTimes(r agent.Record) string {
	t := r.Timings
	if t.Total <= 0 {
		return ""
	}
	msf := func(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000) }
	var parts []string
	if t.Ground > 0 {
		g := "grounding " + msf(t.Ground)
		if t.Route > 0 {
			g += " (routing " + msf(t.Route) + " inside)"
		}
		parts = append(parts, g)
	}
	if em := r.Emission; em != nil && em.Path == store.EmissionGrounding {
		parts = append(parts, "call from grounding")
	} else if t.Emit > 0 {
		parts = append(parts, "call "+msf(t.Emit))
	}
	if r.Call != nil {
		parts = append(parts, "tool "+msf(t.Tool))
	}
	if t.Answer > 0 {
		parts = append(parts, "answer "+msf(t.Answer))
	}
	return strings.Join(append(parts, "total "+msf(t.Total)), " · ")
}

// maxCardRows bounds the tools the card lists for a library scored whole.
const maxCardRows = 12

// scoreTable lists every tool's semantic score S, pattern score P and
// final score f as bars, and its probability when it is known. P and f are
// not bounded by 1, so their bars share the column's largest value.
func (p *painter) scoreTable(g *agent.Grounding, inner int) []string {
	st := p.st
	if len(g.Tools) == 0 {
		return nil
	}
	nameW, maxP, maxF, probs := 4, 1.0, 1.0, false
	for _, s := range g.Tools {
		nameW = max(nameW, ansi.StringWidth(cleanLine(s.Tool)))
		maxP, maxF = max(maxP, s.P), max(maxF, s.F)
		probs = probs || s.Probability > 0
	}
	nameW = min(nameW, 24)
	fixed := nameW + 3*6 + 3
	if probs {
		fixed += 6
	}
	barW := clamp((inner-fixed)/3, 3, 12)
	head := fmt.Sprintf("%-*s %-*s %-*s %-*s", nameW, "tool", barW+5, "S", barW+5, "P", barW+5, "f")
	if probs {
		head += "     p"
	}
	out := []string{st.cardLabel.Render(strings.TrimRight(head, " "))}
	cell := func(v, scale float64) string {
		return st.bar(v/scale, barW) + " " + st.number.Render(fmt.Sprintf("%4.2f", v))
	}
	cut := 0
	rows := g.Tools
	if g.Shortlist == nil && len(rows) > maxCardRows {
		// A large library scored whole (the offline engine scores every
		// tool): its best tools by f, the rest counted below.
		rows = slices.Clone(rows)
		slices.SortStableFunc(rows, func(a, b agent.Score) int { return cmp.Compare(b.F, a.F) })
		rows = rows[:maxCardRows]
	}
	for _, s := range rows {
		if g.Shortlist != nil && !s.Shortlisted {
			cut++
			continue
		}
		name := clip(cleanLine(s.Tool), nameW)
		row := st.tool.Render(name) + strings.Repeat(" ", nameW-ansi.StringWidth(name)) + " " +
			cell(max(s.S, 0), 1) + " " + cell(max(s.P, 0), maxP) + " " + cell(max(s.F, 0), maxF)
		if probs {
			row += " " + st.number.Render(fmt.Sprintf("%5s", pct(s.Probability)))
		}
		out = append(out, row)
	}
	if len(rows) < len(g.Tools) && g.Shortlist == nil {
		out = append(out, st.note.Render(fmt.Sprintf("… %d more tools with a lower f", len(g.Tools)-len(rows))))
	}
	if sl := g.Shortlist; sl != nil {
		out = append(out, st.note.Render(fmt.Sprintf("shortlist: the %d of %d tools ranked highest by S (cut %.2f) were called; %d below the cut keep f = γS",
			sl.Scored, sl.Of, sl.Cut, cut)))
	}
	return out
}
