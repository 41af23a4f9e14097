package offline_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/tools"
)

// The argument fit reads each parameter by its type and counts on past a
// missing one; types the engine reads nothing of are not counted.
func TestArgumentFit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, schema, query string
		want                grounding.ArgumentFit
	}{
		{"integer with no number", `{"type":"object","properties":{"year":{"type":"integer"}},"required":["year"]}`,
			"Provide the budget of the Red Cross.",
			grounding.ArgumentFit{Required: 1, Typed: 1, Values: 0}},
		{"integer with a number", `{"type":"object","properties":{"year":{"type":"integer"}},"required":["year"]}`,
			"Provide the budget for 2021.",
			grounding.ArgumentFit{Required: 1, Filled: 1, Typed: 1, TypedFilled: 1, Values: 1, Used: 1}},
		{"one of two numbers missing", `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`,
			"multiply 6 by something",
			grounding.ArgumentFit{Required: 2, Filled: 1, Typed: 2, TypedFilled: 1, Values: 1, Used: 1}},
		{"enum value absent", `{"type":"object","properties":{"genre":{"type":"string","enum":["Comedy","Drama"]}},"required":["genre"]}`,
			"find me a thriller",
			grounding.ArgumentFit{Required: 1, Enums: 1}},
		{"array and boolean not counted", `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}},"all":{"type":"boolean"}},"required":["ids","all"]}`,
			"delete the records 4 and 5",
			grounding.ArgumentFit{Values: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			params, err := tools.ParamsFromSchema(json.RawMessage(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			spec := tools.Spec{Name: "lib_tool", Description: "a library tool", Params: params,
				Source: tools.Source{Kind: tools.SourceMCP, Name: "test"}, Effect: tools.EffectWrites}
			eng := offline.New(offline.Options{Tools: []tools.Spec{spec}})
			_, reading, err := eng.ReadCall(context.Background(), spec, tt.query)
			if err != nil {
				t.Fatal(err)
			}
			if reading == nil || reading.Fit == nil {
				t.Fatal("no argument fit read")
			}
			if *reading.Fit != tt.want {
				t.Errorf("fit = %+v, want %+v", *reading.Fit, tt.want)
			}
		})
	}
}

// A library tool that is never run is scored by its arguments' fit, with
// its own γ: the one whose integer the query gives leads the one whose
// integer it lacks.
func TestGroundScoresLibraryToolsByArgumentFit(t *testing.T) {
	t.Parallel()
	mk := func(name, desc, schema string) tools.Tool {
		params, err := tools.ParamsFromSchema(json.RawMessage(schema))
		if err != nil {
			t.Fatal(err)
		}
		return scaleTool{tools.Spec{Name: name, Family: "test", Description: desc, Params: params,
			Source: tools.Source{Kind: tools.SourceMCP, Name: "test"}, Effect: tools.EffectWrites}}
	}
	reg, err := tools.NewRegistry(
		mk("get_budget_by_year", "Retrieve budget information for a specific year",
			`{"type":"object","properties":{"year":{"type":"integer"}},"required":["year"]}`),
		mk("get_org_budget", "Retrieve budget information of an organization",
			`{"type":"object","properties":{"organization":{"type":"string"}},"required":["organization"]}`),
	)
	if err != nil {
		t.Fatal(err)
	}
	eng := offline.New(offline.Options{Tools: reg.Specs()})
	g, err := grounding.New(reg, eng.Grounding(), grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Ground(context.Background(), "Provide the budget information for the Red Cross organization")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]grounding.ToolScore{}
	for _, ts := range res.Tools {
		byName[ts.Tool] = ts
		if ts.Reading == nil || ts.Reading.Fit == nil {
			t.Fatalf("%s: no argument fit", ts.Tool)
		}
		if !ts.ByArguments {
			t.Errorf("%s: not marked as scored by its arguments", ts.Tool)
		}
		gamma := grounding.DefaultGammaArguments
		if want := ts.Reading.Fit.Score(); ts.P != want {
			t.Errorf("%s: P = %v, want the fit's score %v", ts.Tool, ts.P, want)
		}
		if want := gamma*ts.S + (1-gamma)*ts.P; math.Abs(ts.F-want) > 1e-12 {
			t.Errorf("%s: f = %v, want γS + (1−γ)P = %v", ts.Tool, ts.F, want)
		}
	}
	if byName["get_budget_by_year"].P != 0 || byName["get_org_budget"].P != 1 {
		t.Errorf("P: by year %v (want 0: no number), of an organization %v (want 1)",
			byName["get_budget_by_year"].P, byName["get_org_budget"].P)
	}
}

// A string whose description asks for a date or a time format is
// filled when the query says when.
func TestArgumentFitReadsDateStrings(t *testing.T) {
	t.Parallel()
	schema := `{"type":"object","properties":{
		"stylist":{"type":"string","description":"The stylist's name."},
		"day":{"type":"string","description":"The date, in the format 'YYYY-MM-DD'."},
		"at":{"type":"string","description":"The time, in 24-hour format 'HH:MM'."}},"required":["stylist","day","at"]}`
	params, err := tools.ParamsFromSchema(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	spec := tools.Spec{Name: "book", Family: "test", Description: "Book an appointment", Params: params,
		Source: tools.Source{Kind: tools.SourceMCP, Name: "test"}, Effect: tools.EffectWrites}
	eng := offline.New(offline.Options{Tools: []tools.Spec{spec}})
	for query, typedFilled := range map[string]int{
		"I am looking for a hair dresser in San Lorenzo":             0,
		"book me with Anna on 2024-05-03 at 14:30":                   2,
		"book a haircut with Anna tomorrow":                          2,
		"could you book me a cut with Anna on the 20th of July 2023": 2,
	} {
		_, reading, err := eng.ReadCall(context.Background(), spec, query)
		if err != nil {
			t.Fatal(err)
		}
		if reading.Fit.Typed != 2 || reading.Fit.TypedFilled != typedFilled {
			t.Errorf("%q: fit %+v, want 2 shaped parameters, %d filled", query, *reading.Fit, typedFilled)
		}
	}
}
