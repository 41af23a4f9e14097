package ui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// cardIndent starts every line of the grounding card.
const cardIndent = "  │ "

// responseLines bounds the tool response shown in an open card.
const responseLines = 8

// cardLines draws the grounding card: the route decision and the chosen
// tool with its confidence; open (expanded), every tool's S, P and f, the
// call emitted and how, and the tool's response.
func (p *painter) cardLines(e *entry, width int) []string {
	st, r := p.st, e.rec
	inner := max(width-ansi.StringWidth(cardIndent), 20)
	var body []string
	if head := routeText(r); head != "" {
		body = append(body, st.cardTitle.Render(head))
	}
	body = append(body, p.choiceLine(r, inner))
	if call := p.callLine(r, inner); call != "" {
		body = append(body, call)
	}
	if e.expanded {
		body = append(body, p.detailLines(r, inner)...)
	}
	out := make([]string, 0, len(body))
	for _, l := range body {
		for _, w := range wrapLines(l, inner) {
			out = append(out, st.cardBorder.Render(cardIndent)+w)
		}
	}
	return out
}

// routeText is the route decision in words, naming its own number ("needs
// a tool: 52%") so it cannot be taken for the tool's confidence on the
// line below, and what grounded.
func routeText(r agent.Record) string {
	var parts []string
	if rt := r.Route; rt != nil {
		yes := map[bool]string{true: "yes", false: "no"}[rt.NeedsTool]
		var s string
		switch rt.By {
		case store.RouteByModel:
			s = "needs a tool: " + yes + ", said the chat model"
			if rt.Probability > 0 {
				s += " (grounding " + pct(rt.Probability) + ")"
			}
		case store.RouteByThreshold:
			s = "needs a tool: " + pct(rt.Probability)
			if rt.Threshold > 0 {
				if rt.NeedsTool {
					s += " (asks ≥ " + pct(rt.Threshold) + ")"
				} else {
					s += " (under " + pct(rt.Threshold) + ": no tool)"
				}
			}
		case store.RouteByDecisive:
			s = "needs a tool: " + pct(rt.Probability)
			if !rt.NeedsTool {
				s += " (no tool)"
			}
		case store.RouteByMode:
			s = "needs a tool: yes (direct mode)"
		case store.RouteByUser:
			s = "needs a tool: yes (you named it)"
		default:
			s = "needs a tool: " + yes
		}
		parts = append(parts, s)
	}
	if g := r.Grounding; g != nil {
		parts = append(parts, "grounding: "+engineLabel(r))
	}
	return strings.Join(parts, " · ")
}

// callLine is the call that ran and what it gave, on one line:
// Calculator(5 * 0.3048 / 0.01) → 152.4.
func (p *painter) callLine(r agent.Record, inner int) string {
	run := r.Call
	if run == nil || run.Call == "" || r.Emission != nil && r.Emission.Rejected {
		// Nothing ran.
		return ""
	}
	st := p.st
	call := cleanLine(run.Call)
	result := ""
	if run.Error != "" {
		result = st.errorText.Render("✗ " + cleanLine(run.Error))
	} else if lines := strings.Split(strings.TrimSpace(clean(run.Response)), "\n"); len(lines) > 0 {
		result = cleanLine(lines[0])
		if len(lines) > 1 {
			result += " …"
		}
	}
	line := st.tool.Render(call)
	if result != "" {
		line += st.note.Render(" → ") + result
	}
	return clip(line, inner)
}

// choiceLine is the chosen tool with its confidence as a bar and a
// percentage, or why no tool ran.
func (p *painter) choiceLine(r agent.Record, inner int) string {
	st := p.st
	conf, tool := r.Confidence, r.Tool
	if tool == "" && r.Grounding != nil && r.Grounding.Choice != "" && r.Grounding.Choice != agent.NoTool {
		tool, conf = r.Grounding.Choice, r.Grounding.Confidence
	}
	if tool == "" && r.Call != nil {
		tool = r.Call.Tool
	}
	if tool == "" && r.Emission != nil && r.Emission.Tool != "" {
		tool = r.Emission.Tool
	}
	if tool == "" && (r.ChosenBy == store.ChosenByCall || r.Route != nil && r.Route.By == store.RouteByUser) {
		// The user named the tool: "no tool was chosen" would contradict
		// the line above.
		return st.note.Render("the call you typed was not run")
	}
	if tool == "" {
		return st.note.Render("no tool was chosen")
	}
	name := st.tool.Render(cleanLine(tool))
	if r.ChosenBy == store.ChosenByCall {
		if r.Emission != nil && r.Emission.Rejected {
			return name + st.note.Render("  exact call, typed by you: rejected by the ToolDec machine, not run")
		}
		return name + st.note.Render("  exact call, typed by you: not grounded")
	}
	tag := ""
	c := r.Confirmation
	asked := c != nil && c.Chosen != "" && !c.Auto
	switch {
	case asked && c.Chosen == agent.NoTool:
		tag = "not run: you chose no tool"
	case asked && r.Grounding != nil && c.Chosen == r.Grounding.Choice:
		tag = "confirmed by you"
	case asked, r.ChosenBy == store.ChosenByUser:
		tag = "chosen by you"
	case r.Tool == "" && r.Status != store.StatusRunning:
		tag = "not run"
	}
	// The bar takes what the name, the number and the tag leave.
	barW := clamp(inner-ansi.StringWidth(tool)-18-ansi.StringWidth(tag)-2, 6, 30)
	line := name + "  " + st.bar(conf, barW) + " " + st.number.Render(fmt.Sprintf("%4s", pct(conf))) + st.note.Render(" confidence")
	if tag != "" {
		line += st.note.Render("  " + tag)
	}
	return line
}

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
		out = append(out, st.cardLabel.Render("asked    ")+fmt.Sprintf("confidence under %s: %s", pct(c.Threshold), who))
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
	for _, s := range g.Tools {
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
	if sl := g.Shortlist; sl != nil {
		out = append(out, st.note.Render(fmt.Sprintf("shortlist: the %d of %d tools ranked highest by S (cut %.2f) were called; %d below the cut keep f = γS",
			sl.Scored, sl.Of, sl.Cut, cut)))
	}
	return out
}

// badge ends a tool turn's answer: tool · confidence · engine, and the
// rating given.
func (p *painter) badge(e *entry) string {
	r, st := e.rec, p.st
	var parts []string
	if r.Tool != "" {
		parts = append(parts, cleanLine(r.Tool))
		switch r.ChosenBy {
		case store.ChosenByCall:
			// Nothing grounded an exact call: no engine to name.
			parts = append(parts, "exact call")
		case store.ChosenByUser:
			parts = append(parts, "chosen by you", "grounding: "+engineLabel(r))
		default:
			parts = append(parts, pct(r.Confidence)+" confidence", "grounding: "+engineLabel(r))
		}
	}
	line := st.badge.Render(strings.Join(parts, " · "))
	if rt := e.rating; rt != nil {
		var marks []string
		switch rt.Score {
		case store.ScoreUp:
			marks = append(marks, "👍")
		case store.ScoreDown:
			marks = append(marks, "👎")
		}
		switch {
		case rt.WrongTool && rt.WantedTool == store.WantedNone:
			marks = append(marks, "no tool needed")
		case rt.WrongTool && rt.WantedTool != "":
			marks = append(marks, "wrong tool → "+cleanLine(rt.WantedTool))
		case rt.WrongTool:
			marks = append(marks, "wrong tool")
		}
		if len(marks) > 0 {
			if line != "" {
				line += st.badge.Render(" · ")
			}
			line += st.rated.Render(strings.Join(marks, " "))
		}
	}
	return line
}

// engineLabel names what grounded the turn: "offline", or the grounding
// model.
func engineLabel(r agent.Record) string {
	if g := r.Grounding; g != nil && g.Engine == store.EngineOffline {
		return "offline engine"
	}
	if m := r.Engines.Grounding.Model; m != "" {
		return cleanLine(m)
	}
	if g := r.Grounding; g != nil && g.Engine != "" {
		return cleanLine(g.Engine)
	}
	return "offline engine"
}

// pct shows a probability as a whole percentage rounded down, as gear ask
// does: 99.6% sure is "99%", never "100%" short of certain.
func pct(p float64) string { return fmt.Sprintf("%.0f%%", math.Floor(p*100)) }

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// clip cuts s to n columns with an ellipsis.
func clip(s string, n int) string {
	if n <= 1 {
		return ""
	}
	return ansi.Truncate(s, n, "…")
}
