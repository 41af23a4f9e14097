package cli

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/store"
)

// askPrinter prints a turn as it runs: notices on stderr, the answer on
// stdout as it streams, then the tool badge.
type askPrinter struct {
	out, errw io.Writer
	json      bool
	answered  bool
	lastNL    bool
}

func (p *askPrinter) event(ev agent.Event) {
	if p.json {
		return
	}
	switch e := ev.(type) {
	case agent.Notice:
		fmt.Fprintln(p.errw, "note: "+e.Text)
	case agent.AnswerDelta:
		if e.Text == "" {
			return
		}
		fmt.Fprint(p.out, e.Text)
		p.answered, p.lastNL = true, strings.HasSuffix(e.Text, "\n")
	}
}

// endLine finishes a partly printed answer.
func (p *askPrinter) endLine() {
	if p.answered && !p.lastNL {
		fmt.Fprintln(p.out)
		p.lastNL = true
	}
}

// done ends the answer with the badge: the call that ran and what it
// gave, the two confidences — grounding's in the tool, the prober's in
// the call's arguments (only when it gave one) — and what grounded:
// "— Multiply(48, 2) → 96 · tool 99% · call 95% · grounding: offline engine".
func (p *askPrinter) done(r agent.Record) {
	p.endLine()
	if r.Tool == "" {
		return
	}
	badge := "— " + callText(r)
	switch {
	case r.ChosenBy == store.ChosenByCall:
		badge += " · exact call"
	case r.Grounded:
		badge += " · tool " + pct(r.Confidence)
		if r.CallReading != nil {
			badge += " · call " + pct(r.CallReading.Confidence)
		}
		if r.ChosenBy == store.ChosenByUser {
			badge += " · chosen by you"
		}
		if r.Grounding != nil {
			engine := r.Grounding.Engine
			if engine == store.EngineOffline {
				engine = "offline engine"
			}
			badge += " · grounding: " + engine
		}
	}
	if r.Emission != nil && (r.Emission.Path == store.EmissionRepaired || r.Emission.Path == store.EmissionGuided ||
		r.Emission.Path == store.EmissionStepped) {
		badge += " · call " + string(r.Emission.Path)
	}
	fmt.Fprintln(p.out, badge+callAnswered(r))
}

// callText is the call that ran, on one line, with the first line of its
// response: Convert(5 * 0.3048 / 0.01) → 152.4; the tool's name when
// no call ran. A tool that is not gear's own says where it came from
// after the call: echo("hi") (mcp:everything) → hi.
func callText(r agent.Record) string {
	source := ""
	if r.Source != nil && !r.Source.IsBuiltin() {
		source = " (" + sanitize.Line(r.Source.String()) + ")"
	}
	run := r.Call
	if run == nil || run.Call == "" {
		if em := r.Emission; em != nil && em.Call != "" && !em.Rejected {
			// Asked about and not run: the call is still what to read.
			return callShown(em.Call, r.Tool) + source + " (not run)"
		}
		return sanitize.Line(r.Tool) + source
	}
	s := callShown(run.Call, r.Tool) + source
	result := ""
	if run.Error != "" {
		result = "✗ " + run.Error
	} else if lines := strings.Split(strings.TrimSpace(run.Response), "\n"); lines[0] != "" {
		result = lines[0]
		if len(lines) > 1 {
			result += " …"
		}
	}
	if result = oneLine(result); result != "" {
		if len([]rune(result)) > 60 {
			result = string([]rune(result)[:59]) + "…"
		}
		s += " → " + result
	}
	return s
}

// callAnswered says who let a doubtful call run, at the badge's end:
// " · call run: you said yes", or " · call run with --yes"; nothing when
// it was not asked about.
func callAnswered(r agent.Record) string {
	c := r.Permission
	if c == nil || c.Kind != agent.ConfirmCall || c.Chosen != r.Tool {
		return ""
	}
	if c.Auto {
		return " · call run with --yes"
	}
	return " · call run: you said yes"
}

// pct writes a confidence rounded down: a choice short of certain never
// reads 100%.
// (The 1e-9 keeps a float's representation error, 0.29*100 =
// 28.999…, from reading one point low.)
func pct(p float64) string { return fmt.Sprintf("%.0f%%", math.Floor(p*100+1e-9)) }
