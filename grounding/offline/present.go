package offline

// What a reference work does not keep: the present moment and live data,
// the user's dealings with businesses and services, and directions. A
// question about these has the form of a question about the world ("who
// won the game last night", "what's the wifi password", "how long is the
// drive from Leeds to York") but no look-up tool answers it. The lists
// are plain English, written for this engine.

// presentWordList are the words of the present moment — the days around
// today — and of live data — the news, scores, traffic — which a
// reference work does not keep: "who won the game last night", "what's
// the score", "the next bus", "the chance of rain on Saturday", "how many
// days until Christmas".
const presentWordList = `now today tonight tomorrow yesterday latest next upcoming until till
	monday tuesday wednesday thursday friday saturday sunday weekend
	score scores standings news headlines traffic`

// travelNounList are journeys, which "from ... to ..." makes a request
// for directions or a timetable: "the drive from Leeds to York", "the
// train from Rome to Naples".
const travelNounList = `drive ride walk commute trip journey route flight flights train trains bus buses ferry
	ferries transfer way`

// serviceNounList are the user's dealings with businesses and services —
// prices, bookings, accounts, opening hours, directions — which no
// reference work answers: "hotel prices in Rome", "the wifi password",
// "where to buy a train ticket".
const serviceNounList = `price prices fee fees fare fares deal deals discount discounts coupon coupons sale
	ticket tickets booking bookings reservation reservations hotel hotels hostel hostels airbnb rental rentals
	restaurant restaurants delivery shipping password passwords login account accounts wifi menu hours
	itinerary directions near nearby`

// journeyAt: the travel noun at i is followed by "from" and later "to" (a
// journey between two places) before end.
func (a *analysis) journeyAt(i, end int) bool {
	if i+1 >= end || a.toks[i+1].text != "from" {
		return false
	}
	for k := i + 2; k < end; k++ {
		if a.toks[k].text == "to" {
			return true
		}
	}
	return false
}

// directions: the query names a journey between two places.
func (a *analysis) directions() bool {
	for i, t := range a.toks {
		if a.lx.travelNouns[t.text] && a.journeyAt(i, len(a.toks)) {
			return true
		}
	}
	return false
}
