package offline

import "strings"

// Search-box fragments. People type a look-up into a search box as a bare
// noun phrase — "height of mount everest", "speed of light", "treaty of
// westphalia", "tallest building in the world", "mitochondria function",
// "the great gatsby author" — where a question would say "what is" or
// "who wrote". A bare phrase can as well be a need of the user's own
// ("wifi password", "airbnb in mexico city", "5 day itinerary for
// morocco"), so a fragment counts as a look-up only when its words say it
// asks for a fact about the world: an attribute of something ("the X of
// Y", "Y X": a height, a speed, an author, a boiling point, a history),
// the kind of a named event or idea ("the treaty of ...", "... theorem"),
// or the most of something within a scope ("the longest river in
// Africa"). The vocabularies are plain English, written for this engine.

// attributeList are the facts an encyclopedia records about a thing:
// measures, origins, makers, parts and properties. Each entry is a
// phrase; the last word is the one that must stand before "of", "for" or
// "from", or end the fragment.
const attributeList = `height|length|width|depth|size|area|weight|mass|volume|speed|distance|population|capital|currency
	|official language|language|languages|diameter|radius|circumference|temperature|age|lifespan|life expectancy|origin|origins
	|history|meaning|definition|etymology|author|writer|composer|painter|director|inventor|founder|creator|discoverer
	|architect|symbol|chemical symbol|formula|chemical formula|structure|function|functions|cause|causes|effects|purpose
	|date|birthplace|coordinates|elevation|altitude|density|anthem|flag|motto|nickname|plot|members|inventors|founders
	|boiling point|melting point|freezing point|atomic number|atomic mass|atomic weight|half life|orbit|gravity
	|biography|religion|economy|climate|geography|culture|government`

// kindHeadList are nouns that head the names of events and ideas, before
// "of" ("the treaty of Westphalia", "the battle of Hastings", "the theory
// of relativity").
const kindHeadList = `treaty battle war siege fall rise revolution empire kingdom dynasty republic council congress
	declaration theory law laws principle theorem edict peace massacre invasion conquest partition unification`

// kindTailList are nouns that end the names of ideas and conditions: "the
// Pythagorean theorem", "the Doppler effect", "Down syndrome".
const kindTailList = `theorem effect paradox syndrome disease principle hypothesis equation constant theory dynasty
	empire revolution`

// superlativeList are the superlatives by which reference works rank
// things — of size, age, speed, height, temperature, number — not of
// price or of taste ("cheapest", "best"), which they do not.
const superlativeList = `tallest largest biggest longest highest deepest oldest smallest fastest heaviest hottest coldest
	widest richest shortest lowest youngest earliest farthest furthest strongest brightest loudest densest lightest wettest
	driest rarest deadliest busiest most least`

// fragmentReferenceWords say of a fragment that it is about something
// known: "famous landmarks in Prague".
const fragmentReferenceWordList = `famous notable historic ancient`

// scopeWords end a superlative's scope: "in the world", "on earth",
// "ever".
func isScopeWord(w string) bool {
	switch w {
	case "in", "on", "ever", "of", "among":
		return true
	}
	return false
}

// fragment reads the query as a search-box look-up (see the file
// comment) and returns its span.
func fragment(a *analysis) (span, bool) {
	n := len(a.toks)
	if n < 2 || n > 8 || len(a.sents) != 1 || a.command || a.expr != "" || len(a.datetimes) > 0 {
		return span{}, false
	}
	if strings.ContainsRune(a.query, '?') {
		return span{}, false
	}
	head, f := a.lx.clauseHead(a.toks, a.clauses[0])
	if f != frameOther || head >= n {
		return span{}, false // a question, a request or an action: read as such
	}
	for i := 0; i < head; i++ {
		if !isFiller(a.toks[i].text) {
			return span{}, false // "would you please increase the volume": a request
		}
	}
	for i := head; i < n; i++ {
		w := a.toks[i].text
		if a.lx.isPersonalAt(a.toks, i) || isSubjective(w) || a.lx.presentWords[w] || a.lx.serviceNouns[w] || isAuxiliary(w) {
			return span{}, false // "my password", "best pizza", "news today", "hotel prices", "a volume of 4 is ideal"
		}
	}
	q := span{head, n}
	content := func(k int) bool {
		for k < n && (a.toks[k].text == "the" || a.toks[k].text == "a" || a.toks[k].text == "an") {
			k++ // "inventor of the telephone"
		}
		return k >= head && k < n && !a.lx.stop[a.toks[k].text]
	}
	for i := head; i < n; i++ {
		w := a.toks[i].text
		if a.lx.fragmentReference[w] && i+1 < n {
			return q, true // "famous landmarks in Prague"
		}
		if a.lx.kindHeads[w] && i+1 < n && a.toks[i+1].text == "of" && content(i+2) {
			return q, true // "treaty of Westphalia"
		}
		if a.lx.kindTails[w] && i == n-1 && content(i-1) {
			return q, true // "Pythagorean theorem"
		}
		if a.lx.superlatives[w] {
			for k := i + 1; k < n && k <= i+4; k++ {
				if isScopeWord(a.toks[k].text) && content(k-1) && k+1 < n {
					return q, true // "longest river in Africa"
				}
			}
		}
		if m := matchPhrase(a.toks, i, n, a.lx.attributes); m > 0 {
			end := i + m
			switch {
			case end < n && (a.toks[end].text == "of" || a.toks[end].text == "for" || a.toks[end].text == "from" && a.toks[i].text == "distance") && content(end+1):
				return q, true // "speed of light", "chemical symbol for gold"
			case end == n && i > head && content(i-1):
				return q, true // "the great gatsby author"
			}
		}
	}
	return span{}, false
}

// isFiller: a word that opens a fragment without making it a request —
// a hesitation or a greeting ("um", "so", "hey").
func isFiller(w string) bool {
	switch w {
	case "um", "umm", "uh", "uhh", "er", "erm", "hmm", "so", "ok", "okay", "hey", "hi", "hello", "well":
		return true
	}
	return false
}
