package ui

import (
	"strings"

	"github.com/charmbracelet/glamour"
	gansi "github.com/charmbracelet/glamour/ansi"
	glamstyles "github.com/charmbracelet/glamour/styles"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// answerIndent lines plain text up with Glamour's document margin.
const answerIndent = "  "

// markdown renders Markdown with Glamour at one width. A renderer is made
// for each new width (word wrap is fixed when it is made) and kept, since
// making one parses its style.
type markdown struct {
	style   gansi.StyleConfig
	profile termenv.Profile
	width   int
	r       *glamour.TermRenderer
	// fed counts the bytes given to Glamour, so tests can check that a
	// streamed answer costs about its length, not its square.
	fed int
}

// newMarkdown picks Glamour's light or dark style for the background;
// without colour (NO_COLOR) Glamour draws plain text.
func newMarkdown(st styles) *markdown {
	style := glamstyles.DarkStyleConfig
	if !st.dark {
		style = glamstyles.LightStyleConfig
	}
	profile := st.renderer.ColorProfile()
	if st.noColor {
		profile = termenv.Ascii
	}
	if profile == termenv.Ascii {
		// Without colour, the padding that gives inline code its
		// background reads as double spaces: mark it with backticks.
		style.Code.Prefix, style.Code.Suffix = "`", "`"
	}
	// Headings are shown bold, not with their "## " marks.
	for _, h := range []*gansi.StyleBlock{&style.H2, &style.H3, &style.H4, &style.H5, &style.H6} {
		h.Prefix = ""
		h.Bold = boolPtr(true)
	}
	return &markdown{style: style, profile: profile}
}

func boolPtr(b bool) *bool { return &b }

// render returns text rendered for width columns as lines, without the
// blank lines Glamour puts around a document. Text Glamour cannot render
// is shown as plain text.
func (md *markdown) render(text string, width int) []string {
	width = max(width, 20)
	if md.r == nil || md.width != width {
		r, err := glamour.NewTermRenderer(glamour.WithStyles(md.style), glamour.WithColorProfile(md.profile),
			glamour.WithWordWrap(width))
		if err != nil {
			return plainLines(text, width)
		}
		md.r, md.width = r, width
	}
	md.fed += len(text)
	out, err := md.r.Render(text)
	if err != nil {
		return plainLines(text, width)
	}
	return fitLines(trimBlankLines(strings.Split(out, "\n")), width)
}

// plainLines wraps text that is not Markdown (a tool's response) at width,
// indented like rendered Markdown.
func plainLines(text string, width int) []string {
	var out []string
	for _, l := range wrapLines(strings.ReplaceAll(text, "\t", "    "), width-len(answerIndent)) {
		out = append(out, answerIndent+l)
	}
	return trimBlankLines(out)
}

// wrapLines wraps text at width (at least 10) without indent. ansi.Wrap
// keeps the space it broke at, so each line goes through fitLines.
func wrapLines(text string, width int) []string {
	width = max(width, 10)
	var out []string
	for _, line := range strings.Split(text, "\n") {
		out = append(out, fitLines(strings.Split(ansi.Wrap(line, width, ""), "\n"), width)...)
	}
	return out
}

// fitLines keeps every line within width: trailing padding goes, and a
// line still too long (a code block's) is broken rather than cut, so no
// character is lost and the layout holds.
func fitLines(lines []string, width int) []string {
	out := lines[:0:0]
	for _, l := range lines {
		l = trimRightSpace(l)
		if ansi.StringWidth(l) <= width {
			out = append(out, l)
			continue
		}
		out = append(out, strings.Split(ansi.Hardwrap(l, width, true), "\n")...)
	}
	return out
}

// trimRightSpace drops a line's trailing padding, also when it sits inside
// colour codes (Glamour pads every line to the wrap width); the style is
// then reset so it cannot run on into the next line.
func trimRightSpace(l string) string {
	visible := ansi.Strip(l)
	trimmed := strings.TrimRight(visible, " ")
	if len(trimmed) == len(visible) {
		return l
	}
	if !strings.Contains(l, "\x1b") {
		return trimmed
	}
	return ansi.Truncate(l, ansi.StringWidth(trimmed), "") + "\x1b[m"
}

func trimBlankLines(lines []string) []string {
	blank := func(s string) bool { return strings.TrimSpace(ansi.Strip(s)) == "" }
	for len(lines) > 0 && blank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return lines
}
