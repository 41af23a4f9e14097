package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// The roles of the query's places in a call (extract.go fills the call):
// where the given time is ("from") and where it is wanted ("to"), read
// from the words around each place, and a place parameter's role from the
// tool's hint or its name.

// placeRoleSet holds the query's places with the roles a conversion
// gives them: where the given time is ("from") and where it is wanted
// ("to").
type placeRoleSet struct {
	all      []mention
	from, to int // indexes into all, or -1
}

// roleOf is a place parameter's role: the tool's hint when it gives one,
// else what the parameter's name says — named for the source ("from",
// "source", "src") or for the target ("to", "target", "dest").
func roleOf(param string, hint tools.ParamHint) tools.ParamRole {
	switch {
	case hint.Role != "":
		return hint.Role
	case strings.Contains(param, "from") || strings.Contains(param, "source") || strings.Contains(param, "src"):
		return tools.RoleFrom
	case strings.HasPrefix(param, "to") || strings.Contains(param, "_to") || strings.Contains(param, "target") || strings.Contains(param, "dest"):
		return tools.RoleTo
	}
	return ""
}

// pick returns the place for a parameter of a role: the "from" place for
// the source, the "to" place for the target, and for any other the place
// asked about (the "to" place) or else the first; each place is used
// once, and a time zone alone is never a location.
func (r placeRoleSet) pick(role tools.ParamRole, kind tools.PlaceKind, used map[string]bool) (mention, bool) {
	var order []int
	switch role {
	case tools.RoleFrom:
		order = append(order, r.from)
	default:
		order = append(order, r.to)
	}
	for i := range r.all {
		order = append(order, i)
	}
	for _, i := range order {
		key := "p" + tools.FormatNumber(float64(i))
		if i >= 0 && !used[key] && !(kind == tools.PlaceLocation && r.all[i].Zone) {
			used[key] = true
			return r.all[i], true
		}
	}
	return mention{}, false
}

// placeRoles decides which place a time conversion starts from and which
// it asks about, from plain English cues and the subjects' SourceCues and
// TargetCues: the speaker's place ("I am in", "here") is where the given
// time is; the subjects' target cues ("the time in X", "what time is it in
// X") and the other person's place ("he is in", "someone in") are where it
// is wanted; otherwise the place closest to the given time is where it is,
// and the other is the target.
func placeRoles(a *analysis) placeRoleSet {
	r := placeRoleSet{all: a.places, from: -1, to: -1}
	if len(a.places) < 2 {
		return r
	}
	before := func(m mention, n int) string {
		start := m.Start - n
		if start < 0 {
			start = 0
		}
		return strings.ToLower(a.query[start:m.Start])
	}
	for i, m := range a.places {
		ctx := before(m, 24)
		switch {
		case r.from < 0 && (endsWithAny(ctx, "i am in ", "i'm in ", "i live in ", "we are in ", "we're in ", "here in ") ||
			endsWithAny(ctx, a.lx.questionWords.sourceCues...)):
			r.from = i
		case r.to < 0 && (endsWithAny(ctx, "he is in ", "she is in ", "they are in ",
			"he's in ", "she's in ", "they're in ", "someone in ", "friend in ", "is in ", "to talk to someone in ") ||
			endsWithAny(ctx, a.lx.questionWords.targetCues...)):
			r.to = i
		}
	}
	if r.from < 0 && len(a.datetimes) > 0 {
		dt := strings.Index(a.query, a.datetimes[0])
		best, bestDist := -1, 0
		for i, m := range a.places {
			if i == r.to {
				continue
			}
			d := m.Start - (dt + len(a.datetimes[0]))
			if d < 0 {
				d = dt - m.End
			}
			if d < 0 {
				d = -d
			}
			if best < 0 || d < bestDist {
				best, bestDist = i, d
			}
		}
		r.from = best
	}
	if r.from < 0 {
		for i := range a.places {
			if i != r.to {
				r.from = i
				break
			}
		}
	}
	if r.to < 0 {
		for i := range a.places {
			if i != r.from {
				r.to = i
				break
			}
		}
	}
	return r
}
