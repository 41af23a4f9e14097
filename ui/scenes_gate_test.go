package ui

import (
	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/store"
)

// The gate's scenes: a call the engine read with doubts, and a "no tool"
// grounding was unsure of. The numbers are the shape the offline engine
// gives (the "5 feet 10 inches" read as 5 feet).

const feetQuery = "what's 5 feet 10 inches in cm"

// feetReading is the call confidence of Calculator(5 * 0.3048 / 0.01).
func feetReading() *grounding.CallReading {
	return &grounding.CallReading{Confidence: 0.45, Doubts: []string{
		"the quantity '10 inches' found no place in the expression",
		"'feet … inches' is a compound quantity"}}
}

func feetRecord() agent.Record {
	rd := feetReading()
	g := agent.Grounding{Engine: "offline", Preliminary: "152.4", Choice: "Calculator", Confidence: 0.97,
		NoneProbability: 0.02, Tools: []agent.Score{
			{Tool: "Calculator", Family: "calc", S: 0.21, P: 1.2, F: 0.45, Probability: 0.97,
				Call: "Calculator(5 * 0.3048 / 0.01)", Response: "152.4", Status: "run", Reading: rd},
			{Tool: "WikiSearch", Family: "wiki", S: 0.19, P: 0.1, F: 0.16, Probability: 0.01,
				Call: `WikiSearch("5 feet 10 inches in cm")`, Status: "mock"},
		}}
	em := agent.Emission{Path: store.EmissionOffline, Tool: "Calculator", Call: "Calculator(5 * 0.3048 / 0.01)", Reading: rd}
	return agent.Record{ConversationID: 1, TurnID: 1, Input: feetQuery, Query: feetQuery, Mode: store.ModeChat,
		Status: store.StatusRunning, Route: &agent.Route{NeedsTool: true, By: "threshold", Probability: 0.98, Threshold: 0.16},
		Grounding: &g, Tool: "Calculator", Family: "calc", Confidence: 0.97, Grounded: true, ChosenBy: "grounding",
		Emission: &em, Engines: offlineEngines()}
}

func feetQuestion() agent.Confirmation {
	rd := feetReading()
	return agent.Confirmation{Kind: agent.ConfirmCall, Threshold: 0.8, Candidates: []agent.Candidate{
		{Tool: "Calculator", Family: "calc", Confidence: 0.97, Call: "Calculator(5 * 0.3048 / 0.01)", Reading: rd}}}
}

// callGateTurn stops at the call's question; yes runs it, no does not.
func callGateTurn() *fakeTurn {
	r := feetRecord()
	return newFakeTurn(
		[]agent.Event{
			agent.Started{ConversationID: 1, TurnID: 1, Mode: store.ModeChat, Query: feetQuery},
			agent.Routed{Route: *r.Route},
			agent.Grounded{Grounding: *r.Grounding},
			agent.CallEmitted{Emission: *r.Emission},
			agent.ConfirmationNeeded{Confirmation: feetQuestion()},
		},
		func(tool string) []agent.Event {
			rec := feetRecord()
			q := feetQuestion()
			q.Chosen = tool
			rec.Permission, rec.Status, rec.CallReading = &q, store.StatusDone, feetReading()
			if tool == agent.NoTool {
				rec.Answer, rec.AnsweredBy = "Calculator(5 * 0.3048 / 0.01) was not run: gear is only 45% sure it read your question right (it asks under 80%).", "gear"
			} else {
				rec.Call = &agent.ToolRun{Tool: "Calculator", Call: "Calculator(5 * 0.3048 / 0.01)", Response: "152.4", FromGrounding: true}
				rec.Answer, rec.AnsweredBy = "152.4", "tool"
			}
			return []agent.Event{agent.Done{Record: rec}}
		})
}

const moonsQuery = "give me all the moons of jupiter"

func moonsOffer() agent.Confirmation {
	return agent.Confirmation{Kind: agent.ConfirmNone, Threshold: 0.9, NoneConfidence: 0.86, Candidates: []agent.Candidate{
		{Tool: "WikiSearch", Family: "wiki", Confidence: 0.41, Score: 0.2, Call: `WikiSearch("moons of jupiter")`},
		{Tool: "WeatherSearch", Family: "weather", Confidence: 0.22, Score: 0.1, Call: `WeatherSearch("Jupiter")`,
			Reading: &grounding.CallReading{Confidence: 0.3}},
	}}
}

// offerTurn stops at the closest tools offered for an unsure "no tool".
func offerTurn() *fakeTurn {
	g := agent.Grounding{Engine: "offline", Choice: agent.NoTool, Confidence: 0.86, NoneProbability: 0.86}
	route := agent.Route{NeedsTool: false, By: "threshold", Probability: 0.14, Threshold: 0.16}
	return newFakeTurn(
		[]agent.Event{
			agent.Started{ConversationID: 1, TurnID: 1, Mode: store.ModeChat, Query: moonsQuery},
			agent.Routed{Route: route},
			agent.Grounded{Grounding: g},
			agent.ConfirmationNeeded{Confirmation: moonsOffer()},
		},
		func(tool string) []agent.Event {
			c := moonsOffer()
			c.Chosen = tool
			rec := agent.Record{ConversationID: 1, TurnID: 1, Input: moonsQuery, Query: moonsQuery, Mode: store.ModeChat,
				Status: store.StatusDone, Route: &route, Grounding: &g, Confirmation: &c, Engines: offlineEngines()}
			switch tool {
			case agent.NoTool:
				rec.Answer, rec.AnsweredBy = "I'm not sure this needs a tool. Closest: WikiSearch 41%, WeatherSearch 22% — pick one or rephrase.", "gear"
			default:
				rec.Tool, rec.ChosenBy, rec.Confidence, rec.Grounded = tool, "user", 0.06, true
				rec.Call = &agent.ToolRun{Tool: tool, Call: c.Candidates[0].Call, Response: "Jupiter has 95 moons."}
				rec.Answer, rec.AnsweredBy = "Jupiter has 95 moons.", "tool"
			}
			return []agent.Event{agent.Done{Record: rec}}
		})
}
