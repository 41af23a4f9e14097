package offline

import (
	"context"
	"math"
	"testing"
)

func cosine(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return d / math.Sqrt(na*nb)
}

func TestEmbedDeterministic(t *testing.T) {
	e := New(Options{Tools: builtinSpecs()})
	ctx := context.Background()
	one, err := e.Embed(ctx, []string{"will it rain in Oslo tomorrow?"})
	if err != nil {
		t.Fatal(err)
	}
	batch, err := e.Embed(ctx, []string{"what time is it", "will it rain in Oslo tomorrow?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(one[0]) != Dimensions {
		t.Fatalf("%d dimensions, want %d", len(one[0]), Dimensions)
	}
	for i := range one[0] {
		if one[0][i] != batch[1][i] {
			t.Fatal("a text's vector depends on the batch it came in")
		}
	}
	again, _ := New(Options{Tools: builtinSpecs()}).Embed(ctx, []string{"will it rain in Oslo tomorrow?"})
	for i := range one[0] {
		if one[0][i] != again[0][i] {
			t.Fatal("vectors differ between engines")
		}
	}
	empty, _ := e.Embed(ctx, []string{"the of and"})
	for _, x := range empty[0] {
		if x != 0 {
			t.Fatal("stop words alone should embed to zero")
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Embed(cancelled, []string{"x"}); err == nil {
		t.Error("a cancelled context was ignored")
	}
}

// TestEmbedMeaning checks what the thesaurus and the question forms are
// for: synonyms and question forms meet the descriptions that name them.
func TestEmbedMeaning(t *testing.T) {
	e := New(Options{Tools: builtinSpecs()})
	descriptions := map[string]string{
		"weather": "Looks up the weather in a place: temperature, rain, snow, wind and the forecast.",
		"clock":   "Tells the current time and the time zone of a place.",
		"calc":    "Answers questions that contain numbers and need arithmetic: addition, multiplication, percentages.",
		"wiki":    "Looks up facts about people, places, events and what words mean in an encyclopedia.",
	}
	tests := []struct{ query, want string }{
		{"will it be foggy in Dunedin?", "weather"},
		{"is it hotter in Lima than in Quito", "weather"},
		{"what time is it in Lima", "clock"},
		{"what is 13 times 57", "calc"},
		{"how many apples are left if I eat 3 of 10", "calc"},
		{"who sang the song good morning", "wiki"},
		{"what does churlish mean", "wiki"},
		// Frames: the clock asked without "time", a reference request, a
		// quiz clue, arithmetic in words of no arithmetic vocabulary.
		{"is it lunchtime in Rome yet", "clock"},
		{"wie spät ist es in Wien", "clock"},
		{"tell me about the Aztec empire", "wiki"},
		{"This Dutch painter cut off part of his own ear.", "wiki"},
		{"what's a third of 1,200", "calc"},
		{"how many seconds are there in a week", "calc"},
	}
	ctx := context.Background()
	vec := func(s string) []float32 { v, _ := e.Embed(ctx, []string{s}); return v[0] }
	for _, tt := range tests {
		q := vec(tt.query)
		best, bestSim := "", -1.0
		for name, d := range descriptions {
			if s := cosine(q, vec(d)); s > bestSim {
				best, bestSim = name, s
			}
		}
		if best != tt.want {
			t.Errorf("%q is closest to %s (%.3f), want %s", tt.query, best, bestSim, tt.want)
		}
	}
	// "Vacation time" is not the clock's time, nor a "due date" the calendar's.
	clock := vec(descriptions["clock"])
	if a, b := cosine(vec("what time is it"), clock), cosine(vec("my vacation time"), clock); !(a > 2*b) {
		t.Errorf("clock sense: %.3f vs %.3f", a, b)
	}
	// A request for an action shares no subject with the tools: "play
	// Stormy Weather" is a song, "dim the lights to 30 percent" a setting.
	weather, calc := vec(descriptions["weather"]), vec(descriptions["calc"])
	if a, b := cosine(vec("will there be a storm tonight"), weather), cosine(vec("play stormy weather"), weather); !(a > 3*b) {
		t.Errorf("command, weather: %.3f vs %.3f", a, b)
	}
	if a, b := cosine(vec("what is 30 percent of 80"), calc), cosine(vec("dim the lights to 30 percent"), calc); !(a > 3*b) {
		t.Errorf("command, arithmetic: %.3f vs %.3f", a, b)
	}
	// An idiom's weather word is not the weather's.
	if a, b := cosine(vec("is it rainy in Oslo"), weather), cosine(vec("I'm under the weather in Oslo"), weather); !(a > 2*b) {
		t.Errorf("idiom: %.3f vs %.3f", a, b)
	}
	// The same question about the user is further from a look-up tool.
	wiki := vec(descriptions["wiki"])
	if a, b := cosine(vec("who is the lead singer of the band"), wiki), cosine(vec("who is my bank manager"), wiki); !(a > b) {
		t.Errorf("personal: %.3f vs %.3f", a, b)
	}
}

func TestQuestionForm(t *testing.T) {
	tests := map[string]string{
		"who wrote Hamlet":                          askPerson,
		"can you tell me when the war ended":        askDate,
		"where is Timbuktu":                         askPlace,
		"what time is it":                           formTime,
		"what day is it":                            formDate,
		"in what year did it happen":                askDate,
		"A bus holds 52. If 310 go, how many buses": askAmount,
		"what does churlish mean":                   askDefinition,
		"define churlish":                           askDefinition,
		"what is the capital of Peru":               "",
		"why is the sky blue":                       "",
		"play some jazz":                            "",
	}
	for q, want := range tests {
		if got := testEngine().lex.questionForm(q, tokenize(q)); got != want {
			t.Errorf("%q: %q, want %q", q, got, want)
		}
	}
	facts := map[string]bool{
		"who wrote Hamlet": true, "can you tell me who wrote Hamlet": true, "how many moons has Mars": true,
		"who is my bank manager": false, "how do I reset it": false, "what is the best pizza": false, "play jazz": false,
	}
	for q, want := range facts {
		if got := testEngine().analyze(q).fact; got != want {
			t.Errorf("fact question %q: %v, want %v", q, got, want)
		}
	}
}
