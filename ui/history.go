package ui

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/store"
)

// historyLimit bounds the conversations listed and the turns found.
const historyLimit = 200

// conversationsMsg is the list of recent conversations.
type conversationsMsg struct {
	convs []store.Conversation
	err   error
}

func listConversationsCmd(ctx context.Context, h History) tea.Cmd {
	return func() tea.Msg {
		convs, err := h.Conversations(ctx, historyLimit)
		return conversationsMsg{convs: convs, err: err}
	}
}

// searchResultsMsg is one search's hits; seq says which search, so an
// answer to an older one is dropped.
type searchResultsMsg struct {
	seq  int
	hits []store.Hit
	err  error
}

// searchCmd searches the history. While the last word is being typed it
// is searched as a prefix ("adel" finds Adelaide).
func searchCmd(ctx context.Context, h History, seq int, text string, loc *time.Location) tea.Cmd {
	return func() tea.Msg {
		q, err := store.ParseQuery(asPrefix(text), loc)
		if err != nil {
			return searchResultsMsg{seq: seq, err: err}
		}
		hits, err := h.Search(ctx, q, historyLimit)
		return searchResultsMsg{seq: seq, hits: hits, err: err}
	}
}

// asPrefix marks the last word as a prefix when it is a plain word still
// being typed (no filter, no quote, no trailing space).
func asPrefix(text string) string {
	if text == "" || strings.HasSuffix(text, " ") {
		return text
	}
	i := strings.LastIndex(text, " ") + 1
	for _, r := range text[i:] {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return text
		}
	}
	return text + "*"
}

// conversationLoadedMsg is a conversation read back to show it again;
// resumed marks the one reopened on start, focus the turn a search found.
type conversationLoadedMsg struct {
	conv    store.Conversation
	turns   []store.Turn
	resumed bool
	focus   int64
	err     error
}

func loadConversationCmd(ctx context.Context, h History, id, focus int64) tea.Cmd {
	return func() tea.Msg {
		conv, err := h.Conversation(ctx, id)
		if err != nil {
			return conversationLoadedMsg{err: err}
		}
		turns, err := h.Turns(ctx, id)
		return conversationLoadedMsg{conv: conv, turns: turns, focus: focus, err: err}
	}
}

// latestConversationCmd reads the most recent conversation, to resume it;
// with none it reports nothing.
func latestConversationCmd(ctx context.Context, h History, resumable func(store.Conversation) bool) tea.Cmd {
	return func() tea.Msg {
		convs, err := h.Conversations(ctx, resumeLookback)
		if err != nil {
			return conversationLoadedMsg{resumed: true, err: err}
		}
		for _, c := range convs {
			if resumable != nil && !resumable(c) {
				continue
			}
			turns, err := h.Turns(ctx, c.ID)
			return conversationLoadedMsg{conv: c, turns: turns, resumed: true, err: err}
		}
		return conversationLoadedMsg{resumed: true}
	}
}

// resumeLookback is how many recent conversations the chat looks through
// for one to reopen.
const resumeLookback = 50

// historyBrowser lists recent conversations, or the turns a search finds,
// to reopen one.
type historyBrowser struct {
	query textinput.Model
	convs []store.Conversation
	hits  []store.Hit
	sel   int
	seq   int
	err   string
}

func newHistoryBrowser(st styles) *historyBrowser {
	ti := textinput.New()
	ti.Prompt = "search › "
	ti.Placeholder = "words, tool:weather, conf<0.5, rating:wrong, since:2026-11-01"
	ti.PromptStyle, ti.TextStyle, ti.PlaceholderStyle = st.user, st.userText, st.note
	ti.Cursor.Style = st.renderer.NewStyle().Reverse(true)
	ti.Cursor.TextStyle = st.userText
	ti.Focus()
	return &historyBrowser{query: ti}
}

// searching says whether the list shows search hits.
func (b *historyBrowser) searching() bool { return strings.TrimSpace(b.query.Value()) != "" }

func (b *historyBrowser) count() int {
	if b.searching() {
		return len(b.hits)
	}
	return len(b.convs)
}

func (b *historyBrowser) move(d int) { b.sel = clamp(b.sel+d, 0, max(b.count()-1, 0)) }

// selected is the conversation under the cursor (0 when none) and, for a
// search hit, its turn.
func (b *historyBrowser) selected() (conv, turn int64) {
	switch {
	case b.searching() && b.sel < len(b.hits):
		return b.hits[b.sel].ConversationID, b.hits[b.sel].TurnID
	case !b.searching() && b.sel < len(b.convs):
		return b.convs[b.sel].ID, 0
	}
	return 0, 0
}

// historyLines draw the browser in height lines.
func (m *Model) historyLines(b *historyBrowser, width, height int) []string {
	st := m.st
	title := "History — recent conversations"
	if b.searching() {
		title = fmt.Sprintf("History — %s found", plural(len(b.hits), "turn"))
	}
	out := []string{st.panelTitle.Render(clip(title, width)), clip(b.query.View(), width), ""}
	if b.err != "" {
		out = append(out, st.errorText.Render(clip(b.err, width)))
	}
	rows := m.historyRows(b, width)
	if len(rows) == 0 && b.err == "" {
		out = append(out, st.note.Render(clip("Nothing yet.", width)))
	}
	room := max(height-len(out), 1)
	first := clamp(b.sel-room+1, 0, max(len(rows)-room, 0))
	for i := first; i < len(rows) && i < first+room; i++ {
		out = append(out, rows[i])
	}
	for len(out) < height {
		out = append(out, "")
	}
	return out[:height]
}

// historyRows are the list's lines, the selected one marked.
func (m *Model) historyRows(b *historyBrowser, width int) []string {
	st := m.st
	var rows []string
	mark := func(i int, text string) string {
		if i == b.sel {
			return clip(st.selected.Render("› ")+text, width)
		}
		return clip("  "+text, width)
	}
	if b.searching() {
		for i, h := range b.hits {
			when := h.Started.In(m.loc).Format("2006-01-02 15:04")
			tool := ""
			if h.Tool != "" {
				tool = st.note.Render("  " + cleanLine(h.Tool))
				if h.Grounded {
					tool += st.note.Render(" " + pct(h.Confidence))
				}
			}
			// The query once: highlighted when it is what matched, else
			// followed by where the match is.
			text := fmt.Sprintf("#%-4d %s  ", h.ConversationID, when)
			switch h.Source {
			case "user", "turn":
				text += m.snippet(h) + tool
			default:
				where := map[string]string{"assistant": "answer", "tool": "tool response"}[h.Source]
				if where == "" {
					where = cleanLine(h.Source)
				}
				text += st.tool.Render(cleanLine(h.Query)) + tool + st.note.Render("  · "+where+": ") + m.snippet(h)
			}
			rows = append(rows, mark(i, text))
		}
		return rows
	}
	for i, c := range b.convs {
		when := c.Updated.In(m.loc).Format("2006-01-02 15:04")
		title := cleanLine(c.Title)
		if title == "" {
			title = "(untitled)"
		}
		text := fmt.Sprintf("#%-4d %s  ", c.ID, when) + st.tool.Render(title) +
			st.note.Render(fmt.Sprintf("  %s · %s", plural(c.TurnCount, "turn"), c.Mode))
		rows = append(rows, mark(i, text))
	}
	return rows
}

// snippet is the hit's matching text with the matches highlighted. Each
// piece is sanitised on its own, so the byte ranges stay right.
func (m *Model) snippet(h store.Hit) string {
	var b strings.Builder
	for _, p := range h.Pieces() {
		style := m.st.note
		if p.Match {
			style = m.st.highlight
		}
		b.WriteString(style.Render(cleanLine(p.Text)))
	}
	return b.String()
}

// showConversation replaces the conversation with one read back.
func (m *Model) showConversation(msg conversationLoadedMsg) {
	m.conv = newConversation()
	m.conversationID = msg.conv.ID
	var recalled []string
	for _, t := range msg.turns {
		e := &entry{kind: entryTurn, input: storedInput(t), rec: recordFromStored(t, msg.conv), rating: t.Rating}
		m.conv.add(e)
		recalled = append(recalled, storedInput(t))
	}
	m.in.recall = append(recalled, m.in.recall...)
	m.in.pos = len(m.in.recall)
	when := msg.conv.Updated.In(m.loc).Format("2006-01-02 15:04")
	verb := "Reopened"
	if msg.resumed {
		verb = "Resumed"
	}
	m.addNotice(fmt.Sprintf("%s conversation #%d (%s, last %s). /new starts a new one; /history lists the others.",
		verb, msg.conv.ID, plural(len(msg.turns), "turn"), when))
	for i, e := range m.conv.entries {
		if msg.focus != 0 && e.turnID() == msg.focus {
			m.conv.showFrom(i, m.paint, m.contentWidth(), m.convHeight())
		}
	}
}

// plural is "1 turn", "2 turns".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
