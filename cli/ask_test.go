package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/cli"
)

// askNow is the clock of the ask tests: 2026-03-14 15:09:26 UTC.
func askNow() time.Time { return time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC) }

// runAsk runs gear with a fresh history database and no network.
func runAsk(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	return runAskHTTP(t, &http.Client{Transport: noNetwork{t}}, env, args...)
}

func runAskHTTP(t *testing.T, hc *http.Client, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "gear.db")
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), append([]string{"--db", db}, args...), cli.Deps{
		Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }, Now: askNow, HTTP: hc,
	})
	return code, stdout.String(), stderr.String()
}

// onlyHost lets requests reach one test server and fails the test on any
// other.
type onlyHost struct {
	t    *testing.T
	host string
}

func (o onlyHost) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != o.host {
		return noNetwork{o.t}.RoundTrip(r)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// The must-shows, offline: the calculator and the clock answer
// with tool and confidence; a joke is declined honestly — and, unanswered,
// exits 1 (the one rule: a turn answered when a model or a tool wrote its
// answer).
func TestAskOfflineMustShow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		stdout  []string
		without []string
		code    int
	}{
		{"calculator", []string{"ask", "--offline", "what is 48 multiplied by 4 divided by 2"},
			[]string{"96\n", "— Calculator(48 * 4 / 2) → 96 · ", "% · grounding: offline engine"}, nil, cli.ExitOK},
		{"time in Tokyo", []string{"ask", "--offline", "--direct", "what time is it in Tokyo"},
			[]string{"2026-03-15 00:09:26 JST (UTC+09:00, Asia/Tokyo, Tokyo, Japan), Sunday\n", "— CurrentTime(\"Tokyo\") → 2026-03-15 00:09:26 JST", " · tool "}, nil, cli.ExitOK},
		{"a joke needs a model", []string{"ask", "--offline", "tell me a joke"},
			[]string{"gear needs a chat model for conversation — `gear setup` connects one."},
			[]string{"Why did", "\n— "}, cli.ExitFailure},
		{"an exact call", []string{"ask", "--offline", "/GEAR Calculator(86 - 48 - 9)"},
			[]string{"29\n— Calculator(86 - 48 - 9) → 29 · exact call\n"}, nil, cli.ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runAsk(t, nil, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d, stderr %q", code, tt.code, stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout %q lacks %q", stdout, s)
				}
			}
			for _, s := range tt.without {
				if strings.Contains(stdout, s) {
					t.Errorf("stdout %q holds %q", stdout, s)
				}
			}
		})
	}
}

// --json prints the whole turn record.
func TestAskJSON(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runAsk(t, nil, "ask", "--offline", "--json", "what is 48 multiplied by 4 divided by 2")
	if code != cli.ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var rec struct {
		Status    string              `json:"status"`
		Mode      string              `json:"mode"`
		Route     struct{ By string } `json:"route"`
		Grounding struct {
			Engine string `json:"engine"`
			Tools  []struct {
				Tool    string  `json:"tool"`
				S, P, F float64 `json:"-"`
			} `json:"tools"`
		} `json:"grounding"`
		Tool       string                          `json:"tool"`
		Confidence float64                         `json:"confidence"`
		Emission   struct{ Path string }           `json:"emission"`
		Call       struct{ Call, Response string } `json:"call"`
		Answer     string                          `json:"answer"`
		Timings    map[string]float64              `json:"timings"`
		Usage      []struct {
			Role  string `json:"role"`
			Calls int    `json:"calls"`
		} `json:"usage"`
		ModelCalls []any `json:"model_calls"`
	}
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatalf("stdout is not one JSON record: %v\n%s", err, stdout)
	}
	if rec.Status != "done" || rec.Mode != "chat" || rec.Tool != "Calculator" || rec.Answer != "96" ||
		rec.Call.Call != "Calculator(48 * 4 / 2)" || rec.Call.Response != "96" || rec.Emission.Path != "offline" ||
		rec.Grounding.Engine != "offline" || len(rec.Grounding.Tools) != 8 || rec.Route.By != "threshold" ||
		rec.Confidence < 0.5 || rec.Timings["total_ms"] <= 0 || len(rec.Usage) != 3 || rec.ModelCalls == nil {
		t.Errorf("record %+v", rec)
	}
	for _, key := range []string{"route_ms", "ground_ms", "emit_ms", "tool_ms", "answer_ms", "total_ms"} {
		if _, ok := rec.Timings[key]; !ok {
			t.Errorf("timings lack %s", key)
		}
	}
}

// Usage errors exit 2 with one line; a tool's own input error is the
// answer.
func TestAskUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args   []string
		code   int
		stderr string
		stdout string
	}{
		{[]string{"ask"}, cli.ExitUsage, "nothing to ask", ""},
		{[]string{"ask", "--direct", "--baseline", "x"}, cli.ExitUsage, "--direct and --baseline cannot be used together", ""},
		{[]string{"ask", "--chat", "--direct", "x"}, cli.ExitUsage, "--chat and --direct cannot be used together", ""},
		{[]string{"ask", "--baseline", "--chat", "x"}, cli.ExitUsage, "--chat and --baseline cannot be used together", ""},
		{[]string{"ask", "--chat", "--direct", "--baseline", "x"}, cli.ExitUsage, "--chat, --direct and --baseline cannot be used together", ""},
		{[]string{"ask", "--offline", "use wiki instead"}, cli.ExitUsage, "switches the tool of an earlier turn", ""},
		{[]string{"ask", "--offline", "/tools"}, cli.ExitUsage, "/tools is a chat window command", ""},
		{[]string{"ask", "--offline", "/GEAR Calculator(48 * )"}, cli.ExitUsage, "gear: the call was not run: at column", ""},
		{[]string{"ask", "--offline", `/GEAR WikiSerch("Ghana")`}, cli.ExitUsage, `did you mean WikiSearch`, ""},
		{[]string{"ask", "--offline", "/GEAR Calculator(1/0)"}, cli.ExitOK, "", "Calculator could not answer: division by zero"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runAsk(t, nil, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) || strings.Count(stderr, "\n") > 1 {
				t.Errorf("stderr %q, want one line with %q", stderr, tt.stderr)
			}
			if !strings.Contains(stdout, tt.stdout) {
				t.Errorf("stdout %q, want %q", stdout, tt.stdout)
			}
		})
	}
}

// During a study's baseline phase gear ask answers in baseline mode unless
// a mode is named; --chat forces chat mode; the gear phase is chat again.
func TestAskStudyPhaseSetsTheDefaultMode(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "gear.db")
	gear := func(args ...string) (int, string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := cli.Run(context.Background(), append([]string{"--db", db}, args...), cli.Deps{
			Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: askNow,
			HTTP: &http.Client{Transport: noNetwork{t}},
		})
		return code, stdout.String(), stderr.String()
	}
	const query = "what is 48 multiplied by 4 divided by 2"
	steps := []struct {
		phase string // gear study start --phase, before asking
		flags []string
		mode  string
		tool  string
	}{
		{"", nil, "chat", "Calculator"},
		{"baseline", nil, "baseline", ""},
		{"", []string{"--chat"}, "chat", "Calculator"},
		{"", []string{"--direct"}, "direct", "Calculator"},
		{"", []string{"--baseline"}, "baseline", ""},
		{"gear", nil, "chat", "Calculator"},
	}
	for _, st := range steps {
		if st.phase != "" {
			// The baseline phase needs a chat model configured (not asked
			// here: the asks run --offline).
			if code, _, stderr := gear("--chat-model", "m", "--chat-url", "http://127.0.0.1:9/v1", "study", "start", "--phase", st.phase); code != cli.ExitOK {
				t.Fatalf("study start --phase %s: exit %d, %s", st.phase, code, stderr)
			}
		}
		args := append(append([]string{"ask", "--offline", "--json"}, st.flags...), query)
		code, stdout, stderr := gear(args...)
		// Offline, baseline mode has no model to answer: exit 1, the
		// record still printed.
		if want := map[bool]int{true: cli.ExitFailure, false: cli.ExitOK}[st.mode == "baseline"]; code != want {
			t.Fatalf("%v: exit %d, want %d, %s", args, code, want, stderr)
		}
		var rec struct{ Mode, Tool string }
		if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stdout)
		}
		if rec.Mode != st.mode || rec.Tool != st.tool {
			t.Errorf("after phase %q, gear %v: mode %q, tool %q; want %q, %q", st.phase, args, rec.Mode, rec.Tool, st.mode, st.tool)
		}
	}
}

// Below agent.confirm_below gear ask does not run the tool unless --yes.
func TestAskConfirmBelow(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("agent:\n  confirm_below: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runAsk(t, nil, "--config", cfg, "ask", "--offline", "what is 17 * 23")
	if code != cli.ExitFailure || !strings.Contains(stderr, "note: grounding is only") || !strings.Contains(stderr, "--yes") ||
		strings.Contains(stdout, "391") {
		t.Errorf("without --yes: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = runAsk(t, nil, "--config", cfg, "ask", "--offline", "--yes", "what is 17 * 23")
	if code != cli.ExitOK || !strings.HasPrefix(stdout, "391\n— Calculator") {
		t.Errorf("with --yes: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// With a chat model configured (here a local server speaking the OpenAI
// wire format), gear ask emits the call under the JSON schema, runs it and
// streams the model's answer.
func TestAskWithChatModel(t *testing.T) {
	t.Parallel()
	srv := cli.ScriptedChatServer(t, "The Calculator says 96 ", "(grounding was 93% sure).")
	env := map[string]string{"GEAR_CHAT_MODEL": "test-model", "GEAR_CHAT_BASE_URL": srv.URL + "/v1", "GEAR_CHAT_SERVER": "openai"}
	hc := &http.Client{Transport: onlyHost{t, strings.TrimPrefix(srv.URL, "http://")}}
	code, stdout, stderr := runAskHTTP(t, hc, env, "ask", "what is 48 multiplied by 4 divided by 2")
	if code != cli.ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	want := "The Calculator says 96 (grounding was 93% sure).\n— Calculator(48 * 4 / 2) → 96 · "
	if !strings.HasPrefix(stdout, want) || !strings.Contains(stdout, "call guided") || stderr != "" {
		t.Errorf("stdout %q (want it to start %q), stderr %q", stdout, want, stderr)
	}
	code, stdout, _ = runAskHTTP(t, hc, env, "ask", "--json", "what is 48 multiplied by 4 divided by 2")
	var rec struct {
		Usage []struct {
			Role  string `json:"role"`
			Calls int    `json:"calls"`
		} `json:"usage"`
		Emission struct{ Path string } `json:"emission"`
	}
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil || code != cli.ExitOK {
		t.Fatalf("exit %d, %v", code, err)
	}
	if rec.Emission.Path != "guided" || rec.Usage[0].Role != "chat" || rec.Usage[0].Calls < 2 {
		t.Errorf("record %+v", rec)
	}
}

// The modes are declared mutually exclusive with cobra, so shell
// completion stops offering the others once one is typed.
func TestAskModeFlagsAreExclusiveForCompletion(t *testing.T) {
	t.Parallel()
	code, out, _ := runGear(t, nil, "", "__complete", "ask", "--direct", "--")
	if code != cli.ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, flag := range []string{"--chat", "--baseline"} {
		if strings.Contains(out, flag+"\n") || strings.Contains(out, flag+"\t") {
			t.Errorf("completion after --direct still offers %s:\n%s", flag, out)
		}
	}
	if !strings.Contains(out, "--yes") {
		t.Errorf("completion lost the other flags:\n%s", out)
	}
}
