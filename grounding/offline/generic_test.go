package offline_test

import (
	"context"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/tools"
	builtintools "github.com/gear-chat/gear/tools/builtin"
	"github.com/gear-chat/gear/tools/place"
)

// unseenTool is a tool the engine has never seen: a spec with no hints.
type unseenTool struct{ spec tools.Spec }

func (u unseenTool) Spec() tools.Spec { return u.spec }
func (unseenTool) Run(context.Context, tools.Call) (tools.Result, error) {
	return tools.Result{Text: "5"}, nil
}

func unseen(name, description string, params ...tools.Param) tools.Tool {
	return unseenTool{tools.Spec{Name: name, Family: tools.Family(name), Description: description,
		Source: tools.Source{Kind: tools.SourceMCP, Name: "test"}, Effect: tools.EffectReadOnly, Params: params}}
}

// TestUnseenTools: tools described in a few words, with no hints and no
// examples, beside the built-in ones, are chosen for their queries and
// called with arguments read by parameter type.
func TestUnseenTools(t *testing.T) {
	g, err := place.Load()
	if err != nil {
		t.Fatal(err)
	}
	lib := append(builtintools.Tools(builtintools.Options{Places: place.Load}),
		unseen("add_numbers", "Adds two numbers", tools.Param{Name: "a", Type: tools.TypeNumber}, tools.Param{Name: "b", Type: tools.TypeNumber}),
		unseen("get_stock_price", "Get the current stock price for a ticker symbol", tools.Param{Name: "ticker", Type: tools.TypeString}),
		unseen("package_version", "Looks up the latest released version of a software package on PyPI",
			tools.Param{Name: "name", Type: tools.TypeString, Description: "the package's name"}),
		unseen("set_units", "Sets the units of measurement", tools.Param{Name: "system", Type: tools.TypeEnum, Enum: []string{"metric", "imperial"}}),
	)
	reg, err := tools.NewRegistry(lib...)
	if err != nil {
		t.Fatal(err)
	}
	eng := offline.New(offline.Options{Places: g, Tools: reg.Specs()})
	gr, err := grounding.New(reg, eng.Grounding(), grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ query, tool, call string }{
		{"add the numbers 2 and 3", "add_numbers", "add_numbers(2, 3)"},
		{"what's the stock price of AAPL", "get_stock_price", `get_stock_price("AAPL")`},
		{"AAPL stock price", "get_stock_price", `get_stock_price("AAPL")`},
		{"what is the latest version of the requests package", "package_version", `package_version("requests")`},
		{"latest version of numpy on pypi", "package_version", `package_version("numpy")`},
		{"set the units of measurement to imperial", "set_units", `set_units("imperial")`},
		{"will it rain in Oslo tomorrow?", "WeatherSearch", `WeatherSearch("Oslo", "tomorrow")`},
	}
	for _, tt := range tests {
		r, err := gr.Ground(context.Background(), tt.query)
		if err != nil {
			t.Fatal(err)
		}
		if r.Choice.Tool != tt.tool || r.Choice.Call != tt.call {
			t.Errorf("%q: chose %s with %s (%.2f), want %s", tt.query, r.Choice.Tool, r.Choice.Call, r.Choice.Confidence, tt.call)
		}
	}
}
