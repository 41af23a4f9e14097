package ui

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/store"
)

// ratedMsg reports a rating saved (or not) against its turn.
type ratedMsg struct {
	entry  *entry
	rating store.Rating
	err    error
}

// rateCmd stores the rating of the entry's turn.
func rateCmd(ctx context.Context, h History, e *entry, r store.Rating) tea.Cmd {
	return func() tea.Msg { return ratedMsg{entry: e, rating: r, err: h.Rate(ctx, r)} }
}

func (m *Model) onRated(msg ratedMsg) {
	e := msg.entry
	if msg.err != nil {
		e.rateNote = "The rating was not saved: " + cleanLine(msg.err.Error())
	} else {
		r := msg.rating
		e.rating, e.rateNote = &r, ""
	}
	e.invalidate()
}

// ratingTarget is the turn a rating key rates: the last turn, once it has
// answered and is stored.
func (m *Model) ratingTarget() (*entry, bool) {
	if m.history == nil {
		m.flash = "Ratings need the history database, and it is not open."
		return nil, false
	}
	e := m.conv.lastTurn()
	if e == nil || !e.rateable() {
		m.flash = "There is no answer to rate yet."
		return nil, false
	}
	return e, true
}

// rate saves a rating of the last turn.
func (m *Model) rate(edit func(*store.Rating)) tea.Cmd {
	e, ok := m.ratingTarget()
	if !ok {
		return nil
	}
	return m.rateEntry(e, edit)
}

// rateEntry saves a rating of the entry's turn, keeping what an earlier
// rating of it said (a thumbs up keeps a "wrong tool" flag, and the other
// way round).
func (m *Model) rateEntry(e *entry, edit func(*store.Rating)) tea.Cmd {
	r := store.Rating{TurnID: e.rec.TurnID}
	if e.rating != nil {
		r = *e.rating
	}
	r.Rated = m.now()
	edit(&r)
	return rateCmd(m.ctx, m.history, e, r)
}

func (m *Model) rateScore(s store.Score) tea.Cmd {
	return m.rate(func(r *store.Rating) { r.Score = s })
}

// openPicker asks which tool the last turn should have used, or whether
// it needed none (the last choice).
func (m *Model) openPicker() {
	e, ok := m.ratingTarget()
	if !ok {
		return
	}
	m.picker = &toolPicker{turn: e, tools: wantedChoices(m.names)}
}

// wrongToolSaved is the hint after a "wrong tool" rating.
func wrongToolSaved(wanted string) string {
	if wanted == store.WantedNone {
		return "Saved: wrong tool, no tool was needed."
	}
	return "Saved: wrong tool, you wanted " + cleanLine(wanted) + ". /use " + cleanLine(wanted) + " answers again with it."
}

// rateCommand is /rate up|down|wrong [TOOL|none] [COMMENT].
func (m *Model) rateCommand(args string) tea.Cmd {
	verb, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(verb) {
	case "up", "+", "good":
		return m.rate(func(r *store.Rating) { r.Score, r.Comment = store.ScoreUp, commentOr(r.Comment, rest) })
	case "down", "-", "bad":
		return m.rate(func(r *store.Rating) { r.Score, r.Comment = store.ScoreDown, commentOr(r.Comment, rest) })
	case "wrong":
		tool, comment, _ := strings.Cut(rest, " ")
		if tool == "" {
			m.openPicker()
			return nil
		}
		name, ok := findFold(wantedChoices(m.names), tool)
		if !ok {
			m.addError("/rate wrong: there is no tool called " + cleanLine(tool) + "; the tools are " + strings.Join(m.names, ", ") +
				" (or none: no tool was needed)")
			return nil
		}
		return m.rate(func(r *store.Rating) {
			r.WrongTool, r.WantedTool, r.Comment = true, name, commentOr(r.Comment, strings.TrimSpace(comment))
		})
	}
	m.addNotice("Rate the last answer with " + m.keys.Up.Help().Key + " 👍, " + m.keys.Down.Help().Key + " 👎 or " +
		m.keys.WrongTool.Help().Key + " (wrong tool), or type /rate up|down [comment], /rate wrong TOOL [comment], " +
		"/rate wrong none [comment] (no tool was needed).")
	return nil
}

func commentOr(old, comment string) string {
	if comment == "" {
		return old
	}
	return comment
}

// wantedChoices are what a "wrong tool" rating can name as the tool
// wanted: the library's tools, then store.WantedNone (no tool was needed).
// The picker lists them, Tab completes them and /rate wrong takes them.
func wantedChoices(names []string) []string {
	return append(append([]string(nil), names...), store.WantedNone)
}

// findFold finds name among choices, any case.
func findFold(choices []string, name string) (string, bool) {
	for _, c := range choices {
		if strings.EqualFold(c, name) {
			return c, true
		}
	}
	return "", false
}
