package survey

import (
	"strings"
	"time"

	"github.com/gear-chat/gear/store"
)

// Label is a past query with the tool family the participant's feedback
// says it needed ("none" for no tool): training data for grounding.
type Label struct {
	TurnID  int64     `json:"turn_id"`
	Query   string    `json:"query"`
	Family  string    `json:"family"`
	Reason  string    `json:"reason"`
	Started time.Time `json:"started"`
}

// Why a turn gives a label.
const (
	// ReasonWrongTool: flagged "wrong tool" naming the wanted tool; the
	// label is the wanted tool's family.
	ReasonWrongTool = "wrong-tool"
	// ReasonUserChose: the participant chose the tool (/use TOOL, "use X
	// instead", or another candidate at the confirmation) and did not rate
	// the answer down; the label is its family.
	ReasonUserChose = "user-chose"
	// ReasonThumbsUp: a tool ran and the answer was rated up; the label is
	// its family.
	ReasonThumbsUp = "thumbs-up"
	// ReasonThumbsUpNoTool: a chat turn answered without a tool was rated
	// up; the label is none.
	ReasonThumbsUpNoTool = "thumbs-up-no-tool"
)

// Why a rated turn gives no label.
const (
	SkipBaseline     = "baseline turn (no grounding)"
	SkipNotGrounded  = "grounding did not run (a typed call, or the turn failed first)"
	SkipUnnamed      = "flagged wrong tool without naming the wanted one"
	SkipUnknownTool  = "the tool is not in the current library"
	SkipThumbsDown   = "rated down without a wrong-tool flag (the answer, not the choice, was blamed)"
	SkipNoVerdict    = "rated without thumbs or flag"
	SkipDirectNoTool = "direct mode turn without a tool"
)

// None is the label of a query that needs no tool: a "wrong tool" rating
// whose wanted tool is store.WantedNone gives it.
const None = store.WantedNone

// FeedbackLabels reads the labels a history's feedback gives, oldest
// first, and counts the rated turns that give none, by reason. family
// maps a tool name (any case) to its family in the current library;
// "none" as a wanted tool labels the query none.
func FeedbackLabels(d store.Dump, family func(tool string) (string, bool)) (labels []Label, skipped map[string]int) {
	skipped = map[string]int{}
	for _, c := range d.Conversations {
		for _, t := range c.Turns {
			label, reason, ok := feedbackLabel(t, family)
			switch {
			case ok:
				labels = append(labels, Label{TurnID: t.TurnID, Query: t.Query, Family: label, Reason: reason, Started: t.Started})
			case reason != "":
				skipped[reason]++
			}
		}
	}
	return labels, skipped
}

// feedbackLabel decides one turn; an unrated turn the participant did not
// steer gives neither a label nor a skip reason.
func feedbackLabel(t store.Turn, family func(string) (string, bool)) (label, reason string, ok bool) {
	r := t.Rating
	userChose := t.ChosenBy == store.ChosenByUser && t.Tool != ""
	if r == nil && !userChose {
		return "", "", false
	}
	if t.Mode == store.ModeBaseline {
		return "", SkipBaseline, false
	}
	if !GroundingRan(t) || strings.TrimSpace(t.Query) == "" {
		return "", SkipNotGrounded, false
	}
	familyOf := func(tool, recorded string) (string, bool) {
		if strings.EqualFold(tool, None) {
			return None, true
		}
		if f, ok := family(tool); ok {
			return f, true
		}
		return recorded, recorded != ""
	}
	switch {
	case r != nil && r.WrongTool:
		if strings.TrimSpace(r.WantedTool) == "" {
			return "", SkipUnnamed, false
		}
		f, ok := familyOf(r.WantedTool, "")
		if !ok {
			return "", SkipUnknownTool, false
		}
		return f, ReasonWrongTool, true
	case userChose && (r == nil || r.Score != store.ScoreDown):
		f, ok := familyOf(t.Tool, t.ToolFamily)
		if !ok {
			return "", SkipUnknownTool, false
		}
		return f, ReasonUserChose, true
	case r.Score == store.ScoreDown:
		return "", SkipThumbsDown, false
	case r.Score != store.ScoreUp:
		return "", SkipNoVerdict, false
	case t.Tool != "":
		f, ok := familyOf(t.Tool, t.ToolFamily)
		if !ok {
			return "", SkipUnknownTool, false
		}
		return f, ReasonThumbsUp, true
	case t.Mode == store.ModeChat && t.Route == store.RouteNone:
		return None, ReasonThumbsUpNoTool, true
	}
	return "", SkipDirectNoTool, false
}

// GroundingRan reports whether GEAR grounded the turn, as the store
// records it (also for a turn routed to no tool). Baseline turns and typed
// calls were not grounded.
func GroundingRan(t store.Turn) bool { return t.Grounded }
