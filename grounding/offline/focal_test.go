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
