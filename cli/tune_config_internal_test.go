package cli

import (
	"strings"
	"testing"
)

// TestSetGroundingValues edits config files of every shape: the values
// land under grounding:, everything else stays.
func TestSetGroundingValues(t *testing.T) {
	t.Parallel()
	values := []keyValue{{"gamma", 1}, {"threshold", 0.29}}
	for _, tt := range []struct {
		name, in string
		want     []string
		err      string
	}{
		{"empty file", "", []string{"grounding:\n  gamma: 1.0\n  threshold: 0.29\n"}, ""},
		{"no grounding section", "# mine\nhome: Oslo\n", []string{"# mine\nhome: Oslo\ngrounding:\n  gamma: 1.0\n  threshold: 0.29\n"}, ""},
		{"empty grounding section", "grounding:\nagent:\n  confirm_below: 0.4\n", []string{"grounding:\n  gamma: 1.0\n", "agent:\n  confirm_below: 0.4"}, ""},
		{"values replaced in place", "grounding:\n  gamma: 0.75 # the paper's\n  lambda: 1\n", []string{"gamma: 1.0 # the paper's\n  lambda: 1\n  threshold: 0.29\n"}, ""},
		{"a list is not settings", "- a\n- b\n", nil, "not a YAML mapping"},
		{"broken YAML", "grounding: [\n", nil, "not valid YAML"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := setGroundingValues([]byte(tt.in), values)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
