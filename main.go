// Command gear is a terminal chatbot that grounds each query to a tool with
// GEAR and emits tool calls under the ToolDec machine. See README.md.
package main

import (
	"context"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/ui/termimg"
)

func main() { os.Exit(run()) }

func run() int {
	restoreTerm()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.Run(ctx, os.Args[1:], cli.Deps{
		Stdin:           os.Stdin,
		Stdout:          os.Stdout,
		Stderr:          os.Stderr,
		Getenv:          os.Getenv,
		HTTP:            &http.Client{},
		Now:             time.Now,
		IsTerminal:      term.IsTerminal(int(os.Stdout.Fd())),
		StdinIsTerminal: term.IsTerminal(int(os.Stdin.Fd())),
		ImageCaps: func(ctx context.Context) termimg.Caps {
			return termimg.DetectStdio(ctx, os.Getenv, term.IsTerminal)
		},
		DarkBackground: func(ctx context.Context) (dark, ok bool) {
			return termimg.BackgroundStdio(ctx, os.Getenv, term.IsTerminal)
		},
	})
}
