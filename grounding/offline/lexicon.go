package offline

import (
	"slices"
	"strings"
)

// The offline encoder's small thesaurus. Each concept is a vocabulary of
// plain English, written for this engine (not taken from any evaluation
// set): the words people use when they talk about that subject. A word of
// a concept adds the concept as a feature of the text's vector, so "will it
// be foggy" and a description saying "weather" share a feature although
// they share no word. The concepts are the subjects of gear's built-in
// tool families; a user-defined tool on another subject is matched on its
// own words (and their stems and character n-grams) only.
//
// Entries are stemmed when the lexicon is built, so "rainy" and "raining"
// need no entry of their own once "rain" has one, and inflections written
// here are harmless.
const (
	conceptWeather = "weather"
	conceptClock   = "clock"
	conceptDate    = "calendar"
	conceptMath    = "arithmetic"
	conceptLookup  = "reference"
	conceptPlace   = "place"
)

var conceptWords = [][2]string{
	{conceptWeather, `weather forecast forecasts temperature temperatures degrees celsius fahrenheit
		rain rainy raining rainfall drizzle showers umbrella snow snowy snowing snowfall sleet hail
		storm stormy thunder thunderstorm lightning tornado hurricane typhoon monsoon blizzard
		wind windy breeze breezy gusts gale fog foggy mist misty haze hazy smog
		humid humidity muggy dew sun sunny sunshine cloud clouds cloudy overcast
		hot warm warmer heat heatwave cold colder chilly chillier cool cooler freezing frost frosty icy
		uv precipitation barometer climate meteorological mild balmy temperate scorching sweltering drought
		snowstorm rainstorm downpour
		jacket coat raincoat parka sweater scarf gloves mittens sandals sunscreen outside outdoors`},
	{conceptWeather, foreignWeatherList},
	{conceptClock, foreignClockList},
	{conceptClock, `time clock clocks hour o'clock oclock pm noon midnight timezone timezones zone zones
		utc gmt dst daylight`},
	{conceptDate, `date dates day days today tonight tomorrow yesterday week weekday weekend
		monday tuesday wednesday thursday friday saturday sunday month year calendar`},
	{conceptMath, `calculate calculation calculator compute computation math maths mathematics
		arithmetic equation equations formula solve sum plus addition minus subtract subtraction
		multiply multiplied multiplication product divide divided division divisible
		quotient remainder percent percentage fraction fractions square squared root roots cube cubed
		power exponent sqrt logarithm log average total equals ratio area perimeter diameter radius
		circumference decimal decimals`},
	{conceptLookup, `define definition definitions meaning meanings mean means meant defined
		encyclopedia encyclopaedia wikipedia wiki article articles history historical biography
		fact facts explain explanation describe description synonym word term
		invented inventor discovered founded born died wrote author written published
		famous known origin originally century war president king queen capital`},
	{conceptPlace, `where located location locate map coordinates latitude longitude address
		country countries city cities region state province continent population`},
	// What a description says its tool answers, in the terms of the
	// question forms of encoder.go: "facts about people" answers "who",
	// "the date" answers "when", "what words mean" answers "define".
	{askPerson, `people person persons biography biographies`},
	{askPlace, `locations`},
	{askDate, `events dates years`},
	{askAmount, `numbers amount amounts quantity quantities`},
	{askDefinition, `words definition definitions dictionary`},
	{askFact, `facts encyclopedia encyclopaedia wikipedia knowledge trivia`},
}

// The question forms, as concept names.
const (
	askPerson     = "ask:person"
	askPlace      = "ask:place"
	askDate       = "ask:date"
	askAmount     = "ask:amount"
	askDefinition = "ask:definition"
	askFact       = "ask:fact"
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
	// The weather senses of weather.go.
	weatherIdioms                                                [][]string
	weatherThings, conditionAdjectives, readingNouns, mediaNouns map[string]bool
	// The foreign vocabulary of multilingual.go.
	foreignWeatherQuestions, foreignClockQuestions, foreignQuestions [][]string
	foreignClock                                                     map[string]bool
	foreignDays                                                      map[string]string
	// The clock questions of clock.go.
	dayParts, dayStateAdverbs map[string]bool
	// The units of measure of units.go.
	units, letterUnits, imperialUnits map[string]unit
	// The words whose typing slips typo.go reads.
	typoTargets []string
	// The words of percentage changes of change.go.
	decreaseWords, increaseWords, changeNouns map[string]bool
	concepts                                  map[string][]string // stem -> concepts
	// slots gives each fixed feature (concepts, question forms, personal,
	// number) a dimension of its own.
	slots map[string]int
}

func newLexicon() *lexicon {
	lx := &lexicon{stop: setOf(stopWordList), concepts: map[string][]string{}, slots: map[string]int{}}
	slot := func(f string) {
		if _, ok := lx.slots[f]; !ok {
			lx.slots[f] = len(lx.slots)
		}
	}
	for _, c := range conceptWords {
		slot("c:" + c[0])
	}
	for _, f := range []string{askPerson, askPlace, askDate, askAmount, askDefinition, askFact, conceptClock, conceptDate} {
		slot("c:" + f)
	}
	lx.openers, lx.askFrames, lx.referenceFrames = phrases(openerList), phrases(askFrameList), phrases(referenceFrameList)
	lx.commandVerbs, lx.creativeNouns = setOf(commandVerbList), setOf(creativeNounList)
	lx.infoVerbs, lx.worldNouns, lx.introPrepositions = setOf(infoVerbList), setOf(worldNounList), setOf(introPrepositionList)
	lx.presentWords, lx.serviceNouns = setOf(presentWordList), setOf(serviceNounList)
	lx.travelNouns, lx.propertyWords = setOf(travelNounList), setOf(propertyWordList)
	lx.attributes, lx.kindHeads, lx.kindTails = phrases(attributeList), setOf(kindHeadList), setOf(kindTailList)
	lx.superlatives, lx.fragmentReference = setOf(superlativeList), setOf(fragmentReferenceWordList)
	lx.weatherIdioms, lx.weatherThings = phrases(weatherIdiomList), setOf(weatherThingList)
	lx.conditionAdjectives, lx.readingNouns, lx.mediaNouns = setOf(conditionAdjectiveList), setOf(readingNounList), setOf(mediaNounList)
	lx.foreignWeatherQuestions, lx.foreignClockQuestions = phrases(foreignWeatherQuestions), phrases(foreignClockQuestions)
	lx.foreignQuestions = phrases(foreignQuestionList)
	lx.foreignClock, lx.foreignDays = setOf(foreignClockList), foreignDays()
	lx.dayParts, lx.dayStateAdverbs = setOf(dayPartList), setOf(dayStateAdverbList)
	lx.typoTargets = strings.Fields(typoTargetList)
	lx.decreaseWords, lx.increaseWords, lx.changeNouns = setOf(decreaseWordList), setOf(increaseWordList), setOf(changeNounList)
	lx.units, lx.letterUnits, lx.imperialUnits = units(), readUnits(letterUnitList), readUnits(imperialList)
	slot(personalFeature)
	slot(commandFeature)
	slot(numberFeature)
	for _, c := range conceptWords {
		for _, w := range strings.Fields(c[1]) {
			s := stem(w)
			if !slices.Contains(lx.concepts[s], c[0]) {
				lx.concepts[s] = append(lx.concepts[s], c[0])
			}
		}
	}
	return lx
}

// conceptsOf returns a word's concepts. The comparative and superlative of
// a gradable weather adjective ("hotter", "windiest") count as the
// adjective.
func (lx *lexicon) conceptsOf(word string) []string {
	if word == "shorts" {
		// The clothes: stemmed, "shorts" would be "short", which is not
		// about the weather.
		return lx.concepts[stem("sandals")]
	}
	if c, ok := lx.concepts[stem(word)]; ok {
		return c
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
		if gradable(base) {
			return lx.concepts[stem(base)]
		}
	}
	return nil
}

// hasConcept reports whether concept is one of the word's concepts.
func (lx *lexicon) hasConcept(word, concept string) bool {
	return slices.Contains(lx.conceptsOf(word), concept)
}

// subjectWord reports whether w belongs to the subject of a built-in tool:
// the weather, the clock, the calendar or arithmetic.
func (lx *lexicon) subjectWord(w string) bool {
	for _, c := range lx.conceptsOf(w) {
		switch c {
		case conceptWeather, conceptClock, conceptDate, conceptMath:
			return true
		}
	}
	return false
}

// gradable lists the weather adjectives that have a comparative.
func gradable(adj string) bool {
	switch adj {
	case "hot", "cold", "warm", "cool", "wet", "dry", "windy", "rainy", "snowy", "sunny", "cloudy", "foggy",
		"humid", "chilly", "icy", "stormy", "mild", "breezy", "muggy", "hazy", "misty", "frosty":
		return true
	}
	return false
}
