package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// inputPrompt starts the input's first line; later lines are indented.
const inputPrompt = "› "

// input is the multi-line message box with recall of earlier lines
// (↑ on its first row, ↓ on its last) and the completion candidates shown
// above it.
type input struct {
	ta     textarea.Model
	recall []string // earlier lines, oldest first
	pos    int      // the line recalled; len(recall) is the draft
	draft  string   // what was being typed before recalling
	// suggestions are the completions Tab found, shown above the input.
	suggestions []string
	maxRows     int
}

func newInput(st styles, keys keyMap) input {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	// 0 lifts the row limit (a long paste); the height is set per frame.
	ta.MaxHeight = 0
	ta.Placeholder = "Ask anything · /GEAR runs a tool directly · /help"
	ta.SetPromptFunc(ansi.StringWidth(inputPrompt), func(line int) string {
		if line == 0 {
			return st.user.Render(inputPrompt)
		}
		return strings.Repeat(" ", ansi.StringWidth(inputPrompt))
	})
	ta.KeyMap.InsertNewline = keys.Newline
	// ctrl+t is "wrong tool" here, not transpose.
	ta.KeyMap.TransposeCharacterBackward = key.NewBinding(key.WithDisabled())
	plain := st.renderer.NewStyle()
	style := textarea.Style{Base: plain, CursorLine: plain, CursorLineNumber: plain, EndOfBuffer: plain,
		LineNumber: plain, Placeholder: st.note, Prompt: plain, Text: st.userText}
	ta.FocusedStyle, ta.BlurredStyle = style, style
	ta.Cursor.Style = st.renderer.NewStyle().Reverse(true)
	ta.Cursor.TextStyle = st.userText
	ta.Cursor.SetMode(cursor.CursorStatic)
	ta.Focus()
	ta.SetHeight(1)
	return input{ta: ta, maxRows: 6}
}

func (in *input) value() string { return in.ta.Value() }

// set replaces the text, the cursor at its end.
func (in *input) set(s string) {
	in.ta.SetHeight(in.maxRows)
	in.ta.SetValue(s)
	in.ta.CursorEnd()
	in.scrollToCursor()
	in.fit()
}

// scrollToCursor puts the cursor in view. The textarea scrolls its
// viewport in Update but gives the viewport its lines only in View, so
// right after a paste or a new value it scrolls over the old text and
// stops short: the cursor (and the end of a paste) is out of sight until
// the next key. Its lines are refreshed first, then it scrolls.
func (in *input) scrollToCursor() {
	if in.rows() <= in.ta.Height() {
		return
	}
	_ = in.ta.View()
	in.ta, _ = in.ta.Update(nil)
}

func (in *input) reset() {
	in.ta.Reset()
	in.suggestions = nil
	in.pos = len(in.recall)
	in.draft = ""
	in.fit()
}

// remember adds a sent line to the recall list (not twice in a row).
func (in *input) remember(line string) {
	line = strings.TrimSpace(line)
	if line != "" && (len(in.recall) == 0 || in.recall[len(in.recall)-1] != line) {
		in.recall = append(in.recall, line)
	}
	in.pos = len(in.recall)
}

// recallLine moves through the earlier lines: -1 is older, +1 newer. It
// reports false when the cursor is not on the input's first (or last) row,
// so the arrow moves the cursor instead.
func (in *input) recallLine(dir int) bool {
	if dir < 0 && !in.onFirstRow() || dir > 0 && !in.onLastRow() {
		return false
	}
	next := in.pos + dir
	if next < 0 || next > len(in.recall) {
		return true
	}
	if in.pos == len(in.recall) {
		in.draft = in.value()
	}
	in.pos = next
	if next == len(in.recall) {
		in.set(in.draft)
	} else {
		in.set(in.recall[next])
	}
	return true
}

func (in *input) onFirstRow() bool { return in.ta.Line() == 0 && in.ta.LineInfo().RowOffset == 0 }

func (in *input) onLastRow() bool {
	li := in.ta.LineInfo()
	return in.ta.Line() == in.ta.LineCount()-1 && li.RowOffset == li.Height-1
}

func (in *input) setWidth(w int) {
	in.ta.SetWidth(max(w, 10))
	in.fit()
}

// setMaxRows bounds the input's height (a fifth of the screen).
func (in *input) setMaxRows(n int) {
	in.maxRows = max(n, 1)
	in.fit()
}

// fit grows the input with its text, up to maxRows.
func (in *input) fit() { in.ta.SetHeight(clamp(in.rows(), 1, in.maxRows)) }

// rows is how many screen rows the text takes at the input's width.
func (in *input) rows() int {
	w := max(in.ta.Width(), 1)
	rows := 0
	for _, l := range strings.Split(in.value(), "\n") {
		rows += ansi.StringWidth(l)/w + 1
	}
	return rows
}

// position says where the cursor is when the text is taller than the
// box, so a long paste shows that it scrolls: "line 7 of 20", or for one
// long wrapped line "row 3 of 9". It is empty while everything fits.
func (in *input) position() string {
	if in.rows() <= in.ta.Height() {
		return ""
	}
	if n := in.ta.LineCount(); n > 1 {
		return fmt.Sprintf("line %d of %d", in.ta.Line()+1, n)
	}
	li := in.ta.LineInfo()
	return fmt.Sprintf("row %d of %d", li.RowOffset+1, li.Height)
}

// update applies a key or a paste. The textarea scrolls to keep the cursor
// in view of its current height, so it is given its full height first: a
// box about to grow must not scroll its first row out of sight.
func (in *input) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	in.ta.SetHeight(in.maxRows)
	in.ta, cmd = in.ta.Update(msg)
	in.scrollToCursor()
	in.fit()
	return cmd
}

func (in *input) view() string { return in.ta.View() }
