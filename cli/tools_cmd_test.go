package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/webget/webgettest"
)

func gear(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir + "/config", "XDG_DATA_HOME": dir + "/data"}
	code := cli.Run(context.Background(), args, cli.Deps{
		Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return env[k] },
		HTTP:   &http.Client{Transport: webgettest.Down("network is unreachable")},
	})
	return code, stdout.String(), stderr.String()
}

func TestToolsListsTheLibrary(t *testing.T) {
	t.Parallel()
	code, out, errOut := gear(t, "tools")
	if code != cli.ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, name := range []string{"Calculator", "CurrentTime", "TimezoneConverter", "WeatherSearch", "LocationSearch", "WikiSearch"} {
		if !strings.Contains(out, name+"(") {
			t.Errorf("gear tools does not list %s", name)
		}
	}
	for _, part := range []string{"Parameters:", "Examples:", "[calc]", "[timezone]", "[weather]", "[location]", "[wiki]", "place (place", "->", "Source: built-in · read-only"} {
		if !strings.Contains(out, part) {
			t.Errorf("gear tools output lacks %q", part)
		}
	}

	code, out, _ = gear(t, "tools", "--json")
	if code != cli.ExitOK {
		t.Fatalf("--json exit %d", code)
	}
	var specs []tools.Spec
	if err := json.Unmarshal([]byte(out), &specs); err != nil {
		t.Fatalf("gear tools --json is not a JSON list of specs: %v", err)
	}
	if len(specs) != 8 {
		t.Fatalf("%d specs", len(specs))
	}
	for _, s := range specs {
		if s.Description == "" || len(s.Examples) == 0 || s.Family == "" || !s.Source.IsBuiltin() || (s.Effect != tools.EffectReadOnly) != (s.Name == "ImageGeneration") {
			t.Errorf("%s: incomplete spec in JSON: %+v", s.Name, s)
		}
	}
}

// TestToolJSONIsOneObject: --json prints exactly one object with the five
// keys, on success and on failure alike.
func TestToolJSONIsOneObject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		call     string
		code     int
		response string
		errPart  string
	}{
		{"Calculator(6 * 7)", cli.ExitOK, "42", ""},
		{`TimezoneConverter(datetime: "2022-01-02 22:00:00", from_place: "Asia/Shanghai", to_place: "America/New_York")`, cli.ExitOK, "2022-01-02 09:00:00", ""},
		{`TimezoneConverter("2022-01-02 22:00:00", to_place: "UTC")`, cli.ExitUsage, "", "missing argument from_place"},
		{`TimezoneConverter("2022-01-02 22:00:00", "Asia/Shanghai", "America/New_York")`, cli.ExitOK, "2022-01-02 09:00:00", ""},
		{"Calculator(1/0)", cli.ExitUsage, "", "division by zero"},
		{"Calculator(", cli.ExitUsage, "", "at column 12"},
		{`WeatherSearch("Oslo")`, cli.ExitFailure, "", "unreachable"},
	}
	for _, tt := range tests {
		t.Run(tt.call, func(t *testing.T) {
			code, out, errOut := gear(t, "tool", "--json", tt.call)
			if code != tt.code {
				t.Fatalf("exit %d, want %d", code, tt.code)
			}
			if errOut != "" {
				t.Fatalf("--json wrote to stderr: %q", errOut)
			}
			dec := json.NewDecoder(strings.NewReader(out))
			var obj map[string]any
			if err := dec.Decode(&obj); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			if dec.More() {
				t.Fatalf("more than one JSON value:\n%s", out)
			}
			for _, k := range []string{"tool", "args", "response", "data", "error"} {
				if _, ok := obj[k]; !ok {
					t.Errorf("key %q missing: %v", k, obj)
				}
			}
			if !strings.Contains(obj["response"].(string), tt.response) {
				t.Errorf("response %q, want %q", obj["response"], tt.response)
			}
			if e := obj["error"].(string); tt.errPart == "" && e != "" || !strings.Contains(e, tt.errPart) {
				t.Errorf("error %q, want %q", e, tt.errPart)
			}
		})
	}
}

// TestBadCallsExitTwoWithOneLine is the list of bad calls.
func TestBadCallsExitTwoWithOneLine(t *testing.T) {
	t.Parallel()
	tests := []struct{ call, want string }{
		{"Calculator(", "gear: cannot parse the call: at column 12: empty expression"},
		{"NoSuchTool(1)", `gear: unknown tool "NoSuchTool"`},
		{`CurrentTime("Narnia")`, `unknown place "Narnia"`},
		{"WeatherSearch()", "missing argument place"},
		{`TimezoneConverter("Feb 30 2022 10:00PM", "UTC", "UTC")`, "TimezoneConverter"},
	}
	for _, tt := range tests {
		t.Run(tt.call, func(t *testing.T) {
			code, out, errOut := gear(t, "tool", tt.call)
			if code != cli.ExitUsage {
				t.Fatalf("exit %d, want 2 (stderr %q)", code, errOut)
			}
			if out != "" {
				t.Fatalf("stdout %q", out)
			}
			if !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 || strings.Contains(errOut, "goroutine") {
				t.Fatalf("stderr %q, want one line with %q", errOut, tt.want)
			}
		})
	}
}

func TestCommandLineUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		code int
		out  string // part of stdout
		err  string // part of stderr
	}{
		{nil, cli.ExitOK, "Chat:", ""},
		{[]string{"version"}, cli.ExitOK, "gear " + cli.Version, ""},
		{[]string{"version"}, cli.ExitOK, "GeoNames", ""},
		{[]string{"frobnicate"}, cli.ExitUsage, "", "unknown command"},
		{[]string{"--nope"}, cli.ExitUsage, "", "unknown flag: --nope"},
		{[]string{"tool"}, cli.ExitUsage, "", "takes one call"},
		{[]string{"tool", "a", "b"}, cli.ExitUsage, "", "quote it"},
		{[]string{"tools", "extra"}, cli.ExitUsage, "", "unknown command"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := gear(t, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Fatalf("exit %d stdout %q stderr %q", code, out, errOut)
			}
			if strings.Count(errOut, "\n") > 1 {
				t.Fatalf("stderr is more than one line: %q", errOut)
			}
		})
	}
}
