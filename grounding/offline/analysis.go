package offline

import (
	"regexp"
	"sort"
	"strings"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/place"
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

// mention is a place named in the query: its byte span and the name to
// call tools with.
type mention struct {
	Start, End int
	Name       string
	// Text is the mention as the query writes it.
	Text string
	// Zone marks a time zone alone — an offset, a zone's abbreviation or
	// name, a zone id — which is no location.
	Zone bool
}

// unitQualifiersDropped leaves out a country's short name that says whose
// measure the unit right after it is ("5 US gallons", "how many US
// gallons", "2 UK pints"), as measure.go reads it: a measure, not a place.
func unitQualifiersDropped(places []mention, t tokenStage) []mention {
	out := places[:0:0]
	for _, p := range places {
		k := -1
		for i, tok := range t.toks {
			if tok.start == p.Start && tok.end == p.End {
				k = i
			}
		}
		if k >= 0 && k+1 < len(t.toks) {
			next := t.toks[k+1].text
			u, us := t.lx.units[next]
			_, uk := t.lx.imperialUnits[next]
			if t.toks[k].text == "us" && us && u.dim == "volume" || t.toks[k].text == "uk" && uk {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// findPlaces merges the gazetteer's mentions with the zone names, UTC
// offsets and zone abbreviations in any case ("utc+8", "pst") that
// place.ScanZoneNames finds, in order of position,
// dropping overlaps (the longer mention wins). The tools resolve a name
// with the same gazetteer, so either form finds the same place.
func (e *Engine) findPlaces(query string, clockTimes [][2]int) []mention {
	var found []mention
	for _, z := range place.ScanZoneNames(query, clockTimes) {
		found = append(found, mention{Start: z.Start, End: z.End, Name: z.Name, Text: query[z.Start:z.End], Zone: true})
	}
	if e.places != nil {
		for _, m := range e.places.Scan(query) {
			// Cities, regions and countries by their display name; zones
			// ("Sakhalin" is Asia/Sakhalin) and offsets as written.
			name := m.Place.Name
			if m.Place.Kind == place.KindOffset || m.Place.Kind == place.KindZone || name == "" {
				name = strings.TrimSpace(m.Text)
			}
			// An offset or a zone id ("Asia/Shanghai") is a zone alone; a
			// zone's city part ("Gambier", "Ust-Nera") is a place too.
			zone := m.Place.Kind == place.KindOffset || m.Place.Kind == place.KindZone && strings.Contains(m.Text, "/")
			found = append(found, mention{Start: m.Start, End: m.End, Name: name, Text: m.Text, Zone: zone})
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].Start != found[j].Start {
			return found[i].Start < found[j].Start
		}
		return found[i].End-found[i].Start > found[j].End-found[j].Start
	})
	var out []mention
	for _, m := range found {
		if len(out) > 0 && m.Start < out[len(out)-1].End {
			continue
		}
		out = append(out, m)
	}
	return out
}

// excluded reports whether byte offset pos lies in a date, time, offset or
// place name.
func (sp spanStage) excluded(pos int) bool {
	for _, s := range sp.spans {
		if pos >= s[0] && pos < s[1] {
			return true
		}
	}
	return false
}

// sentences splits the query at sentence ends: ".", "?" or "!" followed by
// a space and a capital or the end, but not after an abbreviation ("Mrs.")
// or inside a number ("3.5").
func (a *analysis) sentences() []string {
	var out []string
	text := strings.TrimSpace(a.query)
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '.' && c != '?' && c != '!' {
			continue
		}
		end := i + 1
		if end < len(text) && !(text[end] == ' ' && end+1 < len(text) && (isUpper(text[end+1]) || text[end+1] == '"')) {
			continue
		}
		if c == '.' && isAbbreviation(text[start:i]) {
			continue
		}
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// isAbbreviation reports whether text ends with a title or short form that
// takes a period ("Mrs", "Dr", "St").
func isAbbreviation(text string) bool {
	i := strings.LastIndexAny(text, " (") + 1
	switch strings.ToLower(text[i:]) {
	case "mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "mt", "ft", "vs", "etc", "no", "approx", "e.g", "i.e",
		"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec":
		return true
	}
	// An initial ("J. K. Rowling", "Lake A. Smith") or a letter of "a.m.",
	// "p.m.", "U.S.".
	return len(text[i:]) == 1
}

// lastSentence is the query's last sentence, lower case.
func (a *analysis) lastSentence() string {
	ss := a.sentences()
	if len(ss) == 0 {
		return ""
	}
	return strings.ToLower(ss[len(ss)-1])
}

// questionSentence is the query's last sentence that ends with a question
// mark, or its last sentence, lower case: the question of a story problem
// may have a remark after it.
func (a *analysis) questionSentence() string {
	ss := a.sentences()
	for i := len(ss) - 1; i >= 0; i-- {
		if strings.HasSuffix(ss[i], "?") {
			return strings.ToLower(ss[i])
		}
	}
	return a.lastSentence()
}

// isStoryProblem reports whether the query is a story that ends in a
// question: statements, then a question — the shape of a word problem.
func (a *analysis) isStoryProblem() bool {
	ss := a.sentences()
	if len(ss) < 2 {
		return false
	}
	last := strings.ToLower(ss[len(ss)-1])
	if strings.HasSuffix(last, "?") {
		return true
	}
	w := strings.Fields(last)
	return len(w) > 0 && (isWhQuestion(strings.TrimSuffix(w[0], ",")) || w[0] == "when")
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// asksQuantity reports whether the query asks for an amount.
func (a *analysis) asksQuantity() bool {
	for _, cue := range quantityCues {
		if containsPhrase(a.lower, cue) {
			return true
		}
	}
	return false
}

// containsPhrase reports whether the phrase occurs in text at word
// boundaries.
func containsPhrase(text, phrase string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], phrase)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(phrase)
		if (start == 0 || !isWordByte(text[start-1])) && (end == len(text) || !isWordByte(text[end])) {
			return true
		}
		from = start + 1
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '\''
}

// firstWord is the query's first word, lower case.
func (a *analysis) firstWord() string {
	if len(a.toks) == 0 {
		return ""
	}
	return a.toks[0].text
}
