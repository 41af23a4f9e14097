package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gear-chat/gear/cli"
)

// A chat server that echoes the API key in every field of its error (the
// message, type, param and code): the key reaches neither the terminal
// nor the history — its file, the search index, `history show/search` or
// `history export`.
func TestEchoedKeyReachesNoOutputAndNoHistory(t *testing.T) {
	t.Parallel()
	const key = "sk-DO-NOT-PRINT-4242-abcdef"
	echo := fmt.Sprintf(`{"error":{"message":"invalid request for key %[1]s","type":"%[1]s","param":"%[1]s","code":"%[1]s"}}`, key)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
			fmt.Fprint(w, `{"object":"list","data":[{"id":"m","object":"model","owned_by":"openai"}]}`)
		case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, echo)
		default:
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	body := fmt.Sprintf("models:\n  chat:\n    base_url: %s/v1\n    model: m\n    server: openai\n    api_key: %s\n", srv.URL, key)
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "gear.db")
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := cli.Run(context.Background(), append([]string{"--config", cfg, "--db", db}, args...), cli.Deps{
			Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return map[string]string{"HOME": dir}[k] },
			Now: askNow, HTTP: &http.Client{},
		})
		return code, stdout.String(), stderr.String()
	}
	code, out, errOut := run("ask", "tell me a joke about cats")
	if code == cli.ExitOK || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "invalid request for key") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want a failure in one line", code, out, errOut)
	}
	outputs := []string{out, errOut}
	for _, args := range [][]string{{"history", "show", "1"}, {"history", "export", "--all"}, {"history", "search", "invalid"}, {"history", "search", "--json", "request"}} {
		code, out, errOut := run(args...)
		if code != cli.ExitOK {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
		outputs = append(outputs, out, errOut)
	}
	if !strings.Contains(strings.Join(outputs, ""), "invalid request for key") {
		t.Error("the history does not hold the (masked) error at all")
	}
	for i, s := range outputs {
		if strings.Contains(s, "DO-NOT-PRINT") {
			t.Errorf("output %d shows the key: %q", i, s)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "gear.db") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte("DO-NOT-PRINT")) {
			t.Errorf("%s holds the key", e.Name())
		}
	}
}
