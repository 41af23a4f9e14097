package offline

import (
	"context"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// TestFocalStrings: a string parameter of a tool the engine has never
// seen takes the part of the query that is not the tool's own words.
func TestFocalStrings(t *testing.T) {
	e := testEngine()
	str := func(name, description, param, paramDescription string) tools.Spec {
		return tools.Spec{Name: name, Description: description,
			Params: []tools.Param{{Name: param, Type: tools.TypeString, Description: paramDescription}}}
	}
	repos := str("search_repositories", "Search for GitHub repositories", "query", "Search query")
	file := str("get_file_contents", "Get the contents of a file or directory", "path", "Path to the file or directory")
	echo := str("echo", "Echoes back the input", "message", "Message to echo")
	alerts := str("get_weather_alerts", "Get weather alerts for a US state", "state", "Two-letter US state code (e.g. CA, NY)")
	tests := []struct {
		spec        tools.Spec
		query, want string
	}{
		{repos, "search github for bubbletea", `search_repositories("bubbletea")`},
		{repos, "find repositories about terminal chat", `search_repositories("terminal chat")`},
		{file, "show me the contents of README.md", `get_file_contents("README.md")`},
		{file, "read the file /tmp/notes.txt", `get_file_contents("/tmp/notes.txt")`},
		{echo, "echo hello world", `echo("hello world")`},
		{alerts, "are there weather alerts in CA", `get_weather_alerts("CA")`},
		// A quoted text is the string as it is, once the query gives the
		// tool a string at all.
		{echo, `echo "hello there" please`, `echo("hello there")`},
		{specs()["WikiSearch"], `Who wrote “Don Quixote”?`, `WikiSearch("Don Quixote")`},
		{echo, `set an alarm called "wake up"`, ""},
		// A query about the user's own affairs, or one that names nothing
		// of the tool, gives no string.
		{repos, "i'm searching for a cheap flight to Lisbon", ""},
		{echo, "set an alarm for seven", ""},
	}
	for _, tt := range tests {
		got, err := e.Call(context.Background(), tt.spec, tt.query)
		if err != nil || got != tt.want {
			t.Errorf("%s for %q = %q, %v; want %q", tt.spec.Name, tt.query, got, err, tt.want)
		}
	}
}

// TestNumbersByName: a number next to a parameter's name goes to that
// parameter; the others are read in order.
func TestNumbersByName(t *testing.T) {
	e := testEngine()
	rect := tools.Spec{Name: "rectangle_area", Description: "Area of a rectangle", Params: []tools.Param{
		{Name: "height", Type: tools.TypeNumber}, {Name: "width", Type: tools.TypeNumber}}}
	search := tools.Spec{Name: "search_papers", Description: "Search papers", Params: []tools.Param{
		{Name: "year", Type: tools.TypeInteger}, {Name: "max_results", Type: tools.TypeInteger}}}
	add := tools.Spec{Name: "add_numbers", Description: "Adds two numbers", Params: []tools.Param{
		{Name: "a", Type: tools.TypeNumber}, {Name: "b", Type: tools.TypeNumber}}}
	tests := []struct {
		spec        tools.Spec
		query, want string
	}{
		{rect, "area of a rectangle of width 3 and height 4", "rectangle_area(4, 3)"},
		{rect, "rectangle with height: 2.5, width = 7", "rectangle_area(2.5, 7)"},
		{rect, "a 3 by 4 rectangle", "rectangle_area(3, 4)"},
		{search, "search papers from 2019, max results 5", "search_papers(2019, 5)"},
		{search, "show 10 results of papers from 2021", "search_papers(2021, 10)"},
		{add, "add the numbers 2 and 3", "add_numbers(2, 3)"},
		{add, "add b = 7 to a = 1", "add_numbers(1, 7)"},
	}
	for _, tt := range tests {
		got, err := e.Call(context.Background(), tt.spec, tt.query)
		if err != nil || got != tt.want {
			t.Errorf("%s for %q = %q, %v; want %q", tt.spec.Name, tt.query, got, err, tt.want)
		}
	}
}

func TestEnumValueTakesTheLongestNamed(t *testing.T) {
	values := []string{"small", "extra small", "high_priority", "low-priority"}
	p := tools.Param{Name: "size", Type: tools.TypeEnum, Enum: values}
	for _, tt := range []struct{ text, want string }{
		{"an extra small coffee", "extra small"},
		{"a small one", "small"},
		{"mark it high priority", "high_priority"},
		{"low-priority please", "low-priority"},
		{"low priority please", "low-priority"},
		{"smallish", ""},
	} {
		want := ""
		if tt.want != "" {
			want = tools.Quote(tt.want)
		}
		a := &analysis{}
		a.lower = tt.text
		if got, _ := enumValue(a, p, tools.ParamHint{}, map[string]bool{}); got != want {
			t.Errorf("enumValue(%q) = %s, want %s", tt.text, got, want)
		}
	}
}
