package agent

import (
	"testing"

	"github.com/gear-chat/gear/store"
)

var testToolNames = []string{"Calculator", "CurrentTime", "LocationSearch", "TimezoneConverter", "WeatherSearch", "WikiSearch"}

func TestParseInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		mode store.Mode
		want Input
	}{
		{"plain query is chat", "what is 2 + 2", "", Input{Kind: InputQuery, Mode: store.ModeChat, Query: "what is 2 + 2"}},
		{"plain query in the UI's mode", "what is 2 + 2", store.ModeBaseline, Input{Kind: InputQuery, Mode: store.ModeBaseline, Query: "what is 2 + 2"}},
		{"blank", "   \t", "", Input{Kind: InputEmpty, Mode: store.ModeChat}},
		{"/GEAR query", "/GEAR what time is it in Tokyo", "", Input{Kind: InputQuery, Mode: store.ModeDirect, Query: "what time is it in Tokyo"}},
		{"/gear any case", "/gear  weather in Oslo ", store.ModeBaseline, Input{Kind: InputQuery, Mode: store.ModeDirect, Query: "weather in Oslo"}},
		{"/GEAR exact call", `/GEAR Calculator(86 - 48 - 9)`, "", Input{Kind: InputCall, Mode: store.ModeDirect, Call: "Calculator(86 - 48 - 9)"}},
		{"/GEAR call any case", `/GEAR wikisearch("Ghana flag")`, "", Input{Kind: InputCall, Mode: store.ModeDirect, Call: `wikisearch("Ghana flag")`}},
		{"/GEAR mistyped CamelCase call", `/GEAR WikiSerch("Ghana")`, "", Input{Kind: InputCall, Mode: store.ModeDirect, Call: `WikiSerch("Ghana")`}},
		{"/GEAR JSON call", `/GEAR {"tool": "Calculator", "args": {"expression": "1+1"}}`, "", Input{Kind: InputCall, Mode: store.ModeDirect, Call: `{"tool": "Calculator", "args": {"expression": "1+1"}}`}},
		{"/GEAR function in a query", "/GEAR sqrt(16)", "", Input{Kind: InputQuery, Mode: store.ModeDirect, Query: "sqrt(16)"}},
		{"/GEAR alone", "/GEAR", "", Input{Kind: InputEmpty, Mode: store.ModeDirect}},
		{"a call in direct mode", "Calculator(2 + 2)", store.ModeDirect, Input{Kind: InputCall, Mode: store.ModeDirect, Call: "Calculator(2 + 2)"}},
		{"a call in chat mode is a query", "Calculator(2 + 2)", store.ModeChat, Input{Kind: InputQuery, Mode: store.ModeChat, Query: "Calculator(2 + 2)"}},
		{"/GEARS is not the prefix", "/GEARS x", "", Input{Kind: InputCommand, Command: "gears", Args: "x"}},
		{"@TallChatBot", "@TallChatBot tell me about Ghana", store.ModeDirect, Input{Kind: InputQuery, Mode: store.ModeChat, Query: "tell me about Ghana"}},
		{"@tallchatbot any case", "@tallchatbot hi", "", Input{Kind: InputQuery, Mode: store.ModeChat, Query: "hi"}},
		{"/use name", "/use WikiSearch", "", Input{Kind: InputSwitch, Mode: store.ModeChat, Tool: "WikiSearch"}},
		{"/use alias", "/use wiki", store.ModeDirect, Input{Kind: InputSwitch, Mode: store.ModeDirect, Tool: "wiki"}},
		{"/use alone", "/use", "", Input{Kind: InputCommand, Command: "use"}},
		{"use X instead", "use wiki instead", "", Input{Kind: InputSwitch, Mode: store.ModeChat, Tool: "wiki"}},
		{"no, try the X tool instead", "No, try the calculator tool instead.", "", Input{Kind: InputSwitch, Mode: store.ModeChat, Tool: "calculator"}},
		{"switch to X instead please", "please switch to WeatherSearch instead please", "", Input{Kind: InputSwitch, Mode: store.ModeChat, Tool: "WeatherSearch"}},
		{"use in a real question", "how do I use git rebase", "", Input{Kind: InputQuery, Mode: store.ModeChat, Query: "how do I use git rebase"}},
		{"instead in a question", "should I use butter instead of oil in this cake recipe?", "", Input{Kind: InputQuery, Mode: store.ModeChat, Query: "should I use butter instead of oil in this cake recipe?"}},
		{"UI command", "/mode direct", "", Input{Kind: InputCommand, Command: "mode", Args: "direct"}},
		{"UI command any case", "/Tools", "", Input{Kind: InputCommand, Command: "tools"}},
		{"a path is a query", "/usr/bin/env is what?", "", Input{Kind: InputQuery, Mode: store.ModeChat, Query: "/usr/bin/env is what?"}},
		{"a fraction is a query", "/2 of 10", "", Input{Kind: InputQuery, Mode: store.ModeChat, Query: "/2 of 10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseInput(tt.text, tt.mode, testToolNames)
			if got != tt.want {
				t.Errorf("ParseInput(%q, %q) = %+v, want %+v", tt.text, tt.mode, got, tt.want)
			}
		})
	}
}

func FuzzParseInput(f *testing.F) {
	for _, s := range []string{"/GEAR Calculator(1+1)", "@TallChatBot hi", "use wiki instead", "/use x", "/", "/GEAR", "é/GEAR"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		in := ParseInput(text, "", testToolNames)
		switch in.Kind {
		case InputQuery:
			if in.Query == "" {
				t.Fatalf("%q: a query with no text", text)
			}
			if _, ok := store.ParseMode(string(in.Mode)); !ok {
				t.Fatalf("%q: mode %q", text, in.Mode)
			}
		case InputCall:
			if in.Call == "" || in.Mode != store.ModeDirect {
				t.Fatalf("%q: bad call input %+v", text, in)
			}
		case InputSwitch:
			if in.Tool == "" {
				t.Fatalf("%q: a switch with no tool", text)
			}
		}
	})
}
