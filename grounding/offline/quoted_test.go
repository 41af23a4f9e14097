package offline

import "testing"

// TestRenderedInTarget: words quoted, or said, in a target value at the
// end of the sentence ask for the rendering; a target anywhere else
// does not.
func TestRenderedInTarget(t *testing.T) {
	t.Parallel()
	targets := map[string]bool{"italian": true, "english": true, "french": true, "haitian creole": true}
	tests := []struct {
		query string
		want  bool
	}{
		{`What's "fork" in Italian?`, true},
		{`what does "merci" mean in English`, true},
		{`“good night” to French`, true},
		{`«bonjour» in English please.`, false}, // "please" ends the sentence, not the target
		{"say good morning in Haitian Creole", true},
		{"how would I ask for the bill in French", true},
		{"answer in English", false},
		{"write an essay in English", false},
		{"say it in French, then tell me the weather in Paris", false},
		{`I watched "Amelie" last night. Is it any good?`, false},
		{`the "Italian" restaurant near me`, false},
	}
	for _, tt := range tests {
		if got := renderedInTarget(tt.query, tokenize(tt.query), targets); got != tt.want {
			t.Errorf("%q: %v, want %v", tt.query, got, tt.want)
		}
	}
	if renderedInTarget(`"fork" in Italian`, tokenize(`"fork" in Italian`), nil) {
		t.Error("no targets: nothing is rendered in one")
	}
}
