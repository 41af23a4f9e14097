package offline

import (
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
		_, ok := e.fill(a, spec, p, used, &r)
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
		switch p.Type {
		case tools.TypeString:
		case tools.TypeEnum:
			fit.Enums++
			if ok {
				fit.EnumsFilled++
			}
		default:
			fit.Typed++
			if ok {
				fit.TypedFilled++
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
