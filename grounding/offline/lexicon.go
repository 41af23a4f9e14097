package offline

import (
	"slices"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// The offline encoder's thesaurus. Its subjects come from the tools: each
// tool's Hints (tools/hints.go) name the vocabularies of its subject — the
// words people use when they talk about it — and the shape of answer a
// question in those words asks for. A word of a subject adds the subject
// as a feature of the text's vector, so "will it be foggy" and a
// description saying "weather" share a feature although they share no
// word. A tool with no hints is matched on its own words (and their stems
// and character n-grams) only.
//
// The engine knows no subject by name: it knows the shapes of answers
// (tools.Answer) — a clock time, a date, a weather reading, a number, a
// fact, a place — and the rules of frames.go, clock.go and weather.go ask
// for the subjects of a shape.
//
// Entries are stemmed when the lexicon is built, so "rainy" and "raining"
// need no entry of their own once "rain" has one, and inflections written
// in the lists are harmless. An entry written "=word" is matched as
// written, after the stems ("shorts" would be "short").

// askWords are what a description says its tool answers, in the terms of
// the question forms of encoder.go: "facts about people" answers "who",
// "the date" answers "when", "what words mean" answers "define". They are
// words of English, not of any tool.
var askWords = [][2]string{
	{askPerson, `people person persons biography biographies`},
	{askPlace, `locations`},
	{askDate, `events dates years`},
	{askAmount, `numbers amount amounts quantity quantities`},
	{askDefinition, `words definition definitions dictionary`},
	{askFact, `facts encyclopedia encyclopaedia wikipedia knowledge trivia`},
}

// The question forms, as concept names. formTime and formDate are the
// forms of "what time is it" and "what day is it": their features are the
// subjects that answer a time and a date (lexicon.concept).
const (
	askPerson     = "ask:person"
	askPlace      = "ask:place"
	askDate       = "ask:date"
	askAmount     = "ask:amount"
	askDefinition = "ask:definition"
	askFact       = "ask:fact"
	formTime      = "form:time"
	formDate      = "form:date"
)

// lexicon is the engine's read-only word knowledge, built once per Engine.
type lexicon struct {
	stop map[string]bool
	// The request frames of frames.go and reference.go.
	openers, askFrames, referenceFrames                                   [][]string
	commandVerbs, creativeNouns, infoVerbs, worldNouns, introPrepositions map[string]bool
	presentWords, serviceNouns, travelNouns, propertyWords                map[string]bool
	// The search-box fragments of fragment.go.
	attributes                                            [][]string
	kindHeads, kindTails, superlatives, fragmentReference map[string]bool
	// The senses of the subjects' words (weather.go), from the tools'
	// hints: idioms, the things a subject's word modifies without being
	// about it, the measures, the conditions.
	idioms                         [][]string
	conditions, readings, gradable map[string]bool
	// things and modifiers are the words after and before a word of a
	// subject that give it another sense, by the subject's shape.
	things, modifiers map[tools.Answer]map[string]bool
	mediaNouns        map[string]bool
	// asking are the tools' phrases that ask for an answer of a shape
	// (multilingual.go), askingWords the single words among them.
	asking map[tools.Answer][][]string
	cues   map[tools.Answer][]string
	// phraseCues are the cue and asking phrases of subjects that have no
	// shape of answer of their own (a translation's), by subject: the
	// phrase raises the subject's concept wherever it stands.
	phraseCues      []subjectCues
	questionOpeners map[tools.Answer][]string
	askingWords     map[tools.Answer]map[string]bool
	// The foreign vocabulary of multilingual.go.
	foreignQuestions [][]string
	foreignDays      map[string]string
	// The clock questions of clock.go: the states a clock decides (from
	// the hints) and the adverbs before them (English).
	states, dayStateAdverbs map[string]bool
	// The subjects' question grammar (grammar.go), from the hints.
	questionWords questionWords
	// The units of measure of units.go.
	units, letterUnits, imperialUnits map[string]unit
	// partUnits are partUnitList's, read once (mixedPartAt asks for
	// them at every unit-like word).
	partUnits map[string]unit
	// stems remembers words' stems (stemOf).
	stems stemMemo
	// The words whose typing slips typo.go reads.
	typoTargets []string
	// The words of percentage changes of change.go.
	decreaseWords, increaseWords, changeNouns map[string]bool
	concepts                                  map[string][]string // stem -> concepts
	exact                                     map[string][]string // "=word" entries -> concepts
	// surface are the thesaurus's words as written, for typo.go.
	surface map[string]bool
	// shapes are the subjects (concepts) that ask for each shape of
	// answer, in the library's order; shapeOf the other way.
	shapes  map[tools.Answer][]string
	shapeOf map[string]tools.Answer
	// examples are the first example of an answer of each shape.
	examples map[tools.Answer]string
	// digest identifies the hints the lexicon was built from (Model).
	digest string
	// slots gives each fixed feature (concepts, question forms, personal,
	// number) a dimension of its own.
	slots map[string]int
}

// newLexicon builds the lexicon from the tools' hints.
func newLexicon(specs []tools.Spec) *lexicon {
	lx := &lexicon{stop: setOf(stopWordList), concepts: map[string][]string{}, exact: map[string][]string{}, surface: map[string]bool{}, slots: map[string]int{},
		shapes: map[tools.Answer][]string{}, shapeOf: map[string]tools.Answer{}, examples: map[tools.Answer]string{},
		things: map[tools.Answer]map[string]bool{}, modifiers: map[tools.Answer]map[string]bool{}, conditions: map[string]bool{}, readings: map[string]bool{}, gradable: map[string]bool{},
		states: map[string]bool{}, asking: map[tools.Answer][][]string{}, cues: map[tools.Answer][]string{}, questionOpeners: map[tools.Answer][]string{}, askingWords: map[tools.Answer]map[string]bool{}}
	slot := func(f string) {
		if _, ok := lx.slots[f]; !ok {
			lx.slots[f] = len(lx.slots)
		}
	}
	for _, f := range []string{askPerson, askPlace, askDate, askAmount, askDefinition, askFact} {
		slot("c:" + f)
	}
	lx.openers, lx.askFrames, lx.referenceFrames = phrases(openerList), phrases(askFrameList), phrases(referenceFrameList)
	lx.commandVerbs, lx.creativeNouns = setOf(commandVerbList), setOf(creativeNounList)
	lx.infoVerbs, lx.worldNouns, lx.introPrepositions = setOf(infoVerbList), setOf(worldNounList), setOf(introPrepositionList)
	lx.presentWords, lx.serviceNouns = setOf(presentWordList), setOf(serviceNounList)
	lx.travelNouns, lx.propertyWords = setOf(travelNounList), setOf(propertyWordList)
	lx.attributes, lx.kindHeads, lx.kindTails = phrases(attributeList), setOf(kindHeadList), setOf(kindTailList)
	lx.superlatives, lx.fragmentReference = setOf(superlativeList), setOf(fragmentReferenceWordList)
	lx.mediaNouns = setOf(mediaNounList)
	lx.foreignQuestions = phrases(foreignQuestionList)
	lx.foreignDays = foreignDays()
	lx.dayStateAdverbs = setOf(dayStateAdverbList)
	lx.decreaseWords, lx.increaseWords, lx.changeNouns = setOf(decreaseWordList), setOf(increaseWordList), setOf(changeNounList)
	lx.units, lx.letterUnits, lx.imperialUnits = units(), readUnits(letterUnitList), readUnits(imperialList)
	lx.partUnits = readUnits(partUnitList)
	addConcept := func(word, concept string) {
		if w, ok := strings.CutPrefix(word, "="); ok {
			if !slices.Contains(lx.exact[w], concept) {
				lx.exact[w] = append(lx.exact[w], concept)
			}
			return
		}
		lx.surface[word] = true
		s := stem(word)
		if !slices.Contains(lx.concepts[s], concept) {
			lx.concepts[s] = append(lx.concepts[s], concept)
		}
	}
	var idioms, spellings []string
	seen := map[string]bool{}
	for _, spec := range specs {
		for _, sub := range spec.Hints.Subjects {
			sub, ok := cleanSubject(sub)
			if !ok {
				continue
			}
			slot("c:" + sub.Name)
			if _, ok := lx.examples[sub.Answer]; !ok && sub.Example != "" {
				lx.examples[sub.Answer] = sub.Example
			}
			if _, ok := lx.shapeOf[sub.Name]; !ok {
				lx.shapeOf[sub.Name] = sub.Answer
				lx.shapes[sub.Answer] = append(lx.shapes[sub.Answer], sub.Name)
			}
			for _, w := range sub.Words {
				addConcept(w, sub.Name)
			}
			for _, list := range []struct {
				words []string
				set   map[string]bool
			}{{sub.Conditions, lx.conditions}, {sub.Readings, lx.readings}, {sub.Gradable, lx.gradable}, {sub.States, lx.states}} {
				for _, w := range list.words {
					list.set[w] = true
				}
			}
			for _, p := range sub.Asking {
				if words := strings.Fields(p); len(words) > 0 && !seen["a:"+string(sub.Answer)+":"+p] {
					seen["a:"+string(sub.Answer)+":"+p] = true
					lx.asking[sub.Answer] = append(lx.asking[sub.Answer], words)
					if len(words) == 1 {
						if lx.askingWords[sub.Answer] == nil {
							lx.askingWords[sub.Answer] = map[string]bool{}
						}
						lx.askingWords[sub.Answer][p] = true
					}
				}
			}
			for _, list := range []struct {
				words []string
				sets  map[tools.Answer]map[string]bool
			}{{sub.Things, lx.things}, {sub.Modifiers, lx.modifiers}} {
				if list.sets[sub.Answer] == nil {
					list.sets[sub.Answer] = map[string]bool{}
				}
				for _, w := range list.words {
					list.sets[sub.Answer][w] = true
				}
			}
			if sub.Answer == "" && len(sub.Cues)+len(sub.Asking) > 0 {
				sc := subjectCues{name: sub.Name, targets: targetValues(spec)}
				for _, c := range append(append([]string(nil), sub.Cues...), sub.Asking...) {
					sc.phrases = append(sc.phrases, strings.ToLower(c))
				}
				lx.phraseCues = append(lx.phraseCues, sc)
			}
			for _, c := range sub.Cues {
				if !seen["c:"+string(sub.Answer)+":"+c] {
					seen["c:"+string(sub.Answer)+":"+c] = true
					lx.cues[sub.Answer] = append(lx.cues[sub.Answer], c)
				}
			}
			for _, o := range sub.Openers {
				if !seen["o:"+string(sub.Answer)+":"+o] {
					seen["o:"+string(sub.Answer)+":"+o] = true
					lx.questionOpeners[sub.Answer] = append(lx.questionOpeners[sub.Answer], o)
				}
			}
			for _, p := range sub.Idioms {
				if !seen["i:"+p] {
					seen["i:"+p] = true
					idioms = append(idioms, p)
				}
			}
			for _, w := range sub.Spellings {
				if !seen["s:"+w] {
					seen["s:"+w] = true
					spellings = append(spellings, w)
				}
			}
		}
	}
	for shape, list := range lx.asking {
		lx.asking[shape] = longestFirst(list)
	}
	lx.digest = hintsDigest(specs)
	lx.questionWords = newQuestionWords(specs)
	lx.idioms = phrases(strings.Join(idioms, "|"))
	lx.typoTargets = withLongStates(spellings, lx.states)
	slot(personalFeature)
	slot(commandFeature)
	slot(numberFeature)
	for _, c := range askWords {
		for _, w := range strings.Fields(c[1]) {
			addConcept(w, c[0])
		}
	}
	return lx
}

// concept returns the first subject that asks for an answer of the
// shape, or "" when no tool has one.
func (lx *lexicon) concept(shape tools.Answer) string {
	if c := lx.shapes[shape]; len(c) > 0 {
		return c[0]
	}
	return ""
}

// conceptsOf returns a word's concepts. The comparative and superlative of
// a gradable weather adjective ("hotter", "windiest") count as the
// adjective.
func (lx *lexicon) conceptsOf(word string) []string {
	if c, ok := lx.concepts[lx.stemOf(word)]; ok {
		return c
	}
	if c, ok := lx.exact[word]; ok {
		return c // "shorts", the clothes
	}
	for _, suf := range []string{"iest", "ier", "est", "er"} {
		base, ok := strings.CutSuffix(word, suf)
		if !ok || len(base) < 2 {
			continue
		}
		if strings.HasPrefix(suf, "i") {
			base += "y" // windier -> windy
		} else if n := len(base); base[n-1] == base[n-2] {
			base = base[:n-1] // hotter -> hot
		}
		if lx.gradable[base] {
			return lx.concepts[lx.stemOf(base)]
		}
	}
	return nil
}

// hasShape reports whether one of the word's concepts is a subject that
// asks for an answer of the shape.
func (lx *lexicon) hasShape(word string, shape tools.Answer) bool {
	for _, c := range lx.conceptsOf(word) {
		if lx.shapeOf[c] == shape && !strings.HasPrefix(c, "ask:") {
			return true
		}
	}
	return false
}

// subjectWord reports whether w belongs to a subject whose answer is a
// reading of the world or a number — the clock, the calendar, the weather,
// arithmetic — rather than a look-up.
func (lx *lexicon) subjectWord(w string) bool {
	for _, c := range lx.conceptsOf(w) {
		switch lx.shapeOf[c] {
		case tools.AnswerWeather, tools.AnswerTime, tools.AnswerDate, tools.AnswerNumber:
			return !strings.HasPrefix(c, "ask:")
		}
	}
	return false
}

// subjectCues are a subject's phrases that ask for it (lexicon.phraseCues).
type subjectCues struct {
	name    string
	phrases []string
	// targets are the values (lower case) of the tool's target
	// parameters (RoleTo with Canonical spellings): words rendered in one
	// of them ask for the subject (quoted.go).
	targets map[string]bool
}

// in reports whether lower (a query in lower case) contains one of the
// phrases as whole words.
func (sc subjectCues) in(lower string) bool {
	for _, p := range sc.phrases {
		if containsPhrase(lower, p) {
			return true
		}
	}
	return false
}
