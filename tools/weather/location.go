package weather

import (
	"context"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// LocationSearch is the LocationSearch tool, the paper's Location Search.
type LocationSearch struct{ cfg Config }

// NewLocationSearch returns the LocationSearch tool.
func NewLocationSearch(cfg Config) *LocationSearch { return &LocationSearch{cfg: cfg} }

// Spec describes LocationSearch.
func (l *LocationSearch) Spec() tools.Spec {
	return tools.Spec{
		Name:   "LocationSearch",
		Family: tools.FamilyLocation,
		Source: tools.Builtin,
		Effect: tools.EffectReadOnly,
		Description: "Location Search API is used for answering questions about where a place is and what it is: " +
			"its latitude and longitude, the country and region it belongs to, how many people live there and its time zone. " +
			"It looks the place up in gear's gazetteer, then in Open-Meteo's geocoding.",
		Params: []tools.Param{
			{Name: "place", Type: tools.TypePlace, Description: `the city, region or country, e.g. "Timbuktu" or "Frederick, Maryland"`},
		},
		Examples: []tools.Example{
			{Query: "Where exactly is Timbuktu?", Call: `LocationSearch("Timbuktu")`},
			{Query: "What are the GPS coordinates of Reykjavik?", Call: `LocationSearch("Reykjavik")`},
			{Query: "How many people live in Nairobi?", Call: `LocationSearch("Nairobi")`},
			{Query: "Which country is the city of Porto in?", Call: `LocationSearch("Porto")`},
			{Query: "What region of Italy is Bologna part of?", Call: `LocationSearch("Bologna")`},
		},
		Mock:  mockLocation(),
		Hints: locationHints(),
	}
}

// Place is LocationSearch's structured result.
type Place struct {
	Location
	// Others are further places of that name, from geocoding.
	Others []Location `json:"others,omitempty"`
}

// Run looks the call's place up.
func (l *LocationSearch) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	loc, others, err := resolver{cfg: l.cfg, prefix: "location"}.resolve(ctx, call.Text("place"))
	if err != nil {
		return tools.Result{}, err
	}
	text := loc.Text()
	if len(others) > 0 {
		labels := make([]string, len(others))
		for i, o := range others {
			labels[i] = o.Label()
		}
		text += "\nOther places called " + loc.Name + ": " + strings.Join(labels, "; ")
	}
	return tools.Result{Text: text, Data: Place{Location: loc, Others: others}}, nil
}
