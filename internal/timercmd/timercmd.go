// Package timercmd tells the Bubble Tea commands that wait for a time
// (tea.Tick, tea.Every, a cursor's blink) from those that do work, for
// the tests' drivers of the chat and the questionnaire: they run the
// work to its end and never wait for a timer, so what a test sees does
// not depend on how busy the machine is.
package timercmd

import (
	"reflect"
	"regexp"
	"runtime"

	tea "github.com/charmbracelet/bubbletea"
)

// timerFuncs are the names of the closures those commands are: Bubble
// Tea's Tick and Every, and the blink of Bubbles' cursor (in a text input
// or area: huh's fields, the history search). Inlined, a closure's name
// keeps the function it was written in as its last part.
var timerFuncs = regexp.MustCompile(`\.(Tick|Every|BlinkCmd)\.func[0-9]+$`)

// Is reports whether cmd is a timer: a command that answers only when its
// time comes.
func Is(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	fn := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer())
	return fn != nil && timerFuncs.MatchString(fn.Name())
}
