package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/store"
)

// userPrompt starts the user's lines.
const userPrompt = "you › "

// painter renders entries: the styles, Glamour, and whether a chat model
// writes the answers (Markdown) or tools do (plain text).
type painter struct {
	st        styles
	md        *markdown
	chatModel bool
}

// lines are the entry's rendered lines at width, from its cache when the
// width has not changed. Each entry ends with a blank line.
func (p *painter) lines(e *entry, width int) []string {
	if e.cache != nil && e.cacheWidth == width {
		return e.cache
	}
	var out []string
	switch e.kind {
	case entryTurn:
		out = p.turnLines(e, width)
	case entryNote:
		out = p.md.render(clean(e.text), width)
	case entryNotice:
		for _, l := range plainLines(clean(e.text), width) {
			out = append(out, p.st.note.Render(l))
		}
	case entryError:
		for _, l := range wrapLines(cleanLine(e.text), width-len(answerIndent)) {
			out = append(out, answerIndent+p.st.errorText.Render(l))
		}
	}
	out = append(out, "")
	e.cache, e.cacheWidth = out, width
	return out
}

func (p *painter) turnLines(e *entry, width int) []string {
	out := p.userLines(e.input, width)
	if q := e.rec.Query; q != "" && !strings.Contains(e.input, q) {
		// "/use wiki" answers an earlier question again: say which.
		for _, l := range wrapLines("↻ "+cleanLine(q), width-len(answerIndent)) {
			out = append(out, answerIndent+p.st.note.Render(l))
		}
	}
	if e.hasCard() {
		out = append(out, p.cardLines(e, width)...)
	}
	return append(out, p.answerLines(e, width)...)
}

// userLines are what the user typed, after the prompt, wrapped under it.
func (p *painter) userLines(input string, width int) []string {
	pad := ansi.StringWidth(userPrompt)
	var out []string
	for i, l := range wrapLines(clean(input), width-pad) {
		lead := strings.Repeat(" ", pad)
		if i == 0 {
			lead = p.st.user.Render(userPrompt)
		}
		out = append(out, lead+p.st.userText.Render(l))
	}
	return out
}

// answerLines are the answer — Markdown when a model wrote it, plain text
// when it is a tool's response or gear's own — then how the turn ended and
// the badge.
func (p *painter) answerLines(e *entry, width int) []string {
	r, st := e.rec, p.st
	var out []string
	if r.Answer != "" {
		switch {
		case e.live && p.markdownAnswer(e):
			out = e.stream.render(p.md, r.Answer, width)
		case p.markdownAnswer(e):
			out = renderMarkdown(p.md, clean(r.Answer), width)
		default:
			out = plainLines(clean(r.Answer), width)
		}
	}
	inner := width - len(answerIndent)
	switch {
	case e.live:
		return out
	case (r.Status == store.StatusFailed || r.Status == store.StatusInterrupted) && r.Error != "":
		for _, l := range wrapLines("✗ "+cleanLine(r.Error), inner) {
			out = append(out, answerIndent+st.errorText.Render(l))
		}
	case r.Status == store.StatusCancelled:
		out = append(out, answerIndent+st.note.Render("cancelled"))
	}
	for _, l := range e.images {
		out = append(out, answerIndent+l)
	}
	if e.imageHint != "" {
		out = append(out, answerIndent+st.note.Render(e.imageHint))
	}
	if b := p.badge(e); ansi.StringWidth(b) > 0 {
		// Wrapped, not cut: the rating at its end must stay readable.
		for _, l := range wrapLines(b, inner) {
			out = append(out, answerIndent+l)
		}
	}
	if e.rateNote != "" {
		out = append(out, answerIndent+st.errorText.Render(clip(cleanLine(e.rateNote), inner)))
	}
	return out
}

// markdownAnswer says whether the answer is Markdown from a model.
func (p *painter) markdownAnswer(e *entry) bool {
	if e.live {
		return p.chatModel && e.rec.Mode != store.ModeDirect
	}
	return e.rec.AnsweredBy == store.AnsweredByModel
}
