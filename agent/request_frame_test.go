package agent

import "testing"

// The frames are English's, not any tool's: the cases below mix subjects
// no built-in tool has (trains, recipes, contacts) with ones some have,
// and conversation that asks nothing.
func TestLooksLikeInformationRequest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query string
		want  bool
	}{
		// wh-questions, with or without the mark, in spoken style
		{"what's the population of lagos", true},
		{"whats the date", true},
		{"How many legs does a spider have?", true},
		{"when does the last train to Leeds leave", true},
		{"where is my sister's birthday party", true},
		// yes/no questions about the world
		{"is it going to rain tomorrow", true},
		{"did the match start yet", true},
		{"should i take a coat today", true},
		{"Is the museum still open", true},
		// imperatives of asking
		{"list the planets by size", true},
		{"show me the recipe for pancakes", true},
		{"give me all the moons of jupiter", true},
		{"please tell me the time in lima", true},
		{"convert 5 feet 10 inches to cm", true},
		{"can you look up the song that is playing", true},
		{"could you find flights to Oslo", true},
		{"do you know the capital of peru", true},
		{"i want to know how tall everest is", true},
		{"hey, what's 3x4", true},
		// a fragment that ends in a question mark
		{"the tallest building in europe?", true},
		// conversation: about the assistant, statements, greetings, one word
		{"how are you", false},
		{"what's your name?", false},
		{"are you a robot", false},
		{"can you write me a poem", false},
		{"do you like jazz", false},
		{"i love rainy days", false},
		{"thanks, that was great", false},
		{"hello", false},
		{"why?", false},
		{"", false},
		{"write a haiku about autumn", false},
	} {
		if got := looksLikeInformationRequest(tc.query); got != tc.want {
			t.Errorf("looksLikeInformationRequest(%q) = %v, want %v", tc.query, got, tc.want)
		}
	}
}

func FuzzLooksLikeInformationRequest(f *testing.F) {
	for _, s := range []string{"what is 2+2", "   ", "?", "’’ can you", "list\x00the", "how are you?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		looksLikeInformationRequest(q) // must not panic
	})
}
