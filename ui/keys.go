package ui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
)

// keyMap is every key the chat answers. The input keeps the editing keys
// (arrows, ctrl+a/e/k/u/w, ctrl+v paste); these are the ones around it.
type keyMap struct {
	Send, Newline, Recall, Complete, Scroll key.Binding
	Details, Up, Down, WrongTool, Image     key.Binding
	Cancel, Quit, Help                      key.Binding

	GateRun, GatePick, GateNone key.Binding
	Move, Choose, PickNumber    key.Binding
	Close, Search               key.Binding
	PageUp, PageDown            key.Binding
}

func newKeyMap() keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return keyMap{
		Send:      b([]string{"enter"}, "enter", "send"),
		Newline:   b([]string{"alt+enter", "ctrl+j"}, "alt+enter", "newline"),
		Recall:    b([]string{"up", "down"}, "↑↓", "recall"),
		Complete:  b([]string{"tab"}, "tab", "complete"),
		Scroll:    b([]string{"pgup", "pgdown"}, "pgup/pgdn", "scroll"),
		Details:   b([]string{"ctrl+g"}, "ctrl+g", "details"),
		Up:        b([]string{"ctrl+y"}, "ctrl+y", "👍"),
		Down:      b([]string{"ctrl+x"}, "ctrl+x", "👎"),
		WrongTool: b([]string{"ctrl+t"}, "ctrl+t", "wrong tool"),
		Image:     b([]string{"ctrl+o"}, "ctrl+o", "show the image full size"),
		Cancel:    b([]string{"esc"}, "esc/ctrl+c", "cancel"),
		Quit:      b([]string{"ctrl+c"}, "ctrl+c×2", "quit"),
		Help:      b([]string{"f1"}, "/help", "keys & commands"),

		GateRun:  b([]string{"enter"}, "enter", "run the selected"),
		GatePick: b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "pick"),
		GateNone: b([]string{"esc"}, "esc", "answer without a tool"),

		Move:       b([]string{"up", "down", "ctrl+p", "ctrl+n"}, "↑↓", "move"),
		Choose:     b([]string{"enter"}, "enter", "choose"),
		PickNumber: b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "pick"),
		Close:      b([]string{"esc"}, "esc", "close"),
		Search:     b(nil, "type", "search"),
		PageUp:     b([]string{"pgup"}, "pgup", "page up"),
		PageDown:   b([]string{"pgdown"}, "pgdn", "page down"),
	}
}

// newHelp is the help line's renderer in the chat's styles.
func newHelp(st styles) help.Model {
	h := help.New()
	h.ShortSeparator = " · "
	h.Styles = help.Styles{
		ShortKey:       st.helpKey,
		ShortDesc:      st.helpDesc,
		ShortSeparator: st.separator,
		Ellipsis:       st.separator,
		FullKey:        st.helpKey,
		FullDesc:       st.helpDesc,
		FullSeparator:  st.separator,
	}
	return h
}
