package ui

import (
	"errors"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/store"
)

// The scenes below are what the offline agent did for these questions
// (gear ask --json), so the views show real grounding tables.

func offlineEngines() agent.Engines {
	off := store.RoleModel{Engine: store.EngineOffline, Model: store.EngineOffline}
	return agent.Engines{Chat: off, Grounding: off, Embedding: off}
}

// calcGrounding is GEAR's table for "what is 17 * 23".
func calcGrounding() agent.Grounding {
	return agent.Grounding{Engine: "offline", Preliminary: "391", Choice: "Calculator", Confidence: 0.7613,
		NoneProbability: 0.04, Tools: []agent.Score{
			{Tool: "Calculator", Family: "calc", S: 0.179, P: 1.118, F: 0.414, Probability: 0.7613,
				Call: "Calculator(17 * 23)", Response: "391", Status: "run"},
			{Tool: "WikiSearch", Family: "wiki", S: 0.383, P: 0.291, F: 0.360, Probability: 0.1990,
				Call: `WikiSearch("17 * 23")`, Response: "17 * 23 — topic of an encyclopedia article", Status: "mock"},
			{Tool: "WeatherSearch", Family: "weather", S: 0.130, F: 0.098, Probability: 0.0040, Status: "no call"},
			{Tool: "TimezoneConverter", Family: "timezone", S: 0.072, F: 0.054, Probability: 0.0026, Status: "no call"},
			{Tool: "CurrentTime", Family: "timezone", Probability: 0.0015, Status: "no call"},
			{Tool: "LocationSearch", Family: "location", Probability: 0.0015, Status: "no call"},
		}}
}

// calcRecord is the finished turn.
func calcRecord() agent.Record {
	g := calcGrounding()
	return agent.Record{ConversationID: 1, TurnID: 1, Input: "what is 17 * 23", Query: "what is 17 * 23",
		Mode: store.ModeChat, Status: store.StatusDone,
		Route:     &agent.Route{NeedsTool: true, By: "threshold", Probability: 0.96, Threshold: 0.13},
		Grounding: &g, Tool: "Calculator", Family: "calc", Confidence: 0.7613, Grounded: true, ChosenBy: "grounding",
		Emission: &agent.Emission{Path: store.EmissionOffline, Tool: "Calculator", Call: "Calculator(17 * 23)"},
		Call:     &agent.ToolRun{Tool: "Calculator", Call: "Calculator(17 * 23)", Response: "391", FromGrounding: true},
		Answer:   "391", AnsweredBy: "tool", Engines: offlineEngines(),
		Usage: []store.RoleUsage{{Role: store.RoleChat}, {Role: store.RoleGrounding}, {Role: store.RoleEmbedding}}}
}

// calcEvents are the events of that turn, in order.
func calcEvents() []agent.Event {
	r := calcRecord()
	return []agent.Event{
		agent.Started{ConversationID: 1, TurnID: 1, Mode: store.ModeChat, Query: r.Query},
		agent.Notice{Text: "No chat model is configured: gear grounds and runs tools and shows their responses as they are, but cannot converse."},
		agent.Progress{Stage: agent.StageGrounding, Tools: 6},
		agent.Routed{Route: *r.Route},
		agent.Grounded{Grounding: *r.Grounding},
		agent.CallEmitted{Emission: *r.Emission},
		agent.Progress{Stage: agent.StageCalling, Tool: "Calculator"},
		agent.ToolStarted{Tool: "Calculator", Call: "Calculator(17 * 23)"},
		agent.ToolResult{Run: *r.Call},
		agent.AnswerDelta{Text: "391"},
		agent.Done{Record: r},
	}
}

// adelaideRecord is "/GEAR what time is it in Adelaide", direct mode.
func adelaideRecord() agent.Record {
	g := agent.Grounding{Engine: "offline", Preliminary: "2026-11-22 13:08:21 ACDT", Choice: "CurrentTime",
		Confidence: 0.97, Tools: []agent.Score{
			{Tool: "CurrentTime", Family: "timezone", S: 0.41, P: 1.3, F: 0.63, Probability: 0.97,
				Call: `CurrentTime("Adelaide")`, Status: "run"},
			{Tool: "TimezoneConverter", Family: "timezone", S: 0.22, F: 0.17, Probability: 0.02, Status: "no call"},
		}}
	resp := "2026-11-22 13:08:21 ACDT (UTC+10:30, Australia/Adelaide, Adelaide, Australia), Sunday"
	return agent.Record{ConversationID: 1, TurnID: 2, Input: "/GEAR what time is it in Adelaide",
		Query: "what time is it in Adelaide", Mode: store.ModeDirect, Status: store.StatusDone,
		Route: &agent.Route{NeedsTool: true, By: "mode"}, Grounding: &g, Tool: "CurrentTime", Family: "timezone",
		Confidence: 0.97, Grounded: true, ChosenBy: "grounding",
		Emission: &agent.Emission{Path: store.EmissionOffline, Tool: "CurrentTime", Call: `CurrentTime("Adelaide")`},
		Call:     &agent.ToolRun{Tool: "CurrentTime", Call: `CurrentTime("Adelaide")`, Response: resp},
		Answer:   resp, AnsweredBy: "tool", Engines: offlineEngines()}
}

func adelaideEvents() []agent.Event {
	r := adelaideRecord()
	return []agent.Event{
		agent.Started{ConversationID: 1, TurnID: 2, Mode: store.ModeDirect, Query: r.Query},
		agent.Progress{Stage: agent.StageGrounding, Tools: 6},
		agent.Routed{Route: *r.Route},
		agent.Grounded{Grounding: *r.Grounding},
		agent.ToolResult{Run: *r.Call},
		agent.AnswerDelta{Text: r.Answer},
		agent.Done{Record: r},
	}
}

// gateConfirmation is what grounding asks when it is not sure.
func gateConfirmation() agent.Confirmation {
	return agent.Confirmation{Threshold: 0.5, Candidates: []agent.Candidate{
		{Tool: "Calculator", Family: "calc", Confidence: 0.4986, Score: 0.414, Call: "Calculator(17 * 23)",
			Reading: &grounding.CallReading{Confidence: 0.97}},
		{Tool: "WikiSearch", Family: "wiki", Confidence: 0.2910, Score: 0.360, Call: `WikiSearch("17 * 23")`},
		{Tool: "WeatherSearch", Family: "weather", Confidence: 0.0212, Score: 0.098},
	}}
}

// unsureRecord is calcRecord when grounding was only 49.9% sure of the
// Calculator (as it once was offline, under the default confirm_below).
func unsureRecord() agent.Record {
	r := calcRecord()
	g := *r.Grounding
	g.Tools = append([]agent.Score(nil), g.Tools...)
	g.Confidence, g.Tools[0].Probability, g.Tools[1].Probability, g.Tools[2].Probability = 0.4986, 0.4986, 0.2910, 0.0212
	r.Grounding, r.Confidence = &g, 0.4986
	return r
}

// gateTurn stops at the confidence gate; the answer depends on the pick.
func gateTurn() *fakeTurn {
	r := unsureRecord()
	c := gateConfirmation()
	return newFakeTurn(
		[]agent.Event{
			agent.Started{ConversationID: 1, TurnID: 1, Mode: store.ModeChat, Query: r.Query},
			agent.Progress{Stage: agent.StageGrounding, Tools: 6},
			agent.Grounded{Grounding: *r.Grounding},
			agent.ConfirmationNeeded{Confirmation: c},
		},
		func(tool string) []agent.Event {
			rec := unsureRecord()
			c.Chosen = tool
			rec.Confirmation = &c
			switch tool {
			case agent.NoTool:
				rec.Tool, rec.Call, rec.Emission, rec.Grounded = "", nil, nil, false
				rec.Answer, rec.AnsweredBy = "No tool was run.", "gear"
			case "WikiSearch":
				rec.Tool, rec.ChosenBy, rec.Confidence = "WikiSearch", "user", 0.2910
				rec.Call = &agent.ToolRun{Tool: "WikiSearch", Call: `WikiSearch("17 * 23")`, Response: "no article"}
				rec.Answer = "no article"
			}
			return []agent.Event{agent.Done{Record: rec}}
		})
}

// failedEvents end a turn with an error.
func failedEvents() []agent.Event {
	rec := agent.Record{ConversationID: 1, TurnID: 3, Input: "weather in Paris", Query: "weather in Paris",
		Mode: store.ModeChat, Status: store.StatusFailed,
		Error: "weather: Open-Meteo did not answer (network down?): try again, or ask offline tools"}
	return []agent.Event{
		agent.Started{ConversationID: 1, TurnID: 3, Mode: store.ModeChat, Query: rec.Query},
		agent.Failed{Err: errors.New(rec.Error), Record: rec},
	}
}
