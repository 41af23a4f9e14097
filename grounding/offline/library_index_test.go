package offline

import (
	"slices"
	"testing"

	"github.com/gear-chat/gear/tools"
)

func TestSplitWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"getWeatherForecast", []string{"get", "weather", "forecast"}},
		{"HTTPServer_status", []string{"http", "server", "status"}},
		{"capacitance_calculator.calculate", []string{"capacitance", "calculator", "calculate"}},
		{"the user's PDF files, v2", []string{"the", "user", "pdf", "files", "v2"}},
		{"Movies_1_FindMovies", []string{"movies", "1", "find", "movies"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := splitWords(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func indexSpec(name, desc string, examples ...string) tools.Spec {
	s := tools.Spec{Name: name, Family: tools.Family(name), Description: desc}
	for _, e := range examples {
		s.Examples = append(s.Examples, tools.Example{Query: e})
	}
	return s
}

// TestRelevanceWeighsRareWords: every tool says "get information"; the
// word only one tool has decides, and the examples carry the words users
// use that the card lacks.
func TestRelevanceWeighsRareWords(t *testing.T) {
	t.Parallel()
	e := New(Options{})
	specs := []tools.Spec{
		indexSpec("get_stock_quote", "Get information about a stock quote"),
		indexSpec("get_flight_status", "Get information about a flight's status", "is my plane from Oslo late?"),
		indexSpec("get_recipe", "Get information about a recipe"),
	}
	scores := e.IndexTools(specs)
	best := func(q string) string {
		r := scores.Relevance(q)
		i := 0
		for j, s := range r.Scores {
			if s > r.Scores[i] {
				i = j
			}
		}
		return specs[i].Name
	}
	for q, want := range map[string]string{
		"get me information about the AAPL stock": "get_stock_quote",
		"is the plane to Rome late":               "get_flight_status",
		"a recipe for pancakes please":            "get_recipe",
		"stokc quote for MSFT":                    "get_stock_quote", // trigrams meet the typo
	} {
		if got := best(q); got != want {
			t.Errorf("%q: best %s, want %s (%v)", q, got, want, scores.Relevance(q).Scores)
		}
	}
	r := scores.Relevance("recipe")
	if r.Explained[2] != 1 || r.Explained[0] != 0 {
		t.Errorf("explained = %v, want 1 for the recipe tool and 0 for the stock tool", r.Explained)
	}
	for i, s := range r.Scores {
		if s < 0 || s > 1 {
			t.Errorf("score %d = %v, want in [0, 1]", i, s)
		}
	}
}

// TestRelevanceLeavesKnownTools: a tool whose subjects the engine knows
// from its hints keeps the encoder's cosine (score -1).
func TestRelevanceLeavesKnownTools(t *testing.T) {
	t.Parallel()
	known := indexSpec("forecast", "Weather forecasts")
	known.Hints = tools.Hints{Subjects: []tools.Subject{{Name: "weather", Answer: tools.AnswerWeather, Words: []string{"rain"}}}}
	specs := []tools.Spec{known, indexSpec("stock", "Stock quotes")}
	r := New(Options{Tools: specs}).IndexTools(specs).Relevance("will it rain")
	if r.Scores[0] != -1 || r.Scores[1] < 0 {
		t.Errorf("scores = %v, want -1 for the known tool and a relevance for the other", r.Scores)
	}
}

// TestRelevanceIsDeterministic: the same query scores the same, run after
// run (no map order in the sums).
func TestRelevanceIsDeterministic(t *testing.T) {
	t.Parallel()
	e := New(Options{})
	specs := []tools.Spec{indexSpec("a_b", "alpha beta gamma delta", "alpha query"), indexSpec("c_d", "gamma delta epsilon zeta")}
	first := e.IndexTools(specs).Relevance("alpha gamma zeta epsilon")
	for range 20 {
		if got := e.IndexTools(specs).Relevance("alpha gamma zeta epsilon"); !slices.Equal(got.Scores, first.Scores) {
			t.Fatalf("scores changed: %v then %v", first.Scores, got.Scores)
		}
	}
}

func TestAboutText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`read the text file "/tmp/TestServer/shared/notes.txt"`, "read the text file"},
		{`Train a model using the "Wine Quality" dataset.`, `Train a model using the "Wine Quality" dataset.`},
		{"fetch https://example.com/a/b and summarise", "fetch and summarise"},
		{"open /var/log/syslog", "open"},
		{`"hello kestrel"`, `"hello kestrel"`},
		{"convert 3/4 cup to ml", "convert 3/4 cup to ml"},
	}
	for _, tt := range tests {
		if got := aboutText(tt.in); got != tt.want {
			t.Errorf("aboutText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
