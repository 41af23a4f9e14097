package ui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// gateLines draw the confidence gate: grounding is not sure enough, so the
// top candidates are offered with their scores.
func (m *Model) gateLines(c *agent.Confirmation, width int) []string {
	st := m.st
	if c.Kind == agent.ConfirmRun {
		return m.permissionLines(c, width)
	}
	top := 0.0
	if len(c.Candidates) > 0 {
		top = c.Candidates[0].Confidence
	}
	out := []string{st.panelTitle.Render(clip(fmt.Sprintf("Grounding is only %.1f%% sure (it asks under %s). Which tool?",
		math.Floor(top*1000)/10, pct(c.Threshold)), width))}
	nameW := 4
	for _, cand := range c.Candidates {
		nameW = max(nameW, ansi.StringWidth(cleanLine(cand.Tool)))
	}
	barW := clamp(width-nameW-22, 5, 24)
	for i, cand := range c.Candidates {
		if i >= 9 {
			break
		}
		name := cleanLine(cand.Tool)
		line := fmt.Sprintf(" %d ", i+1) + st.tool.Render(name) + strings.Repeat(" ", nameW-ansi.StringWidth(name)) +
			"  " + st.bar(cand.Confidence, barW) + " " + st.number.Render(fmt.Sprintf("%4s", pct(cand.Confidence))) +
			st.note.Render(fmt.Sprintf("  f %.2f", cand.Score))
		out = append(out, clip(line, width))
	}
	out = append(out, st.note.Render(clip(" enter runs 1 · a number picks another · esc answers without a tool", width)))
	return out
}

// toolPicker asks which tool the user wanted ("wrong tool"); its last
// choice, store.WantedNone, says no tool was needed.
type toolPicker struct {
	turn  *entry
	tools []string
	sel   int
}

func (p *toolPicker) move(d int) { p.sel = clamp(p.sel+d, 0, len(p.tools)-1) }

// pickerLines draw the picker; a long library shows the part around the
// selection, a third of the screen at most.
func (m *Model) pickerLines(p *toolPicker, width int) []string {
	st := m.st
	out := []string{st.panelTitle.Render(clip("Which tool did you want? (it is saved with the turn's rating)", width))}
	rows := max(m.height/3, 3)
	first := clamp(p.sel-rows+1, 0, max(len(p.tools)-rows, 0))
	for i, name := range p.tools {
		if i < first || i >= first+rows {
			continue
		}
		mark, style := "  ", st.unselected
		if i == p.sel {
			mark, style = "› ", st.selected
		}
		num := "  "
		if i < 9 {
			num = fmt.Sprintf("%d ", i+1)
		}
		label := cleanLine(name)
		if name == store.WantedNone {
			label = "none (no tool needed)"
		}
		out = append(out, clip(mark+num+style.Render(label), width))
	}
	return out
}

// progressLine is the line between the conversation and the input: the
// spinner naming the stage while a turn runs, else the completion
// candidates or a passing hint.
func (m *Model) progressLine(width int) string {
	st := m.st
	switch {
	case m.flash != "":
		return clip(st.note.Render(m.flash), width)
	case m.busy():
		return clip(st.spinner.Render(m.spin.View())+" "+st.progress.Render(m.stage+"…"), width)
	case len(m.in.suggestions) > 0:
		return clip(st.note.Render(strings.Join(m.in.suggestions, "  ")), width)
	}
	return ""
}
