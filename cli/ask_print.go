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
// gave, the confidence, and what grounded —
// "— Calculator(48 * 4 / 2) → 96 · 99% confidence · grounding: offline engine".
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
		badge += " · " + pct(r.Confidence) + " confidence"
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
	fmt.Fprintln(p.out, badge)
}

// callText is the call that ran, on one line, with the first line of its
// response: Calculator(5 * 0.3048 / 0.01) → 152.4; the tool's name when
// no call ran. A tool that is not gear's own says where it came from
// after the call: echo("hi") (mcp:everything) → hi.
func callText(r agent.Record) string {
	source := ""
	if r.Source != nil && !r.Source.IsBuiltin() {
		source = " (" + sanitize.Line(r.Source.String()) + ")"
	}
	run := r.Call
	if run == nil || run.Call == "" {
		return sanitize.Line(r.Tool) + source
	}
	s := sanitize.Line(run.Call) + source
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

// pct writes a confidence rounded down: a choice short of certain never
// reads 100%.
func pct(p float64) string { return fmt.Sprintf("%.0f%%", math.Floor(p*100)) }
