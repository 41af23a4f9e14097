package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/ui/termimg"
)

// imageCaps is how this terminal shows images: Deps.ImageCaps when stdout
// is a terminal, else nothing is drawn.
func (a *app) imageCaps(ctx context.Context) termimg.Caps {
	if !a.deps.IsTerminal || a.deps.ImageCaps == nil {
		return termimg.Caps{Protocol: termimg.None}
	}
	return a.deps.ImageCaps(ctx)
}

// showSaved prints the files the turn's tool saved that the answer does
// not already name (a chat model's answer may leave the path out), and
// with show draws them where the terminal can.
func (a *app) showSaved(ctx context.Context, r agent.Record, show bool) {
	if r.Call == nil || r.Call.Error != "" {
		return
	}
	paths := tools.SavedFiles(r.Call.Response)
	if len(paths) == 0 {
		return
	}
	caps := termimg.Caps{Protocol: termimg.None}
	if show {
		caps = a.imageCaps(ctx)
	}
	for _, p := range paths {
		if !show || !caps.Graphics() && caps.Protocol != termimg.HalfBlock {
			if !strings.Contains(r.Answer, p) {
				fmt.Fprintln(a.deps.Stdout, sanitize.Line(tools.SavedLine(p)))
			}
			if show && caps.Protocol == termimg.None {
				fmt.Fprintln(a.deps.Stderr, "note: --show draws only on a terminal that can show images; the path is above")
			}
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintf(a.deps.Stderr, "note: cannot show %s: %v\n", sanitize.Line(p), err)
			continue
		}
		out, err := termimg.Render(caps, data, p, termimg.Options{Cols: 40})
		if err != nil {
			fmt.Fprintf(a.deps.Stderr, "note: %v\n", err)
		}
		fmt.Fprint(a.deps.Stdout, out)
	}
}
