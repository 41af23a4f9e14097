package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestConfirmDeleteAll(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		yes, tty    bool
		input       string
		want        bool
		wantErr     string
		wantPrompts bool
	}{
		{"--yes", true, false, "", true, "", false},
		{"--yes on a terminal", true, true, "n\n", true, "", false},
		{"terminal, yes", false, true, "yes\n", true, "", true},
		{"terminal, Y", false, true, " Y \n", true, "", true},
		{"terminal, no", false, true, "n\n", false, "", true},
		{"terminal, enter", false, true, "\n", false, "", true},
		{"terminal, end of input", false, true, "", false, "", true},
		{"pipe", false, false, "y\n", false, "add --yes", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var prompt bytes.Buffer
			got, err := confirmDeleteAll(context.Background(), confirmation{yes: tt.yes, interactive: tt.tty, in: strings.NewReader(tt.input), prompt: &prompt, question: "Delete? [y/N] "})
			if got != tt.want {
				t.Errorf("confirmed = %v, want %v", got, tt.want)
			}
			if (err != nil) != (tt.wantErr != "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want %q", err, tt.wantErr)
			}
			if err != nil && exitCode(err) != ExitUsage {
				t.Errorf("exit code %d, want %d", exitCode(err), ExitUsage)
			}
			if (prompt.Len() > 0) != tt.wantPrompts {
				t.Errorf("prompt %q", prompt.String())
			}
		})
	}
}
