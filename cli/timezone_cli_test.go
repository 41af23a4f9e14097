package cli_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/cli"
)

// TestToolTimezone runs the "must show" time zone calls through
// the command line, with the clock injected.
func TestToolTimezone(t *testing.T) {
	t.Parallel()
	now := func() time.Time { return time.Date(2024, 7, 15, 12, 0, 0, 0, time.UTC) }
	tests := []struct {
		name   string
		args   []string
		env    map[string]string
		code   int
		stdout string // a part of the output
		stderr string // a part of the one-line error
	}{
		{"the paper's conversion", []string{"tool", `TimezoneConverter("2022-01-02 22:00:00", "Asia/Shanghai", "America/New_York")`},
			nil, cli.ExitOK, "2022-01-02 09:00:00 EST (UTC-05:00, America/New_York) = 2022-01-02 22:00:00 CST (UTC+08:00, Asia/Shanghai)\n", ""},
		{"an unknown place", []string{"tool", `CurrentTime("Narnia")`},
			nil, cli.ExitUsage, "", `gear: CurrentTime: unknown place "Narnia": write a city ("Boston"), a country, an IANA zone ("Asia/Shanghai"), a UTC offset`},
		// One might expect Atlantis to be unknown; GeoNames lists
		// Atlantis, Western Cape (67,000 people), and gear finds it.
		{"Atlantis is a town", []string{"tool", `CurrentTime("Atlantis")`},
			nil, cli.ExitOK, "2024-07-15 14:00:00 SAST (UTC+02:00, Africa/Johannesburg, Atlantis, South Africa), Monday\n", ""},
		{"a bad datetime", []string{"tool", `TimezoneConverter("2022-13-02 22:00", "UTC", "Tokyo")`},
			nil, cli.ExitUsage, "", "gear: TimezoneConverter: datetime \"2022-13-02 22:00\": month 13 does not exist; months are 01 to 12"},
		{"the home place", []string{"tool", `CurrentTime()`},
			map[string]string{"GEAR_HOME_PLACE": "Adelaide"}, cli.ExitOK, "2024-07-15 21:30:00 ACST (UTC+09:30, Australia/Adelaide, Adelaide, Australia), Monday\n", ""},
		{"an ambiguous abbreviation", []string{"tool", `TimezoneConverter("9am", "IST", "London")`},
			nil, cli.ExitOK, "2024-07-15 04:30:00 BST (UTC+01:00, Europe/London, London, United Kingdom) = 2024-07-15 09:00:00 IST (UTC+05:30)\nNote: IST is ambiguous: read as UTC+05:30", ""},
		{"JSON", []string{"tool", "--json", `CurrentTime("UTC+5:30")`},
			nil, cli.ExitOK, `"response": "2024-07-15 17:30:00 (UTC+05:30), Monday"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			getenv := func(k string) string { return tt.env[k] }
			code := cli.Run(context.Background(), tt.args, cli.Deps{Stdout: &stdout, Stderr: &stderr, Getenv: getenv, Now: now})
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.stdout) || tt.stdout == "" && stdout.Len() > 0 {
				t.Errorf("stdout %q, want %q", stdout.String(), tt.stdout)
			}
			errText := stderr.String()
			if tt.stderr == "" && errText != "" || !strings.Contains(errText, tt.stderr) {
				t.Errorf("stderr %q, want %q", errText, tt.stderr)
			}
			if strings.Count(errText, "\n") > 1 {
				t.Errorf("stderr is more than one line: %q", errText)
			}
		})
	}
}
