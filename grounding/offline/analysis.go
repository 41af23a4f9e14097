package offline

import (
	"regexp"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// The analysis of a query is read in stages, each a function of the
// stages before it that returns its own typed result:
//
//	tokens  (readTokens)  the words, as typed and with typing slips read
//	spans   (readSpans)   what the words name: quantities, dates and times,
//	                      UTC offsets, zones and places, and the numbers
//	                      left for arithmetic (operands)
//	frames  (readFrames)  how the query asks, in four stages of their own:
//	  layout     (readLayout)     sentences and clauses, idioms, a
//	                              question in another language
//	  arithmetic (readArithmetic) the arithmetic it writes out or tells
//	  request    (readRequest)    a request for an action, a definition
//	  world      (readWorld)      a question about the world
//	shape   (answerKindOf) the shape of answer it asks for (answer.go)
//	focus   (focusOn)     the request sentence of a longer message
//	                      (focus.go)
//	args    (readArgs)    what every tool's call reads: the search term,
//	                      the places' roles, quoted texts, stems
//
// A stage never changes what an earlier one returned. analysis holds them
// all, read-only once built, for the encoder and every tool's call.
type analysis struct {
	tokenStage
	spanStage
	frameStage
	kind answerKind
	// context is the rest of a message whose request sentence this is
	// (focus.go), or nil.
	context *analysis
	argStage
}

// argStage is what every tool's call reads, read once per query.
type argStage struct {
	// term is the search term a string parameter takes (focus in
	// extract.go) and roles the places' parts in a conversion
	// (placeRoles).
	term  string
	roles placeRoleSet
	// termToks are the term's tokens and stems the stems of toks: what
	// every tool's focal string reads (focal.go).
	termToks []token
	stems    []string
	// quoted are the texts the query puts in double quotes, in order:
	// a string parameter takes them first (focal.go).
	quoted []string
}

// tokenStage is the query's words.
type tokenStage struct {
	lx    *lexicon
	query string
	lower string
	// toks are the query's tokens, typing slips of the subjects' words
	// read as those words (typo.go).
	toks []token
	// words are the tokens of lower as typed, before the slips are read:
	// what hasWord and followedBy read, tokenized once.
	words []token
	// slipDays are the days the slips name ("tomorow" is "tomorrow").
	slipDays []string
}

// spanStage is what the words name.
type spanStage struct {
	// numbers are every quantity, dates and times included; spans are the
	// byte spans of dates, times, UTC offsets and places: not arithmetic.
	numbers []number
	spans   [][2]int
	// operands are the numbers outside spans: the quantities arithmetic
	// and number parameters read.
	operands []number
	// datetimes are texts of the shapes of tools.DateTimePattern, in
	// order; dates those of tools.DatePattern (and "tonight", and the
	// days of other languages).
	datetimes []string
	dates     []string
	places    []mention
}

// frameStage is how the query asks: four frames, each read by its own
// stage from the tokens, the spans and the frames before it (readFrames).
type frameStage struct {
	layoutFrame
	arithmeticFrame
	requestFrame
	worldFrame
}

// layoutFrame is the query's layout, read from its tokens alone.
type layoutFrame struct {
	// sents and clauses are the query's sentences and clauses as token
	// spans (frames.go).
	sents, clauses []span
	// idiom marks the tokens of the subjects' idioms (weather.go).
	idiom map[int]bool
	// foreignWeather and foreignClock: a weather or clock question in
	// another language (multilingual.go).
	foreignWeather, foreignClock bool
}

// arithmeticFrame is the arithmetic the query writes out or tells as a
// story (arith.go, wordproblem.go).
type arithmeticFrame struct {
	expr     string
	explicit bool // expr written out, not a word problem
	// measures marks the units of measure of a conversion (units.go).
	measures map[int]bool
	// how is the reading that gave expr (arith.go).
	how exprHow
	// opExpr is a reading that needs an operation of the tool's
	// expression language (compound.go), as a template; opHow says which.
	opExpr string
	opHow  exprHow
}

// requestFrame is what kind of request the query makes.
type requestFrame struct {
	// command: the query asks for an action, not a look-up (frames.go).
	command bool
	// definitional: the query asks what something is or means, or how
	// two things differ (reference.go).
	definitional bool
}

// worldFrame is a question about the world, if the query asks one.
type worldFrame struct {
	// fact: the query asks about the world (reference.go); topic is what
	// it asks, from the question word or the subject of a request to be
	// told about something.
	fact  bool
	topic span
	// reference: the query asks to be told about a subject ("tell me
	// about X"), which topic is.
	reference bool
	// clue: the query is a quiz clue written as a statement.
	clue bool
}

var (
	// dateTimeRe finds the shapes of tools.DateTimePattern in free text.
	dateTimeRe = regexp.MustCompile(`\b(?:` + tools.DateTimePattern + `)\b`)
	dateRe     = regexp.MustCompile(`\b(?:` + tools.DatePattern + `)\b`)
	// slashDateRe finds 7/13/2036 and 13/7/36, which are dates, not
	// divisions.
	slashDateRe = regexp.MustCompile(`\b[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4}\b`)
	// identifierRe finds digit groups joined by hyphens without spaces;
	// seven digits or more ("555-0134", "1-800-555-0199") are a phone
	// number or a code, not arithmetic.
	identifierRe = regexp.MustCompile(`\b[0-9]+(?:-[0-9]+)+\b`)
)

// analyze reads the query: its request sentence when it has one that
// stands on its own (focus.go), or the whole of it.
func (e *Engine) analyze(query string) *analysis {
	a := e.focusOn(e.analyzeText(query))
	a.argStage = readArgs(a)
	return a
}

// readArgs reads what the calls take from the analysed query.
func readArgs(a *analysis) argStage {
	g := argStage{term: focus(a), roles: placeRoles(a), quoted: quotedTexts(a.query)}
	g.termToks = tokenize(g.term)
	g.stems = make([]string, len(a.toks))
	for i, t := range a.toks {
		g.stems[i] = stem(t.text)
	}
	return g
}

// analyzeText reads a text as a whole, stage by stage.
func (e *Engine) analyzeText(query string) *analysis {
	a := &analysis{tokenStage: e.readTokens(query)}
	a.spanStage = e.readSpans(a.tokenStage)
	a.frameStage = e.readFrames(a.tokenStage, a.spanStage)
	a.kind = e.answerKindOf(a)
	return a
}

// readTokens reads the words.
func (e *Engine) readTokens(query string) tokenStage {
	t := tokenStage{lx: e.lex, query: query, lower: strings.ToLower(query), toks: tokenize(query)}
	t.words = tokenize(t.lower)
	t.toks, t.slipDays = e.lex.correctTypos(t.toks)
	return t
}

// readSpans reads what the words name.
func (e *Engine) readSpans(t tokenStage) spanStage {
	query := t.query
	s := spanStage{numbers: findNumbers(query, t.toks)}
	for _, m := range dateTimeRe.FindAllStringIndex(query, -1) {
		s.spans = append(s.spans, [2]int{m[0], m[1]})
		s.datetimes = append(s.datetimes, query[m[0]:m[1]])
	}
	s.spans, s.datetimes = withClockTimes(query, s.spans, s.datetimes, spokenTimes(query, t.toks))
	for _, m := range slashDateRe.FindAllStringIndex(query, -1) {
		s.spans = append(s.spans, [2]int{m[0], m[1]})
	}
	for _, m := range identifierRe.FindAllStringIndex(query, -1) {
		if digits := strings.Count(query[m[0]:m[1]], "-"); m[1]-m[0]-digits >= 7 {
			s.spans = append(s.spans, [2]int{m[0], m[1]}) // a phone number, not a subtraction
		}
	}
	s.dates = append(s.dates, t.slipDays...)
	for _, m := range dateRe.FindAllStringIndex(query, -1) {
		s.dates = append(s.dates, strings.ToLower(query[m[0]:m[1]]))
	}
	if t.hasWord("tonight") {
		s.dates = append(s.dates, "today")
	}
	s.dates = append(s.dates, t.foreignDays()...)
	s.places = unitQualifiersDropped(e.findPlaces(query, s.spans), t)
	for _, p := range s.places {
		s.spans = append(s.spans, [2]int{p.Start, p.End})
	}
	for _, n := range s.numbers {
		if !s.excluded(n.start) {
			s.operands = append(s.operands, n)
		}
	}
	return s
}

// readFrames reads how the query asks, in four stages: the layout from
// the tokens; the arithmetic from the tokens, the spans and the layout;
// the kind of request from those and the arithmetic; a question about the
// world from all of them. Each stage returns its frame and reads the
// earlier ones through a view that holds only them (frameView), so no
// stage sees, or changes, a later one's result.
func (e *Engine) readFrames(t tokenStage, s spanStage) frameStage {
	layout := readLayout(t)
	arith := readArithmetic(t, s, layout)
	request := readRequest(t, s, layout, arith)
	world := e.readWorld(t, s, layout, arith, request)
	return frameStage{layoutFrame: layout, arithmeticFrame: arith, requestFrame: request, worldFrame: world}
}

// frameView is the analysis as far as a frame stage may read it: the
// tokens, the spans and the frames already read; the rest is zero.
func frameView(t tokenStage, s spanStage, f frameStage) *analysis {
	return &analysis{tokenStage: t, spanStage: s, frameStage: f}
}

// readLayout reads the sentences, clauses and idioms, and whether the
// query asks in another language for a weather reading or a clock time.
func readLayout(t tokenStage) layoutFrame {
	return layoutFrame{
		sents:          splitSpans(t.query, t.toks, false),
		clauses:        splitSpans(t.query, t.toks, true),
		idiom:          t.idioms(),
		foreignWeather: t.asking(tools.AnswerWeather),
		foreignClock:   t.asking(tools.AnswerTime),
	}
}

// readArithmetic reads the arithmetic the query writes out or tells.
func readArithmetic(t tokenStage, s spanStage, layout layoutFrame) arithmeticFrame {
	var f arithmeticFrame
	view := frameView(t, s, frameStage{layoutFrame: layout})
	f.expr, f.explicit, f.measures, f.how = expression(view)
	f.opExpr, f.opHow = operationReading(view)
	if f.opHow == howTrig {
		// "cos 60 degrees": the angle's unit is no weather word.
		for i, tok := range t.toks {
			if tok.text == "degrees" || tok.text == "degree" {
				if f.measures == nil {
					f.measures = map[int]bool{}
				}
				f.measures[i] = true
			}
		}
	}
	return f
}

// readRequest reads whether the query asks for an action (written-out
// arithmetic never does) or for what something is.
func readRequest(t tokenStage, s spanStage, layout layoutFrame, arith arithmeticFrame) requestFrame {
	a := frameView(t, s, frameStage{layoutFrame: layout, arithmeticFrame: arith})
	return requestFrame{
		command:      isCommand(a) && !(arith.expr != "" && arith.explicit),
		definitional: definitional(a),
	}
}

// readWorld reads a question about the world: a question or request to
// be told about something, a quiz clue, a search-box fragment, a question
// in another language — the first that reads.
func (e *Engine) readWorld(t tokenStage, s spanStage, layout layoutFrame, arith arithmeticFrame, request requestFrame) worldFrame {
	a := frameView(t, s, frameStage{layoutFrame: layout, arithmeticFrame: arith, requestFrame: request})
	if q, fr, ok := worldQuestion(a); ok {
		return worldFrame{fact: true, topic: q, reference: fr == frameReference}
	}
	if q, ok := e.clue(a); ok {
		return worldFrame{fact: true, topic: q, clue: true}
	}
	if q, ok := fragment(a); ok {
		return worldFrame{fact: true, topic: q, reference: true}
	}
	if q, ok := foreignQuestion(a); ok {
		return worldFrame{fact: true, topic: q, reference: true}
	}
	return worldFrame{}
}
