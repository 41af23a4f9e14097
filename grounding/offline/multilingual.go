package offline

import "strings"

// A small vocabulary of the commonest requests in other languages —
// German, French, Spanish, Italian and Portuguese — for the two subjects
// whose questions are short and formulaic: the weather and the clock. It
// is a dictionary of everyday words, written for this engine, not a
// translator: the rest of such a query is matched as it is (place names
// are the same in any language, and the gazetteer ignores accents).

// foreignWeatherList are weather words: weather, forecast, rain, snow,
// storm, sun, cloud, wind, temperature, cold, hot.
const foreignWeatherList = `wetter wettervorhersage vorhersage regen regnet schnee schneit gewitter sonnig bewölkt temperatur
	météo meteo prévisions pluie pleut neige neiger orage ensoleillé nuageux température
	clima pronóstico lluvia llueve llover nieve nieva tormenta soleado nublado
	previsioni pioggia piove nevica temporale soleggiato nuvoloso temperatura
	previsão chuva chove tempestade ensolarado`

// foreignClockList are words for the clock's time and its hour.
const foreignClockList = `uhrzeit uhr zeitzone heure heures hora horas`

// foreignWeatherQuestions ask what the weather is like, with the word
// that means both "weather" and "time" in French, Spanish, Italian and
// Portuguese ("quel temps fait-il", "qué tiempo hace").
const foreignWeatherQuestions = `quel temps|qué tiempo|que tiempo|che tempo|que tempo|como está el tiempo
	|il fait froid|il fait chaud|hace frío|hace frio|hace calor|es ist kalt|es ist heiß|wie ist das wetter`

// foreignClockQuestions ask what time it is: "wie spät ist es", "quelle
// heure est-il", "qué hora es", "che ora è", "que horas são".
const foreignClockQuestions = `wie spät|wie viel uhr|wieviel uhr|quelle heure|qué hora|que hora|que horas|che ora|che ore
	|hora actual|heure actuelle|l'heure|ora attuale|hora atual`

// foreignDayList maps the words for today and tomorrow to the English the
// tools read.
const foreignDayList = `heute:today aujourd'hui:today hoy:today oggi:today hoje:today
	morgen:tomorrow demain:tomorrow mañana:tomorrow domani:tomorrow amanhã:tomorrow`

// foreignDays reads foreignDayList.
func foreignDays() map[string]string {
	m := map[string]string{}
	for _, pair := range strings.Fields(foreignDayList) {
		w, en, _ := strings.Cut(pair, ":")
		m[w] = en
	}
	return m
}

// readForeign sets what the foreign vocabulary says about the query: a
// weather question, a clock question, and the days it names.
func (a *analysis) readForeign() {
	for i, t := range a.toks {
		if n := matchPhrase(a.toks, i, len(a.toks), a.lx.foreignWeatherQuestions); n > 0 {
			a.foreignWeather = true
		}
		if n := matchPhrase(a.toks, i, len(a.toks), a.lx.foreignClockQuestions); n > 0 {
			a.foreignClock = true
		}
		if a.lx.foreignClock[t.text] {
			a.foreignClock = true
		}
		if en, ok := a.lx.foreignDays[t.text]; ok {
			a.dates = append(a.dates, en)
		}
	}
}
