package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/store"
)

// gateLines draw the confidence gate: grounding is not sure enough, so the
// top candidates are offered with their scores. Its lines wrap rather than
// being cut on a narrow terminal.
func (m *Model) gateLines(c *agent.Confirmation, width int) []string {
	st := m.st
	switch c.Kind {
	case agent.ConfirmRun:
		return m.permissionLines(c, width)
	case agent.ConfirmCall:
		return m.callQuestionLines(c, width)
	}
	top := 0.0
	if len(c.Candidates) > 0 {
		top = c.Candidates[0].Confidence
	}
	var out []string
	title := fmt.Sprintf("Grounding is only %s sure (it asks under %s). Which tool?", pct(top), pct(c.Threshold))
	if c.Kind == agent.ConfirmNone {
		title = fmt.Sprintf("I'm not sure this needs a tool (no tool: %s). Closest — pick one or rephrase:", pct(c.NoneConfidence))
	}
	for _, l := range wrapLines(title, width) {
		out = append(out, st.panelTitle.Render(l))
	}
	nameW, callW := 4, 0
	for _, cand := range c.Candidates {
		nameW = max(nameW, ansi.StringWidth(cleanLine(cand.Tool)))
		if cand.Call != "" {
			callW = max(callW, 2+ansi.StringWidth(cleanLine(cand.Call))+ansi.StringWidth(readingNote(cand.Reading)))
		}
	}
	// The bar gives way to the calls: they are what would run.
	barW := clamp(width-nameW-10-callW, 4, 16)
	for i, cand := range c.Candidates {
		if i >= 9 {
			break
		}
		mark, style := "  ", st.tool
		if i == m.gateSel {
			mark, style = "› ", st.selected
		}
		name := cleanLine(cand.Tool)
		line := mark + fmt.Sprintf("%d ", i+1) + style.Render(name) + strings.Repeat(" ", nameW-ansi.StringWidth(name)) +
			"  " + st.bar(cand.Confidence, barW) + " " + st.number.Render(fmt.Sprintf("%4s", pct(cand.Confidence)))
		if cand.Call != "" {
			// The call is cut before its call confidence is.
			note := readingNote(cand.Reading)
			avail := width - ansi.StringWidth(line) - 2 - ansi.StringWidth(note)
			if avail >= 8 {
				line += "  " + clip(cleanLine(cand.Call), avail) + st.note.Render(note)
			} else {
				line += "  " + cleanLine(cand.Call) + st.note.Render(note)
			}
		}
		out = append(out, clip(line, width))
	}
	for _, l := range wrapLines(m.gateHint(), width-1) {
		out = append(out, st.note.Render(" "+l))
	}
	return out
}

// readingNote is " · call 97%" for a candidate's call reading, "" with
// none: a call confidence is never invented.
func readingNote(r *grounding.CallReading) string {
	if r == nil {
		return ""
	}
	return " · call " + pct(r.Confidence)
}

// gateHint says how to answer the gate: enter runs the selected tool only
// while the input is empty (text typed meanwhile stays in the input), and
// esc answers without a tool only when that can give an answer.
func (m *Model) gateHint() string {
	if m.in.value() != "" {
		return "your text stays in the input · 1-9 picks a tool · " + m.gateEsc()
	}
	return "↑↓ or 1-9 picks, enter runs · " + m.gateEsc()
}

// canAnswerWithoutTool says whether "no tool" can give an answer: it
// needs the chat model, and direct mode shows only a tool's response.
func (m *Model) canAnswerWithoutTool() bool {
	mode := m.mode
	if m.running != nil && m.running.rec.Mode != "" {
		mode = m.running.rec.Mode
	}
	return m.paint.chatModel && mode != store.ModeDirect
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
		line := st.spinner.Render(m.spin.View()) + " " + st.progress.Render(m.stage+"…")
		if n := len(m.queued); n > 0 {
			line += st.note.Render(fmt.Sprintf("  · %d queued: %s", n, cleanLine(m.queued[0])))
		}
		return clip(line, width)
	case len(m.in.suggestions) > 0:
		return clip(st.note.Render(strings.Join(m.in.suggestions, "  ")), width)
	}
	return ""
}
