package timercmd

import (
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
)

func TestTimersAreTold(t *testing.T) {
	t.Parallel()
	blinking := cursor.New()
	blinking.SetMode(cursor.CursorBlink)
	spin := spinner.New()
	_, spinTick := spin.Update(spin.Tick())
	for name, cmd := range map[string]tea.Cmd{
		"tea.Tick":         tea.Tick(time.Hour, func(time.Time) tea.Msg { return nil }),
		"tea.Every":        tea.Every(time.Hour, func(time.Time) tea.Msg { return nil }),
		"a cursor's blink": blinking.Focus(),
		"a spinner's tick": spinTick,
	} {
		if !Is(cmd) {
			t.Errorf("%s is not told a timer", name)
		}
	}
	for name, cmd := range map[string]tea.Cmd{
		"nil":              nil,
		"a plain function": func() tea.Msg { return nil },
		"tea.Quit":         tea.Quit,
		"a batch":          tea.Batch(tea.Quit, tea.Quit),
		"a spinner's Tick": spin.Tick, // the first frame, at once
	} {
		if Is(cmd) {
			t.Errorf("%s is told a timer", name)
		}
	}
}
