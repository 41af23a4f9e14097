package ui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/grounding"
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

// callLine is the call that ran and what it gave, with the two
// confidences, on one line:
// Convert(5 * 0.3048 / 0.01) → 152.4 · tool 97% · call 45%.
// The confidences always show: the response is cut first, then the call.
// A call asked about and not run (or waiting for the answer) is shown
// too; the call confidence only when the prober gave one.
func (p *painter) callLine(r agent.Record, inner int) string {
	st := p.st
	run, em := r.Call, r.Emission
	call, result := "", ""
	switch {
	case run != nil && run.Call != "" && (em == nil || !em.Rejected):
		call = cleanLine(run.Call)
		if run.Error != "" {
			result = st.errorText.Render("✗ " + cleanLine(run.Error))
		} else if lines := strings.Split(strings.TrimSpace(clean(run.Response)), "\n"); len(lines) > 0 {
			result = cleanLine(lines[0])
			if len(lines) > 1 {
				result += " …"
			}
		}
	case em != nil && em.Call != "" && !em.Rejected:
		call = cleanLine(em.Call)
		if r.Status != store.StatusRunning && r.Status != store.StatusAwaitingConfirmation && r.Status != "" {
			result = st.note.Render("not run")
		}
	default:
		// No call was written, or the machine rejected it.
		return ""
	}
	suffix := p.confidenceSuffix(r)
	head := st.tool.Render(call)
	if result != "" {
		head += st.note.Render(" → ") + result
	}
	avail := inner - ansi.StringWidth(suffix)
	if avail < 12 {
		return clip(head+suffix, inner)
	}
	return clip(head, avail) + suffix
}

// confidenceSuffix is " · tool 97% · call 45%" for a grounded call, the
// call's part only when there is a reading; " · exact call" for one the
// user typed.
func (p *painter) confidenceSuffix(r agent.Record) string {
	st := p.st
	if r.ChosenBy == "call" {
		return st.note.Render(" · exact call")
	}
	conf := r.Confidence
	if r.Tool == "" && r.Grounding != nil && r.Grounding.Choice != agent.NoTool {
		conf = r.Grounding.Confidence
	}
	s := st.note.Render(" · tool ") + st.number.Render(pct(conf))
	if rd := callReading(r); rd != nil {
		style := st.number
		if c := r.Permission; c != nil && c.Kind == agent.ConfirmCall || rd.Confidence < 0.5 {
			style = st.errorText
		}
		s += st.note.Render(" · call ") + style.Render(pct(rd.Confidence))
	}
	return s
}

// callReading is the call confidence of the turn's call, nil when the
// prober gave none (a model prober, a call the chat model wrote).
func callReading(r agent.Record) *grounding.CallReading {
	if r.CallReading != nil {
		return r.CallReading
	}
	if r.Emission != nil && !r.Emission.Rejected {
		return r.Emission.Reading
	}
	return nil
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
			parts = append(parts, "tool "+pct(r.Confidence))
			if rd := callReading(r); rd != nil {
				parts = append(parts, "call "+pct(rd.Confidence))
			}
			parts = append(parts, "grounding: "+engineLabel(r))
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
// (The 1e-9 keeps a float's representation error, 0.29*100 =
// 28.999…, from reading one point low.)
func pct(p float64) string { return fmt.Sprintf("%.0f%%", math.Floor(p*100+1e-9)) }

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// clip cuts s to n columns with an ellipsis.
func clip(s string, n int) string {
	if n <= 1 {
		return ""
	}
	return ansi.Truncate(s, n, "…")
}
