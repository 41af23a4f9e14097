package offline

import "testing"

// The example sentences here are written for these tests; none comes from
// an evaluation file.

func TestCommand(t *testing.T) {
	tests := map[string]bool{
		"play the song rainy days and mondays":                      true,
		"buy a pair of snow boots":                                  true,
		"could you dim the kitchen lights to 20 percent":            true,
		"it's chilly in here, turn up the heat":                     true,
		"please set a reminder for friday at noon":                  true,
		"tell me a story about dragons":                             true,
		"order an umbrella for tomorrow":                            true,
		"show me the weather in Oslo":                               false, // a look-up verb
		"find the time in Lima":                                     false,
		"add 7 and 9":                                               false, // arithmetic
		"what time does the bank open":                              false,
		"can you play chess? what is the capital of Chile":          false, // a question too
		"Calculator API answers questions. Call it with a formula.": false, // an instruction after the first sentence
	}
	e := testEngine()
	for q, want := range tests {
		if got := e.analyze(q).command; got != want {
			t.Errorf("%q: command %v, want %v", q, got, want)
		}
	}
}

func TestWorldQuestion(t *testing.T) {
	tests := map[string]bool{
		"tell me about the Byzantine empire":                              true,
		"could you explain what photosynthesis is":                        true,
		"what do you know about the Hanseatic League":                     true,
		"Hello! Which river is the longest in Africa?":                    true,
		"In Norse mythology, who is the god of thunder?":                  true,
		"I've been reading about the Silk Road — who first travelled it?": true,
		"Who painted the Night Watch? I keep forgetting.":                 true,
		"How do volcanoes erupt?":                                         true,
		"Which moon in our solar system is the largest?":                  true,
		"look up when the Channel Tunnel opened":                          true,
		"name the longest river in Asia":                                  true,
		"how does one open a bank account":                                false,
		"how do I reset my router":                                        false,
		"my train was cancelled, when is the next one?":                   false,
		"hi what's up":                       false,
		"what's a good name for a cat":       false,
		"how far is the nearest gas station": false,
		"what time does the museum open":     false,
		"what is 7 times 8":                  false,
		"what's a quarter of 200":            false,
		"tell me a joke about penguins":      false,
		"look up my order":                   false,
		"Tom has 4 apples. He buys 6 more. How many apples does he have now?": false,
	}
	e := testEngine()
	for q, want := range tests {
		if got := e.analyze(q).fact; got != want {
			t.Errorf("%q: fact %v, want %v", q, got, want)
		}
	}
}

func TestClue(t *testing.T) {
	tests := map[string]bool{
		"This Dutch painter cut off part of his own ear.": true,
		"She was the first woman to win a Nobel Prize.":   true,
		"These islands were named after a Spanish king.":  true,
		"The Berlin Wall came down in which year?":        true,
		"this song is really great":                       false,
		"this is my new address":                          false,
		"He said I should call him back":                  false,
		"You want me to do what?":                         false,
	}
	e := testEngine()
	for q, want := range tests {
		a := e.analyze(q)
		if a.fact != want || a.clue != want {
			t.Errorf("%q: clue %v fact %v, want %v", q, a.clue, a.fact, want)
		}
	}
}

func TestAsksWeather(t *testing.T) {
	tests := map[string]bool{
		"will it rain in Oslo tomorrow":                 true,
		"is it windy out there":                         true,
		"a cold night in Tromsø?":                       true,
		"weather in Nice tomorrow":                      true,
		"any thunderstorms near Denver this afternoon":  true,
		"wetter in München morgen":                      true,
		"quel temps fait-il à Lyon":                     true,
		"qué tiempo hace en Sevilla":                    true,
		"I'm a bit under the weather, cancel my calls":  false, // an idiom
		"where can I get hot coffee near me":            false, // a thing
		"what is the best weather-resistant sealant":    false,
		"how do I freeze my debit card":                 false, // a person's object
		"who wrote the song Cold Rain":                  false, // a person
		"play rain sounds for an hour":                  false, // an action
		"buy a rain jacket in Paris":                    false,
		"22 degrees celsius in fahrenheit":              false, // units of measure
		"can we take a rain check on dinner in Lisbon?": false,
	}
	e := testEngine()
	for q, want := range tests {
		if got := e.asksWeather(e.analyze(q)); got != want {
			t.Errorf("%q: asks weather %v, want %v", q, got, want)
		}
	}
}

func TestAsksTime(t *testing.T) {
	tests := map[string]bool{
		"clock in Nairobi?":                             true,
		"tell me the hour in Lagos":                     true,
		"is it night in Seoul right now":                true,
		"is it already Sunday in Auckland":              true,
		"is it past noon in Dubai yet":                  true,
		"how late is it in Perth":                       true,
		"how many hours behind is Denver from Boston":   true,
		"what's the offset of CET from UTC":             true,
		"what is 3pm EST in ist":                        true,
		"5 pm pacific to eastern":                       true,
		"10:00 AM PT, what is that in Nairobi":          true,
		"if I phone Tokyo now will they be asleep":      true,
		"what time do they have in Cairo":               true,
		"what time of day is it in Lima":                true,
		"wie spät ist es in Zürich":                     true,
		"qué hora es en Lima":                           true,
		"what time does the bakery open":                false, // a timetable
		"what time is my flight":                        false, // an event
		"set an alarm for 6 am tomorrow":                false, // an action
		"move my 3 o'clock to 5":                        false,
		"play time of my life":                          false,
		"how much time do I have left":                  false,
		"wie geht es dir":                               false,
		"i will call you bob from now on":               false,
		"is the train to Paris running on time":         false,
		"one step at a time, tell me how to bake bread": false,
	}
	e := testEngine()
	for q, want := range tests {
		if got := asksTime(e.analyze(q)); got != want {
			t.Errorf("%q: asks time %v, want %v", q, got, want)
		}
	}
}

func TestRomanValue(t *testing.T) {
	tests := map[string]float64{"MCMXCIV": 1994, "XXVI": 26, "XIV": 14, "MIX": 1009, "IIII": 0, "IC": 0, "VX": 0, "I": 0, "XLX": 0}
	for s, want := range tests {
		got, ok := romanValue(s)
		if ok != (want > 0) || got != want {
			t.Errorf("romanValue(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
}

// A question how to do something asks for instructions, whatever its
// words name; saying something in another language and arithmetic
// written out keep their own answers.
func TestAsksInstructions(t *testing.T) {
	t.Parallel()
	e := testEngine()
	for q, want := range map[string]answerKind{
		"how to set the timezone in a docker container": kindOther,
		"how do i change the time on my watch":          kindOther,
		"how do I convert 5 miles to km":                kindNumber,
		"what time is it in tokyo":                      kindTime,
	} {
		if got := e.analysisOf(q).kind; got != want {
			t.Errorf("%q: kind %v, want %v", q, got, want)
		}
	}
	if asksInstructions(e.analysisOf("how do I say thank you in Greek")) {
		t.Error("saying something in another language is a translation, not instructions")
	}
}
