package offline

import (
	"regexp"
	"strings"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
)

// argumentFit is how well the query fills a tool's parameters by their
// types (grounding.ArgumentFit): each parameter is read as extract reads
// it, but a parameter the query cannot fill does not end the reading, so
// a tool that lacks one of three values is told from one that lacks all
// three. Parameters of types the engine reads no value of (a boolean, a
// JSON array or object) are left out of the count: the query may well
// hold them, in words the engine does not read.
func (e *Engine) argumentFit(a *analysis, spec tools.Spec) grounding.ArgumentFit {
	var fit grounding.ArgumentFit
	used := map[string]bool{}
	var r callReading
	for _, p := range spec.Params {
		if !readsType(p.Type) {
			continue
		}
		var ok bool
		shaped := p.Type != tools.TypeString && p.Type != tools.TypeEnum
		if asksWhen(p) {
			// A string the tool wants as a date or a time: the query
			// fills it when it says when, in any of the ways the engine
			// reads dates and times.
			ok, shaped = a.saysWhen(), true
		} else {
			_, ok = e.fill(a, spec, p, used, &r)
		}
		if p.Optional {
			if ok {
				fit.OptionalFilled++
			}
			continue
		}
		fit.Required++
		if ok {
			fit.Filled++
		}
		switch {
		case shaped:
			fit.Typed++
			if ok {
				fit.TypedFilled++
			}
		case p.Type == tools.TypeEnum:
			fit.Enums++
			if ok {
				fit.EnumsFilled++
			}
		}
	}
	// The query's own values — its numbers, dates, times and quoted
	// texts — and how many of them the tool's parameters took.
	fit.Values = len(a.operands) + len(a.dates) + len(a.datetimes) + len(a.quoted)
	for k := range used {
		switch k[0] {
		case 'n', 'd', 'q':
			fit.Used++
		}
	}
	fit.Used = min(fit.Used, fit.Values)
	return fit
}

// readsType reports whether fill reads values of type t from a query.
func readsType(t tools.ParamType) bool {
	return t != tools.TypeBoolean && t != tools.TypeJSON
}

// whenFormatRe finds a date or time format a parameter's description
// asks for ("in the format 'YYYY-MM-DD'", "24-hour format 'HH:MM'").
var whenFormatRe = regexp.MustCompile(`\b(?:YYYY|yyyy|HH:MM|hh:mm|MM/DD|DD/MM|MM-DD|DD-MM)\b`)

// asksWhen reports whether a string parameter takes a date or a time: its
// schema's format says so, or its description asks for a date or time
// format, as JSON Schemas written for models often do instead.
func asksWhen(p tools.Param) bool {
	if p.Type != tools.TypeString {
		return false
	}
	switch strings.ToLower(p.Format) {
	case "date", "date-time", "time":
		return true
	}
	return whenFormatRe.MatchString(p.Description)
}

// saysWhen reports whether the query says when: a date, a day, or a
// clock time, written in any of the ways the engine reads them.
func (a *analysis) saysWhen() bool {
	return len(a.dates) > 0 || len(a.datetimes) > 0 || len(calendarDates(a.lower)) > 0
}
