package cli_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gear-chat/gear/cli"
)

// TestToolCalculator runs the "must show" calculator calls
// through the command line.
func TestToolCalculator(t *testing.T) {
	t.Parallel()
	tests := []struct {
		call   string
		code   int
		stdout string
		stderr string // a part of the one-line error
	}{
		{"Calculator(( 76.0 - 25.0 ))", cli.ExitOK, "51\n", ""},
		{"Calculator(2^100)", cli.ExitOK, "1267650600228229401496703205376\n", ""},
		{"Calculator(9^9^9)", cli.ExitUsage, "", "gear: Calculator: result too large: 9 ^ 387420489 has about 369,693,100 digits (limit 10,000)"},
		{"Calculator(1/0)", cli.ExitUsage, "", "gear: Calculator: division by zero: 1 / 0"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := cli.Run(context.Background(), []string{"tool", tt.call}, cli.Deps{Stdout: &stdout, Stderr: &stderr})
		if code != tt.code {
			t.Errorf("gear tool %q: exit %d, want %d (stderr %q)", tt.call, code, tt.code, stderr.String())
		}
		if stdout.String() != tt.stdout {
			t.Errorf("gear tool %q: stdout %q, want %q", tt.call, stdout.String(), tt.stdout)
		}
		errText := stderr.String()
		if tt.stderr == "" && errText != "" || !strings.Contains(errText, tt.stderr) {
			t.Errorf("gear tool %q: stderr %q, want %q", tt.call, errText, tt.stderr)
		}
		if strings.Count(errText, "\n") > 1 {
			t.Errorf("gear tool %q: stderr is more than one line: %q", tt.call, errText)
		}
	}
}
