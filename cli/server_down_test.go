package cli_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gear-chat/gear/cli"
)

// A model server that is down, or refuses the key,
// is said once, in one line, and what works offline still answers.
func TestServerDownFallsBackToTheOfflineEngine(t *testing.T) {
	t.Parallel()
	refused, err := os.ReadFile(filepath.Join("testdata", "ask", "error_401_invalid_api_key.json"))
	if err != nil {
		t.Fatal(err)
	}
	// An unauthorised server answers the check with OpenAI's 401 body and
	// must not be asked anything else.
	var checks atomic.Int32
	unauthorised := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		checks.Add(1)
		if r.Method != http.MethodGet || r.URL.Path != "/v1/models" {
			t.Errorf("unexpected request %s %s after the key was refused", r.Method, r.URL.Path)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write(refused)
	}))
	t.Cleanup(unauthorised.Close)
	// A server that is gone: its port refuses connections.
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()

	tests := []struct {
		name, url, says string
	}{
		{"unreachable", gone.URL + "/v1", "server unreachable"},
		{"unauthorised", unauthorised.URL + "/v1", "API key rejected (HTTP 401)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"OPENAI_BASE_URL": tt.url, "OPENAI_API_KEY": "sk-test-not-a-key"}
			var stdout, stderr bytes.Buffer
			code := cli.Run(context.Background(), []string{"--db", filepath.Join(t.TempDir(), "gear.db"), "ask", "what is 17 * 23"}, cli.Deps{
				Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }, Now: askNow, HTTP: &http.Client{},
			})
			if code != cli.ExitOK || !strings.HasPrefix(stdout.String(), "391\n") {
				t.Fatalf("exit %d, stdout %q, stderr %q: the calculator should still answer", code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), "grounding: offline engine") {
				t.Errorf("the badge should name the engine that grounded: %q", stdout.String())
			}
			// The offline engine that stood in says how sure it is of the call.
			if !strings.Contains(stdout.String(), " · call ") {
				t.Errorf("the badge should carry the offline engine's call confidence: %q", stdout.String())
			}
			var warnings []string
			for _, line := range strings.Split(stderr.String(), "\n") {
				if strings.HasPrefix(line, "warning: ") {
					warnings = append(warnings, line)
				}
			}
			if len(warnings) != 1 || !strings.Contains(warnings[0], tt.says) || !strings.Contains(warnings[0], "(chat, grounding, embedding)") ||
				!strings.Contains(warnings[0], "calculator, clock and time zones still work") {
				t.Errorf("want one warning line saying %q for all three roles, got %q", tt.says, stderr.String())
			}
			if tt.name == "unauthorised" && checks.Load() != 1 {
				t.Errorf("the server of three roles was checked %d times, want once", checks.Load())
			}
			if strings.Contains(stderr.String(), "sk-test-not-a-key") {
				t.Error("the key was printed")
			}
			for _, prefix := range []string{"grounding: grounding:", "gear: gear:", "warning: warning:"} {
				if strings.Contains(stderr.String(), prefix) {
					t.Errorf("a repeated prefix %q in %q", prefix, stderr.String())
				}
			}
		})
	}
}

// Models picked up from the environment are announced
// once per history.
func TestEnvironmentModelsAnnouncedOnce(t *testing.T) {
	t.Parallel()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	env := map[string]string{"OPENAI_BASE_URL": gone.URL + "/v1"}
	db := filepath.Join(t.TempDir(), "gear.db")
	ask := func() string {
		var stdout, stderr bytes.Buffer
		code := cli.Run(context.Background(), []string{"--db", db, "ask", "what is 17 * 23"}, cli.Deps{
			Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }, Now: askNow, HTTP: &http.Client{},
		})
		if code != cli.ExitOK || !strings.HasPrefix(stdout.String(), "391\n") {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
		}
		return stderr.String()
	}
	want := "note: using the server at " + gone.URL + "/v1 for chat, grounding and embeddings (OPENAI_BASE_URL is set)"
	if first := ask(); !strings.Contains(first, want) {
		t.Errorf("first run: %q lacks %q", first, want)
	}
	if second := ask(); strings.Contains(second, "note: using") {
		t.Errorf("announced again: %q", second)
	}
}
