package offline

import (
	"context"
	"testing"
)

// The example sentences here are written for these tests; none comes from
// an evaluation file.

func TestSpokenClockTimes(t *testing.T) {
	tests := []struct {
		query string
		want  []string
	}{
		{"half past nine in Lisbon, what time is that in Seoul", []string{"9:30"}},
		{"quarter to seven in the evening in Oslo", []string{"6:45 pm"}},
		{"ten past eleven at night in Lima", []string{"11:10 pm"}},
		{"twenty minutes to four", []string{"3:40"}},
		{"four o'clock in Dublin", []string{"4:00"}},
		{"the shop opens at 9h30", []string{"9:30"}},
		{"dinner at 19h in Lyon", []string{"19:00"}},
		{"7 in the morning in Perth is what in Cairo", []string{"7:00 am"}},
		{"ten to twelve people came", nil},
		{"I have 3 meetings in the morning", nil},
		{"at 5 pm in Rome", []string{"5 pm"}},
	}
	e := testEngine()
	for _, tt := range tests {
		got := e.analyze(tt.query).datetimes
		if len(got) != len(tt.want) {
			t.Errorf("%q: date-times %q, want %q", tt.query, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%q: date-times %q, want %q", tt.query, got, tt.want)
			}
		}
	}
}

func TestClockPhrasing(t *testing.T) {
	tests := map[string]bool{
		"time now in Kuala Lumpur":                  true,
		"the time right now in Quito":               true,
		"is it Sunday already in Auckland":          true,
		"half past six gmt in Karachi":              true,
		"will my train be on time":                  false, // punctual
		"is this the second time you asked":         false,
		"what is the time complexity of heapsort":   false,
		"how do you say what time is it in Spanish": false, // a translation
		"what is a time zone":                       false, // a concept
		"how to write the time in French":           false,
	}
	e := testEngine()
	for q, want := range tests {
		if got := e.analyze(q).kind == kindTime; got != want {
			t.Errorf("%q: asks the clock %v, want %v", q, got, want)
		}
	}
	got, err := e.Call(context.Background(), specs()["TimezoneConverter"], "quarter past ten in the morning in Denver, what's that in Rome")
	if err != nil || got != `TimezoneConverter("10:15 am", "Denver", "Rome")` {
		t.Errorf("converter call %s (%v)", got, err)
	}
}

func TestWeatherWithoutWeatherWords(t *testing.T) {
	tests := map[string]bool{
		"is it lovely out in Galway":                   true,
		"should I pack shorts for Friday":              true,
		"whats the wheather in Leeds":                  true, // a slip
		"temperture in Cork tomorow":                   true,
		"forcast for the weekend":                      true,
		"what's the humidity":                          true,
		"tiempo en Sevilla mañana":                     true,
		"the temperature of the oven":                  false,
		"Let It Snow chords":                           false,
		"the difference between weather and climate":   false, // a concept
		"how hot is the core of the earth":             false, // a property of a thing
		"what is a monsoon":                            false,
		"my kids made a storm of complaints yesterday": false,
	}
	e := testEngine()
	for q, want := range tests {
		if got := e.analyze(q).kind == kindWeather; got != want {
			t.Errorf("%q: asks the weather %v, want %v", q, got, want)
		}
	}
	got, err := e.Call(context.Background(), specs()["WeatherSearch"], "temperture in Cork tomorow")
	if err != nil || got != `WeatherSearch("Cork", "tomorrow")` {
		t.Errorf("weather call %s (%v)", got, err)
	}
}

func TestTypoSlips(t *testing.T) {
	tests := map[string]string{
		"wether":      "weather",
		"tempreture":  "temperature",
		"tommorrow":   "tomorrow",
		"forcast":     "forecast",
		"whether":     "", // a word of its own, two slips away
		"sweeter":     "", // not a target
		"weathers":    "", // known: a weather word
		"wikipeida":   "wikipedia",
		"capitol":     "capital",
		"populations": "", // known
	}
	lx := newLexicon(builtinSpecs())
	for in, want := range tests {
		got := ""
		if !lx.known(in) {
			got, _ = lx.typoOf(in)
		}
		if got != want {
			t.Errorf("typo of %q: %q, want %q", in, got, want)
		}
	}
}

func TestRequestSentence(t *testing.T) {
	tests := []struct {
		query, focus string
	}{
		{"Work has been awful this week and I barely slept. Who wrote Pride and Prejudice? My book club meets on Friday.",
			"Who wrote Pride and Prejudice?"},
		{"I'm nervous about my trip. Is it going to rain in Dublin on Monday? I didn't pack a coat.",
			"Is it going to rain in Dublin on Monday?"},
		// Points back to the context, or needs its numbers, place or time.
		{"My brother lives in Perth. What time is it there?", ""},
		{"The bill was 84 dollars. What percent tip is that if I leave 12?", ""},
		{"Sam has 7 stickers. Ana has 5 more than Sam. How many stickers does Ana have?", ""},
		{"I'm flying to Oslo on Friday. Will it snow?", ""},
		{"Our meeting is at 3 pm in London. I'm in Denver — when should I join?", ""},
		// One sentence, or no question: the whole.
		{"who painted the sistine chapel", ""},
		{"I love history. Tell me about the Incas.", ""},
		{"5 pm pacific = ? eastern", ""},
	}
	e := testEngine()
	for _, tt := range tests {
		a := e.analyze(tt.query)
		focus := ""
		if a.context != nil {
			focus = a.query
		}
		if focus != tt.focus {
			t.Errorf("%q: request %q, want %q", tt.query, focus, tt.focus)
		}
	}
	// The request decides; the context does not outweigh it.
	a := e.analyze("The heater broke and it's freezing in here. How do I reset a boiler?")
	if a.kind == kindWeather || a.fact {
		t.Errorf("a how-to with a cold room around it: kind %d, fact %v", a.kind, a.fact)
	}
	a = e.analyze("I've been reading all evening and my eyes hurt. Why is the sea salty?")
	if !a.fact {
		t.Error("a question about the world with a remark before it is one")
	}
}

func TestSearchFragments(t *testing.T) {
	tests := map[string]bool{
		"melting point of gold":           true,
		"population of peru":              true,
		"deepest lake in the world":       true,
		"inventor of the telephone":       true,
		"siege of leningrad":              true,
		"doppler effect":                  true,
		"hamlet author":                   true,
		"um oldest tree on earth":         true,
		"famous bridges in london":        true,
		"distance from mars to the sun":   true,
		"wifi password":                   false,
		"cheap hotels in lisbon":          false, // a service
		"hotel prices in lisbon":          false,
		"my order history":                false, // the user's own
		"best pizza in naples":            false, // an opinion
		"weather in oslo":                 false, // the weather tool's
		"fastest way to the airport":      false, // no scope: directions
		"a volume of 4 is fine":           false, // a sentence, not a phrase
		"would you raise the volume":      false, // a request
		"speed of my internet connection": false,
		"news today":                      false,
	}
	e := testEngine()
	for q, want := range tests {
		a := e.analyze(q)
		if a.fact != want {
			t.Errorf("%q: a look-up %v, want %v", q, a.fact, want)
		}
	}
	got, err := e.Call(context.Background(), specs()["WikiSearch"], "melting point of gold")
	if err != nil || got != `WikiSearch("melting point of gold")` {
		t.Errorf("wiki call %s (%v)", got, err)
	}
}

func TestWorldQuestionsMore(t *testing.T) {
	tests := map[string]bool{
		// Yes-no questions of what a thing is.
		"is a peanut a legume":                true,
		"was Pluto ever a planet":             true,
		"is Greenland part of Denmark":        true,
		"is a hot dog technically a sandwich": true,
		"is the pool open on a sunday":        false,
		"is honey a substitute for sugar":     false, // a use
		"is this a scam":                      false,
		"is 91 a prime number":                false,
		// People in general, a property, the US, a numeral.
		"why do we sneeze":                     true,
		"how bright is the sun":                true,
		"what were the causes of World War II": true,
		"which rivers flow through the US":     true,
		"what did Henry I do":                  true,
		// Other languages.
		"¿Qué es un agujero negro?":   true,
		"wer war Marie Curie":         true,
		"quelle heure est-il à Paris": false, // the clock
		// The present, live data, services, directions, advice.
		"who won the derby yesterday":               false,
		"what's the score of the rangers game":      false,
		"when does the next ferry leave":            false,
		"what's the chance of snow on friday":       false,
		"how long is the train from rome to naples": false,
		"where to park near the stadium":            false,
		"how to make pancakes":                      false,
		"what is the price of a ticket":             false,
	}
	e := testEngine()
	for q, want := range tests {
		if got := e.analyze(q).fact; got != want {
			t.Errorf("%q: fact %v, want %v", q, got, want)
		}
	}
}
