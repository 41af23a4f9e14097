package ui

import (
	"context"
	"errors"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/gear-chat/gear/ui/termimg"
)

// Terminal is where the chat runs.
type Terminal struct {
	In  io.Reader
	Out io.Writer
	// OpenTTY reads keys from the controlling terminal, for when standard
	// input is not one.
	OpenTTY bool
	// DarkBackground asks the terminal whether its background is dark,
	// with a short timeout; nil, or ok false, means dark.
	DarkBackground func(context.Context) (dark, ok bool)
}

// Run shows the chat on the terminal until the user quits or ctx ends.
// The colour profile comes from the environment (NO_COLOR is honoured) and
// the background (light or dark) is asked of the terminal here, before the
// program reads its input, through term.DarkBackground only: lipgloss's
// own query waits up to 5 s for a terminal that does not answer.
func Run(ctx context.Context, opts Options, term Terminal) error {
	if opts.Renderer == nil {
		r := lipgloss.NewRenderer(term.Out)
		if r.ColorProfile() == termenv.Ascii {
			// NO_COLOR (or a terminal without colour): keep bold and
			// reverse, which the Ascii profile would drop with the cursor.
			opts.NoColor = true
			r.SetColorProfile(termenv.ANSI)
		}
		dark, ok := true, false
		if term.DarkBackground != nil {
			dark, ok = term.DarkBackground(ctx)
		}
		r.SetHasDarkBackground(dark || !ok)
		opts.Renderer = r
	}
	if opts.Images.Protocol == termimg.Kitty && opts.Graphics == nil {
		// Detect found the kitty protocol on this very terminal.
		opts.Graphics = term.Out
	}
	m, err := New(ctx, opts)
	if err != nil {
		return err
	}
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithAltScreen(), tea.WithOutput(term.Out)}
	if term.OpenTTY {
		popts = append(popts, tea.WithInputTTY())
	} else {
		popts = append(popts, tea.WithInput(term.In))
	}
	_, err = tea.NewProgram(m, popts...).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}
