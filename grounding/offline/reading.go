package offline

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
)

// The call confidence (grounding.CallReading): how sure the engine is that
// a call it wrote reads the query's arguments right, apart from whether
// the tool is the right one. Each argument is judged by its type, with
// nothing known of the tool beyond its parameters:
//
//   - an expression: which reading gave it (arithmetic written out, a
//     conversion, or a word problem's operations guessed from its wording);
//     whether every number of the query found its place in it; whether a
//     date or a clock time of the query was left out of arithmetic that
//     does not read dates; whether two units of one dimension were read
//     as one ("5 feet 10 inches"); whether an operator came from a word
//     that is often no operator at all ("over", "x");
//   - a place: named as the gazetteer knows it, by another of its names,
//     or not named at all (the user's home);
//   - a date or a time: written in one of the shapes the tools read, or
//     read from words and typing slips;
//   - a string: quoted, the focus of a question, or words left over
//     around the tool's own words;
//   - a number: named by the parameter's words, or taken by its position.
//
// The confidence is the product of the factors below; each factor under
// one comes with a doubt, a short phrase a person reads.
//
// The judgements of an expression are in reading_expression.go; this file
// holds the factors, the reading as a whole and the other types' judgements.

// Factors of the call confidence.
const (
	certain            = 1    // an argument read from explicit words
	writtenOut         = 0.97 // arithmetic read from words written out
	guessedWordProblem = 0.45 // a word problem's operations guessed from its wording
	storyRead          = 0.9  // a story problem whose every number found a shape
	unplacedNumber     = 0.5  // a number of the query with no place in the expression
	unplacedDate       = 0.5  // a date or time left out of arithmetic
	missingOperation   = 0.3  // an operation the tool names no function for
	assumedUnit        = 0.9  // a unit the query does not say, taken as the usual one
	unplacedUnit       = 0.55 // a unit of a mixed quantity with no place
	vagueOperator      = 0.75 // an operator read from a word that is often no operator
	otherName          = 0.9  // a place found by another of its names
	defaultedPlace     = 0.85 // a required place the query does not name
	spokenWhen         = 0.85 // a date or time read from words or a slip
	positionalNumber   = 0.75 // a number taken by its position
	numbersInOrder     = 0.9  // every number of the query taken, in the order the tool lists its parameters
	leftOverText       = 0.75 // a string made of left-over words
	leftOverPhrase     = 0.85 // left-over words that stand together in the query, as written
	focusText          = 0.92 // a string read as the question's focus
	clauseFocus        = 0.6  // a focus that is a clause, not the name of a thing
)

// callReading gathers one call's confidence and doubts.
type callReading struct {
	factor float64 // 0 means 1: no argument judged yet
	doubts []string
	// byPosition are the numbers taken for parameters by their position,
	// judged together once the call is read (settle).
	byPosition []string
}

func (r *callReading) scale(f float64, doubt string) {
	if r.factor == 0 {
		r.factor = 1
	}
	r.factor *= f
	if doubt != "" {
		r.doubts = append(r.doubts, doubt)
	}
}

// reading is r in grounding's terms.
func (r callReading) reading() grounding.CallReading {
	c := r.factor
	if c == 0 {
		c = 1
	}
	return grounding.CallReading{Confidence: math.Round(c*1000) / 1000, Doubts: r.doubts}
}

// ReadCall is Call with the call confidence: how sure the engine is that
// the call reads the query's arguments right. No call reads with
// confidence 0.
func (e *Engine) ReadCall(ctx context.Context, spec tools.Spec, query string) (string, *grounding.CallReading, error) {
	if err := ctx.Err(); err != nil {
		return "", nil, err
	}
	a := e.analysisOf(query)
	call, r := e.extractRead(a, spec)
	fit := e.argumentFit(a, spec)
	if call == "" {
		return "", &grounding.CallReading{Fit: &fit}, nil
	}
	r.settle(a)
	reading := r.reading()
	reading.Fit = &fit
	return call, &reading, nil
}

// settle judges the numbers taken by position together: when they are
// every number of the query, taken in the order the tool lists its
// parameters ("add the numbers 2 and 3" → add(a, b)), the reading is the
// natural one and one small doubt is enough; otherwise each is a guess.
func (r *callReading) settle(a *analysis) {
	switch {
	case len(r.byPosition) == 0:
	case len(r.byPosition) == len(a.operands) && len(r.byPosition) > 1:
		r.scale(numbersInOrder, fmt.Sprintf("the numbers %s were taken in the order of the tool's parameters", strings.Join(r.byPosition, ", ")))
	default:
		for _, d := range r.byPosition {
			r.scale(positionalNumber, d+" by its position")
		}
	}
	r.byPosition = nil
}

// positional judges a number taken for p by its position.
func (r *callReading) positional(a *analysis, p tools.Param, n number) {
	if len(a.operands) == 1 {
		r.scale(certain, "")
		return
	}
	r.byPosition = append(r.byPosition, fmt.Sprintf("%q was taken for %s", a.query[n.start:n.end], p.Name))
}

// defaulted judges a required place the query does not name.
func (r *callReading) defaulted(p tools.Param, home string) {
	r.scale(defaultedPlace, fmt.Sprintf("no place named: %s is %q", p.Name, home))
}

// place judges a place the query names.
func (r *callReading) place(m mention) {
	if m.Text == "" || fold(m.Text) == fold(m.Name) || m.Zone {
		r.scale(certain, "")
		return
	}
	r.scale(otherName, fmt.Sprintf("%q was read as %s", strings.TrimSpace(m.Text), m.Name))
}

// fold is s in lower case without accents' effect on ASCII, for
// comparing a place as written with its name.
func fold(s string) string {
	return strings.ToLower(strings.TrimSpace(s))
}

// when judges a date or time argument d.
func (r *callReading) when(a *analysis, d string) {
	if strings.Contains(a.lower, strings.ToLower(d)) {
		r.scale(certain, "")
		return
	}
	r.scale(spokenWhen, fmt.Sprintf("the time %q was read from words", d))
}

// text judges a string argument.
func (r *callReading) text(a *analysis, p tools.Param, term string, quoted bool) {
	switch {
	case quoted:
		r.scale(certain, "")
	case a.term != "" && strings.Contains(a.term, term):
		r.scale(focusText, "")
		if why := clauseReason(term); why != "" {
			r.scale(clauseFocus, fmt.Sprintf("%s %q %s: a clause, not the name of a thing", p.Name, term, why))
		}
	case strings.Contains(a.lower, strings.ToLower(term)):
		// What is left once the tool's own words and its other arguments
		// are gone is one phrase of the query ("translate hello world
		// into Chinese"): likely the text meant, though not marked as such.
		r.scale(leftOverPhrase, fmt.Sprintf("%s %q is the phrase left around the tool's own words", p.Name, term))
	default:
		r.scale(leftOverText, fmt.Sprintf("%s %q is the words left over around the tool's own", p.Name, term))
	}
}

// clauseReason says why a question's focus reads as a clause rather than
// the name of a thing ("year is it", "song that's playing", "dow at"):
// a verb of its own, or a preposition left without its object at the
// end. "" when it reads as a name.
func clauseReason(term string) string {
	toks := tokenize(term)
	for _, t := range toks {
		switch {
		case isAuxiliary(t.text):
			return fmt.Sprintf("has the verb %q", t.text)
		case clauseContractions[t.text]:
			return fmt.Sprintf("has %q", t.text)
		}
	}
	if n := len(toks); n > 0 && danglingPrepositions[toks[n-1].text] {
		return fmt.Sprintf("ends with %q", toks[n-1].text)
	}
	return ""
}

// clauseContractions are a pronoun and a verb in one word; a noun's "'s"
// ("Newton's laws") is a possessive, no verb.
var clauseContractions = map[string]bool{"that's": true, "it's": true, "there's": true, "what's": true, "who's": true,
	"he's": true, "she's": true, "here's": true, "where's": true, "i'm": true, "you're": true, "they're": true, "we're": true}

// danglingPrepositions end a phrase cut short of its object ("what's the
// dow at").
var danglingPrepositions = map[string]bool{"at": true, "in": true, "on": true, "of": true, "for": true, "to": true,
	"with": true, "from": true, "by": true, "about": true, "into": true}
