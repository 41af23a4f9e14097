package tools

import (
	"fmt"
	"io/fs"
	"strings"
)

// Hints is what a tool tells an offline grounding engine about its job,
// as plain data: the words of its subject, the shape of its answer, what
// its parameters mean, and what people call it. A built-in tool keeps its
// word lists in embedded files beside its code; a declared tool writes the
// same fields in its YAML file; a tool with no hints is grounded on its
// description, examples and parameters alone.
type Hints struct {
	// Aliases are the words people call the tool (or its family) by —
	// "calculator", "maths", "clock" — which /use and /tool accept as well
	// as the tool's name and family.
	Aliases []string `json:"aliases,omitempty" yaml:"aliases,omitempty"`
	// Subjects are the vocabularies of the tool's subject. Tools that name
	// the same subject share its words.
	Subjects []Subject `json:"subjects,omitempty" yaml:"subjects,omitempty"`
	// Params say what parameters mean, by parameter name.
	Params map[string]ParamHint `json:"params,omitempty" yaml:"params,omitempty"`
}

// Answer is the shape of the answer a question asks for, named as GEAR's
// output patterns are ("time", "weather", "number"), plus the two shapes
// of a look-up: a fact and a place.
type Answer string

const (
	AnswerNumber  Answer = "number"
	AnswerTime    Answer = "time"
	AnswerDate    Answer = "date"
	AnswerWeather Answer = "weather"
	AnswerFact    Answer = "fact"
	AnswerPlace   Answer = "place"
)

// Known reports whether a is one of the shapes above.
func (a Answer) Known() bool {
	switch a {
	case AnswerNumber, AnswerTime, AnswerDate, AnswerWeather, AnswerFact, AnswerPlace:
		return true
	}
	return false
}

// Subject is one vocabulary of a tool's subject. Words are single words;
// the phrase lists hold phrases of one or more words. Everything is lower
// case.
type Subject struct {
	// Name names the subject ("weather", "clock"); it is a feature of
	// the engine's vectors, shared by every tool that names it.
	Name string `json:"name" yaml:"name"`
	// Answer is the shape of answer a question in the subject's words
	// asks for: the clock's words ask for a time, the weather's for a
	// weather reading, arithmetic's for a number.
	Answer Answer `json:"answer" yaml:"answer"`
	// Example is a short example of the subject's answer ("sunny, 21
	// °C", "10:30"): an offline engine's preliminary answer to a question
	// of the subject has its shape (GEAR, arXiv:2307.08775, §3.2).
	Example string `json:"example,omitempty" yaml:"example,omitempty"`
	// Words are the words people use when they talk about the subject
	// ("foggy", "forecast"), in any language; inflections are found by
	// stemming.
	Words []string `json:"words,omitempty" yaml:"words,omitempty"`
	// Cues are phrases of a question that ask for the subject's answer
	// wherever they stand in it ("time is it", "the time in", "today's
	// date"); a one-word cue counts in the subject's sense ("weather",
	// not "under the weather").
	Cues []string `json:"cues,omitempty" yaml:"cues,omitempty"`
	// Openers are openings of a question that ask for the subject's
	// answer when the question ends there or goes on with a word of place
	// or time ("what time", "what's the date"), not with an event ("what
	// time does it open").
	Openers []string `json:"openers,omitempty" yaml:"openers,omitempty"`
	// Asking are phrases that ask for the subject's answer whatever else
	// the query says ("quel temps", "wie spät"): questions of other
	// languages, mostly, whose other words the engine cannot read.
	Asking []string `json:"asking,omitempty" yaml:"asking,omitempty"`
	// Idioms are fixed expressions that contain a word of the subject
	// without being about it ("under the weather", "rain check").
	Idioms []string `json:"idioms,omitempty" yaml:"idioms,omitempty"`
	// Things are words that, right after a word of the subject, give it
	// another sense: nouns it modifies ("a rain jacket", "hot coffee",
	// "weather-resistant", "a time machine") and words of its other uses
	// ("time off", "date of birth").
	Things []string `json:"things,omitempty" yaml:"things,omitempty"`
	// Modifiers are words that, right before a word of the subject, give
	// it another sense ("vacation time", "on time", "due date", "pay
	// day").
	Modifiers []string `json:"modifiers,omitempty" yaml:"modifiers,omitempty"`
	// Readings are the measures of the subject whose current value "the"
	// and the measure ask for at the end of a question ("what's the
	// humidity").
	Readings []string `json:"readings,omitempty" yaml:"readings,omitempty"`
	// Conditions are words for how things are that ask about the subject
	// between "it" and "out" ("is it nice out").
	Conditions []string `json:"conditions,omitempty" yaml:"conditions,omitempty"`
	// States are states that the subject's answer decides, asked as "is
	// it STATE" ("is it morning in Honolulu", "is it dark yet").
	States []string `json:"states,omitempty" yaml:"states,omitempty"`
	// Gradable are adjectives of the subject that have a comparative and
	// a superlative ("windier", "hottest").
	Gradable []string `json:"gradable,omitempty" yaml:"gradable,omitempty"`
	// Spellings are long words of the subject whose typing slips are read
	// as them ("temprature", "wether").
	Spellings []string `json:"spellings,omitempty" yaml:"spellings,omitempty"`
	// Names are the nouns that name the subject's answer itself ("time",
	// "hour", "clock"; "date", "day", "month"): "what NAME" asks for the
	// answer, and so does a name followed by a place ("the hour in
	// Quito"). A name that is also a unit of measure ("hour") asks only
	// after "the", "what" or "which" ("an hour in Paris" is a length).
	Names []string `json:"names,omitempty" yaml:"names,omitempty"`
	// Differences are words of how far one place's answer is from
	// another's ("ahead", "behind"), which ask for the answer when said
	// with two places, or with one place and a word of Names.
	Differences []string `json:"differences,omitempty" yaml:"differences,omitempty"`
	// Offsets are words of a difference that ask for the answer with any
	// place ("offset").
	Offsets []string `json:"offsets,omitempty" yaml:"offsets,omitempty"`
	// Reaching are verbs of reaching someone ("call", "phone"): with a
	// place called, or where the callee is, and a word of Timing, they ask
	// whether it is a good moment there.
	Reaching []string `json:"reaching,omitempty" yaml:"reaching,omitempty"`
	// Timing are words of whether it is a good moment ("now", "late",
	// "asleep"); see Reaching.
	Timing []string `json:"timing,omitempty" yaml:"timing,omitempty"`
	// Counts are the plural nouns that "how many" counts from today to a
	// day of the calendar ("how many days until", "how many sleeps till").
	Counts []string `json:"counts,omitempty" yaml:"counts,omitempty"`
	// Outdoors are words of the world outside ("out", "outside"): after
	// "it" and a word of Conditions ("is it nice out"), or after a
	// reading ("the temperature outside"), they ask for the answer here.
	Outdoors []string `json:"outdoors,omitempty" yaml:"outdoors,omitempty"`
	// SourceCues are phrases that, right before a place, make it where a
	// given answer is, the source of a conversion ("my time in"); TargetCues
	// make it the place whose answer is asked, the target ("time in", "time
	// is it in").
	SourceCues []string `json:"source_cues,omitempty" yaml:"source_cues,omitempty"`
	TargetCues []string `json:"target_cues,omitempty" yaml:"target_cues,omitempty"`
}

// ParamHint says what a parameter means beyond its type.
type ParamHint struct {
	// Role is a place's or time's part in the call: "from" (where a given
	// time is, the source), "to" (where it is wanted, the target); empty
	// means the place the question is about.
	Role ParamRole `json:"role,omitempty" yaml:"role,omitempty"`
	// Here: when the query names no place and asks for what the tool
	// answers ("will it rain?"), the place is the user's own.
	Here bool `json:"here,omitempty" yaml:"here,omitempty"`
	// Canonical, for an enum parameter whose values spell one thing two
	// ways (a language's name and its code), maps a spelling to the value
	// an engine writes for it: the query says "Japanese", the call says
	// "ja". Both are values of the enum, so the machine accepts either.
	Canonical map[string]string `json:"canonical,omitempty" yaml:"canonical,omitempty"`
	// Place is what a place parameter takes: PlaceZone (a time zone: a
	// UTC offset, a zone's abbreviation or name, or anywhere with a
	// clock) or PlaceLocation (somewhere on the map: a zone alone is no
	// location); empty means either.
	Place PlaceKind `json:"place,omitempty" yaml:"place,omitempty"`
	// Functions, for an expression parameter, name the functions of the
	// tool's expression language that compute operations an engine reads
	// in words (see Operation): {"range_sum": "sum_range"} lets "the sum
	// of 1 through 100" be written sum_range(1, 100). An engine writes
	// no operation the hints do not name.
	Functions map[Operation]string `json:"functions,omitempty" yaml:"functions,omitempty"`
}

// Operation is an operation an engine reads in words and writes with
// the function an expression parameter's hints name for it.
type Operation string

const (
	// OpRangeSum: f(first, last) and f(first, last, step) sum first,
	// first+step, … up to last.
	OpRangeSum Operation = "range_sum"
	// OpRangeProduct: f(first, last) multiplies the whole numbers from
	// first to last.
	OpRangeProduct Operation = "range_product"
	// OpDate: f(year, month, day) is the day's number, so that the
	// difference of two is the days between them.
	OpDate Operation = "date"
	// OpDaysBetween: f(d1, d2) is the days from d1 to d2, two OpDate
	// numbers.
	OpDaysBetween Operation = "days_between"
	// OpCalendarDate: f(n) is the OpDate number n written as its calendar
	// date, so that a date and a number of days make a date ("90 days
	// after march 3 2025").
	OpCalendarDate Operation = "calendar_date"
	// OpSin, OpCos, OpTan: f(x) of an angle x in radians.
	OpSin Operation = "sin"
	OpCos Operation = "cos"
	OpTan Operation = "tan"
)

// Known reports whether o is one of the operations above.
func (o Operation) Known() bool {
	switch o {
	case OpRangeSum, OpRangeProduct, OpDate, OpDaysBetween, OpCalendarDate, OpSin, OpCos, OpTan:
		return true
	}
	return false
}

// PlaceKind is what a place parameter takes (see ParamHint).
type PlaceKind string

const (
	PlaceZone     PlaceKind = "zone"
	PlaceLocation PlaceKind = "location"
)

// ParamRole is a parameter's part in a call (see ParamHint).
type ParamRole string

const (
	RoleFrom ParamRole = "from"
	RoleTo   ParamRole = "to"
)

// MaxHintEntryLen bounds one word or phrase of a hints list, in bytes.
const MaxHintEntryLen = 80

// Validate checks hints against the spec's parameters.
func (h Hints) Validate(params []Param) error {
	for i, s := range h.Subjects {
		if strings.TrimSpace(s.Name) == "" {
			return fmt.Errorf("hints: subject %d has no name", i+1)
		}
		if s.Answer != "" && !s.Answer.Known() {
			return fmt.Errorf("hints: subject %s: unknown answer %q (want number, time, date, weather, fact or place)", s.Name, s.Answer)
		}
		for _, list := range []struct {
			name    string
			entries []string
		}{{"words", s.Words}, {"cues", s.Cues}, {"openers", s.Openers}, {"asking", s.Asking}, {"idioms", s.Idioms},
			{"things", s.Things}, {"modifiers", s.Modifiers}, {"readings", s.Readings}, {"conditions", s.Conditions},
			{"states", s.States}, {"gradable", s.Gradable}, {"spellings", s.Spellings}, {"names", s.Names},
			{"differences", s.Differences}, {"offsets", s.Offsets}, {"reaching", s.Reaching}, {"timing", s.Timing},
			{"counts", s.Counts}, {"outdoors", s.Outdoors}, {"source_cues", s.SourceCues}, {"target_cues", s.TargetCues}} {
			for i, e := range list.entries {
				switch {
				case strings.TrimSpace(e) == "":
					return fmt.Errorf("hints: subject %s: %s: entry %d is empty", s.Name, list.name, i+1)
				case len(e) > MaxHintEntryLen:
					return fmt.Errorf("hints: subject %s: %s: entry %d is longer than %d bytes", s.Name, list.name, i+1, MaxHintEntryLen)
				case strings.Contains(e, "|"):
					return fmt.Errorf("hints: subject %s: %s: entry %d contains |: write one phrase per entry", s.Name, list.name, i+1)
				}
			}
		}
	}
	for name, p := range h.Params {
		found := false
		for _, q := range params {
			found = found || q.Name == name
		}
		if !found {
			return fmt.Errorf("hints: no parameter called %q", name)
		}
		for from, to := range p.Canonical {
			if !enumHas(params, name, from) || !enumHas(params, name, to) {
				return fmt.Errorf("hints: parameter %s: canonical %q → %q: both must be values of its enum", name, from, to)
			}
		}
		switch p.Role {
		case "", RoleFrom, RoleTo:
		default:
			return fmt.Errorf("hints: parameter %s: unknown role %q (want from or to)", name, p.Role)
		}
		switch p.Place {
		case "", PlaceZone, PlaceLocation:
		default:
			return fmt.Errorf("hints: parameter %s: unknown place %q (want zone or location)", name, p.Place)
		}
		for op, fn := range p.Functions {
			if !op.Known() {
				return fmt.Errorf("hints: parameter %s: unknown operation %q (want range_sum, range_product, date, days_between, calendar_date, sin, cos or tan)", name, op)
			}
			if ok, _, _ := CheckExpression(fn + "(1)"); !ok || strings.ContainsAny(fn, "() ") {
				return fmt.Errorf("hints: parameter %s: operation %s: %q is not a function name", name, op, fn)
			}
		}
	}
	return nil
}

// enumHas reports whether the parameter called name has v in its enum.
func enumHas(params []Param, name, v string) bool {
	for _, p := range params {
		if p.Name == name {
			for _, e := range p.Enum {
				if e == v {
					return true
				}
			}
		}
	}
	return false
}

// WordList reads an embedded word list: one entry (a word or a phrase)
// per line, lower case; blank lines and lines starting with # are
// skipped, and spaces inside a phrase are collapsed.
func WordList(data string) []string {
	var out []string
	for _, line := range strings.Split(data, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out
}

// CheckWordList reports the first problem of a word list: an empty list,
// an entry with capitals, an entry twice, or (when words is set) an entry
// of more than one word.
func CheckWordList(list []string, words bool) error {
	if len(list) == 0 {
		return fmt.Errorf("empty list")
	}
	seen := map[string]bool{}
	for _, w := range list {
		if strings.ToLower(w) != w {
			return fmt.Errorf("%q: not lower case", w)
		}
		if seen[w] {
			return fmt.Errorf("%q: listed twice", w)
		}
		seen[w] = true
		if words && strings.ContainsRune(w, ' ') {
			return fmt.Errorf("%q: a phrase in a list of words", w)
		}
	}
	return nil
}

// EmbeddedList reads the word list hints/NAME.txt of a tool package's
// embedded files. The files are part of the binary, so a missing one is a
// programming error that the package's tests catch: it panics.
func EmbeddedList(fsys fs.FS, name string) []string {
	data, err := fs.ReadFile(fsys, "hints/"+name+".txt")
	if err != nil {
		panic(fmt.Sprintf("tools: embedded word list %s: %v", name, err))
	}
	return WordList(string(data))
}

// CheckEmbeddedLists checks every word list under hints/ of a tool
// package's embedded files with CheckWordList; lists whose names end in
// -idioms, -asking, -aliases, -cues or -openers may hold phrases. It returns the lists' names.
func CheckEmbeddedLists(fsys fs.FS) ([]string, error) {
	names, err := fs.Glob(fsys, "hints/*.txt")
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("no word lists under hints/ (%v)", err)
	}
	var out []string
	for _, n := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(n, "hints/"), ".txt")
		words := !strings.HasSuffix(name, "-idioms") && !strings.HasSuffix(name, "-asking") && !strings.HasSuffix(name, "-aliases") &&
			!strings.HasSuffix(name, "-cues") && !strings.HasSuffix(name, "-openers")
		if err := CheckWordList(EmbeddedList(fsys, name), words); err != nil {
			return out, fmt.Errorf("%s: %w", n, err)
		}
		out = append(out, name)
	}
	return out, nil
}
