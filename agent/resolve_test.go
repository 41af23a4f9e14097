package agent

import (
	"slices"
	"strings"
	"testing"
)

// TestResolveToolByAlias: what people call a tool comes from its hints'
// aliases and names every tool of its family.
func TestResolveToolByAlias(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{lib: libOpts{converter: true}, noDB: true})
	tests := []struct {
		name string
		want []string
	}{
		{"maths", []string{"Calculator"}},
		{"Calculator", []string{"Calculator"}},
		{"clock", []string{"CurrentTime", "TimezoneConverter"}},
		{"time zones", []string{"CurrentTime", "TimezoneConverter"}},
		{"the forecast tool", nil},
		{"forecast tool", []string{"WeatherSearch"}},
		{"encyclopedia", []string{"WikiSearch"}},
		{"wiki", []string{"WikiSearch"}},
	}
	for _, tt := range tests {
		got, err := h.ag.ResolveTool(tt.name)
		if tt.want == nil {
			if err == nil || !strings.Contains(err.Error(), "no tool called") {
				t.Errorf("ResolveTool(%q) = %v, %v; want an error", tt.name, got, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ResolveTool(%q) = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}
