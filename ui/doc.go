// Package ui is gear's chat window, a Bubble Tea program: a scrolling
// conversation rendered with Glamour, a multi-line input with history
// recall and Tab completion, the grounding card of every tool turn (the
// route decision, the chosen tool and its confidence, and on demand every
// tool's S, P and f, the call emitted and the tool's response), the
// confidence gate, ratings, the history browser, the status line and the
// help line of the keys that do something now.
//
// The root Model composes small parts and is the only thing that changes
// state, in Update. Everything that waits — a turn's next event, the
// history, a rating, the survey's form — runs in a tea.Cmd that returns a
// message; each message type is declared next to the command that emits
// it. A turn streams as one command per event: handling an event asks for
// the next. View does no I/O and renders only what changed: each entry of
// the conversation keeps its lines for the width they were made at.
//
// The package knows the agent and the store through the small interfaces
// in deps.go; cli wires the real ones (cli/chat.go).
package ui
