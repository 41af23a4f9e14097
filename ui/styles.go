package ui

import (
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// styles are every style the chat draws with, from one renderer: its
// colour profile (Ascii under NO_COLOR) and its background (light or dark,
// through the adaptive colours) decide how they look.
type styles struct {
	renderer *lipgloss.Renderer
	dark     bool
	noColor  bool

	user, userText  lipgloss.Style
	answer          lipgloss.Style
	note, errorText lipgloss.Style
	badge, rated    lipgloss.Style

	cardBorder, cardTitle, cardLabel lipgloss.Style
	tool, barFull, barEmpty, number  lipgloss.Style

	spinner, progress     lipgloss.Style
	status, statusKey     lipgloss.Style
	helpKey, helpDesc     lipgloss.Style
	selected, unselected  lipgloss.Style
	panelTitle, highlight lipgloss.Style
	separator             lipgloss.Style
}

// newStyles makes the styles. Without colour (NO_COLOR) the styles keep
// their bold, underline and reverse, so the cursor and the selection still
// show.
func newStyles(r *lipgloss.Renderer, noColor bool) styles {
	color := func(light, dark string) lipgloss.TerminalColor {
		if noColor {
			return lipgloss.NoColor{}
		}
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	accent := color("#5A4FCF", "#A49BFF")
	green := color("#1F7A3A", "#6BD68A")
	red := color("#B3261E", "#FF8A80")
	muted := color("#6B6B6B", "#9A9A9A")
	faint := color("#C8C8C8", "#4A4A4A")
	text := color("#1A1A1A", "#E8E8E8")
	s := r.NewStyle
	return styles{
		renderer: r,
		dark:     r.HasDarkBackground(),
		noColor:  noColor || r.ColorProfile() == termenv.Ascii,

		user:      s().Foreground(accent).Bold(true),
		userText:  s().Foreground(text),
		answer:    s().Foreground(text),
		note:      s().Foreground(muted),
		errorText: s().Foreground(red),
		badge:     s().Foreground(muted),
		rated:     s().Foreground(green),

		cardBorder: s().Foreground(faint),
		cardTitle:  s().Foreground(muted),
		cardLabel:  s().Foreground(muted),
		tool:       s().Foreground(text).Bold(true),
		barFull:    s().Foreground(accent),
		barEmpty:   s().Foreground(faint),
		number:     s().Foreground(text),

		spinner:    s().Foreground(accent),
		progress:   s().Foreground(muted),
		status:     s().Foreground(muted),
		statusKey:  s().Foreground(text),
		helpKey:    s().Foreground(text).Bold(true),
		helpDesc:   s().Foreground(muted),
		selected:   s().Foreground(accent).Bold(true),
		unselected: s().Foreground(text),
		panelTitle: s().Foreground(accent).Bold(true),
		highlight:  s().Foreground(accent).Underline(true),
		separator:  s().Foreground(faint),
	}
}

// partialBlocks are the blocks a bar ends with, 1/8 to 7/8 of a cell
// (three bytes each in UTF-8).
const partialBlocks = "▏▎▍▌▋▊▉"

// bar draws frac (clamped to [0, 1]) as a bar width cells wide.
func (st styles) bar(frac float64, width int) string {
	if width <= 0 {
		return ""
	}
	if math.IsNaN(frac) || frac < 0 {
		frac = 0
	}
	frac = min(frac, 1)
	cells := int(math.Round(frac * float64(width) * 8))
	full, part := cells/8, cells%8
	filled, used := strings.Repeat("█", full), full
	if part > 0 {
		filled += partialBlocks[(part-1)*3 : part*3]
		used++
	}
	return st.barFull.Render(filled) + st.barEmpty.Render(strings.Repeat("░", width-used))
}
