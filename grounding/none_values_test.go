package grounding

import (
	"testing"

	"github.com/gear-chat/gear/tools"
)

func TestQueryValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query string
		want  int
	}{
		{"Find me a salon to go to.", 0},
		{"Can you arrange me a car on rent?", 0},
		{"Find me a salon in Berkeley", 1},
		{"compute 443 * 349", 2},
		{`Rename the file "old notes.txt" to 'new notes.txt'`, 2},
		{"Email bob@example.com the link https://example.com/a", 2},
		{"I want to fly to New York on 2024-05-01", 3},
		{"", 0},
	}
	for _, tt := range tests {
		if got := queryValues(tt.query); got != tt.want {
			t.Errorf("queryValues(%q) = %d, want %d", tt.query, got, tt.want)
		}
	}
}

func TestUnfedShare(t *testing.T) {
	t.Parallel()
	spec := tools.Spec{Params: []tools.Param{{Name: "city"}, {Name: "date"}, {Name: "count", Optional: true}}}
	if n := requiredParams(spec); n != 2 {
		t.Fatalf("requiredParams = %d, want 2", n)
	}
	for _, tt := range []struct {
		required, values int
		want             float64
	}{{2, 0, 2.0 / 3}, {2, 1, 1.0 / 3}, {2, 5, 0}, {0, 0, 0}, {7, 0, 1}} {
		if got := (NoneEvidence{Required: tt.required, Values: tt.values}).unfedShare(); got != tt.want {
			t.Errorf("required %d, values %d: unfed %v, want %v", tt.required, tt.values, got, tt.want)
		}
	}
}
