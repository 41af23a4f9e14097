package ui

import (
	"strings"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/store"
)

type entryKind int

const (
	// entryTurn is a question and what gear did with it.
	entryTurn entryKind = iota
	// entryNote is gear's own text in Markdown: /tools, /help.
	entryNote
	// entryNotice is a remark of gear's in plain text, shown muted.
	entryNotice
	// entryError is something that went wrong outside a turn, one line.
	entryError
)

// entry is one item of the conversation. Its rendered lines are kept for
// the width they were made at and dropped when it changes (invalidate),
// so a keystroke redraws nothing but the input.
type entry struct {
	kind entryKind
	text string // entryNote, entryError

	// input is what the user typed; rec is the turn as far as it went.
	input    string
	rec      agent.Record
	live     bool // the turn is running
	expanded bool // the grounding card shows every tool
	rating   *store.Rating
	rateNote string // the rating's save failure, shown under the badge

	cache      []string
	cacheWidth int
	// stream keeps the finished blocks of an answer being written.
	stream streamed
	// images are the previews of the images the turn's tool saved
	// (images.go), rendered once when the turn ends.
	images []string
	// imagePaths are the files those images were read from, for the
	// viewer (viewer.go).
	imagePaths []string
	// imageHint, under a preview, says which key shows the real image.
	imageHint string
}

func (e *entry) invalidate() { e.cache = nil }

// turnID is the recorded turn, 0 before the agent recorded it.
func (e *entry) turnID() int64 {
	if e.kind != entryTurn {
		return 0
	}
	return e.rec.TurnID
}

// hasCard says whether the turn shows a grounding card.
func (e *entry) hasCard() bool {
	return e.kind == entryTurn && (e.rec.Grounding != nil || e.rec.Route != nil || e.rec.Call != nil)
}

// rateable says whether the turn can be rated: it answered and is stored.
func (e *entry) rateable() bool {
	return e.kind == entryTurn && !e.live && e.rec.TurnID != 0 && e.rec.Status == store.StatusDone
}

// recordFromStored rebuilds what the card and badge show from a stored
// turn: the store keeps who chose the tool and who wrote the answer, the
// route's probability and threshold, and each tool's probability (turns
// recorded before schema 5 read back without the probabilities, and the
// card leaves them out), and the call confidence with its doubts (turns
// recorded before schema 9 read back without it, and the card says
// nothing about the call).
func recordFromStored(t store.Turn, conv store.Conversation) agent.Record {
	r := agent.Record{ConversationID: t.ConversationID, TurnID: t.TurnID, Input: storedInput(t), Query: t.Query,
		Mode: t.Mode, Status: t.Status, Error: t.Error, Tool: t.Tool, Family: t.ToolFamily,
		Confidence: t.Confidence, Grounded: t.HasConfidence(), ChosenBy: t.ChosenBy, Answer: t.Answer,
		AnsweredBy: t.AnsweredBy, Engines: agent.Engines{Chat: conv.Chat, Grounding: conv.Grounding, Embedding: conv.Embedding},
		CallReading: agent.ReadingOf(t.CallReading)}
	if t.Route != store.RouteUndecided {
		r.Route = &agent.Route{NeedsTool: t.Route == store.RouteTool, By: t.RouteBy,
			Probability: t.RouteProbability, Threshold: t.RouteThreshold}
	}
	if len(t.Grounding) > 0 {
		g := &agent.Grounding{Engine: conv.Grounding.Engine, Choice: t.Tool, Confidence: t.Confidence}
		for _, s := range t.Grounding {
			g.Tools = append(g.Tools, agent.Score{Tool: s.Tool, Family: s.Family, S: s.Semantic, P: s.Pattern,
				F: s.Final, Probability: s.Probability, Call: s.Call, Response: s.Response, Status: agent.ProbeStatusOf(s.ResponseKind)})
			// A turn routed to a tool that none ran (cancelled or refused
			// at the confirm prompt) still had grounding's choice: the
			// most probable tool, as the live card showed it, not run.
			if t.Tool == "" && t.Route == store.RouteTool && s.Probability > g.Confidence {
				g.Choice, g.Confidence = s.Tool, s.Probability
			}
		}
		r.Grounding = g
	}
	if n := len(t.Calls); n > 0 {
		c := t.Calls[n-1]
		r.Call = &agent.ToolRun{Tool: c.Tool, Call: c.Call, Response: c.Response, Error: c.Error}
		if t.Emission != "" {
			r.Emission = &agent.Emission{Path: t.Emission, Tool: c.Tool, Call: c.Call, Original: c.Original,
				Rejected: c.Check == store.CallRejected, Reading: r.CallReading}
			if t.RepairNote != "" {
				r.Emission.Repairs = strings.Split(t.RepairNote, "; ")
			}
		}
	}
	return r
}

// storedInput is what the user typed for a stored turn: the recorded
// input, or (when it was the query itself) the query with its mode's
// prefix or mark.
func storedInput(t store.Turn) string {
	switch {
	case t.Input != "":
		return t.Input
	case t.Mode == store.ModeDirect:
		return agent.DirectPrefix + " " + t.Query
	case t.Mode == store.ModeBaseline:
		return t.Query + "  (baseline)"
	}
	return t.Query
}

// clean makes untrusted text safe to render: model, tool and history text
// all pass through it.
func clean(s string) string { return sanitize.Text(s) }

func cleanLine(s string) string { return sanitize.Line(s) }
