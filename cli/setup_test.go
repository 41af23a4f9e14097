package cli_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/config"
)

// serveModelList answers gear's check that a model server answers (GET
// /v1/models, once per run) with the llama.cpp README's list (one model).
func serveModelList(t *testing.T, w http.ResponseWriter) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", "ask", "llamacpp_v1_models.constructed.json"))
	if err != nil {
		t.Error(err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// setupServer is a model server that answers only gear's check.
func setupServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/v1/models" {
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
			http.Error(w, "unexpected", http.StatusTeapot)
			return
		}
		serveModelList(t, w)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func gearHome(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := map[string]string{"HOME": home}
	code := cli.Run(context.Background(), args, cli.Deps{Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return env[k] }, HTTP: &http.Client{}, Now: askNow})
	return code, stdout.String(), stderr.String()
}

// Gear setup writes the three roles for a server and
// tests them: a model the server lacks is named, with how to get it.
func TestSetupWritesAndTestsTheConfig(t *testing.T) {
	t.Parallel()
	srv := setupServer(t)
	home := t.TempDir()
	path := filepath.Join(home, ".config", "gear", "config.yaml")
	const served = "../models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf"

	code, stdout, stderr := gearHome(t, home, "setup", "--server", "ollama", "--base-url", srv.URL+"/v1")
	if code != cli.ExitFailure || !strings.Contains(stdout, "has no model qwen2.5:7b; get it with: ollama pull qwen2.5:7b") ||
		strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "3 of 3 model roles cannot be used yet") {
		t.Fatalf("models missing: exit %d\nstdout:\n%s\nstderr: %q", code, stdout, stderr)
	}
	cfg, err := config.Load(path, func(string) string { return "" })
	if err != nil {
		t.Fatalf("the written file does not load: %v", err)
	}
	for _, r := range []config.Role{cfg.Models.Chat, cfg.Models.Grounding, cfg.Models.Embedding} {
		if r.Server != "ollama" || r.BaseURL != srv.URL+"/v1" || r.Model == "" {
			t.Errorf("role %+v: want ollama at the server with a model", r)
		}
	}
	if cfg.Models.Chat.Model != "qwen2.5:7b" || cfg.Models.Grounding.Model != "qwen2.5:1.5b" || cfg.Models.Embedding.Model != "nomic-embed-text" {
		t.Errorf("models %q, %q, %q", cfg.Models.Chat.Model, cfg.Models.Grounding.Model, cfg.Models.Embedding.Model)
	}

	if code, _, stderr = gearHome(t, home, "setup", "--server", "ollama"); code != cli.ExitUsage || !strings.Contains(stderr, "--force") {
		t.Errorf("an existing file must be kept without --force: exit %d, %q", code, stderr)
	}
	code, stdout, stderr = gearHome(t, home, "setup", "--force", "--server", "llamacpp", "--base-url", srv.URL+"/v1",
		"--chat-model", served, "--slm-model", served, "--embed-model", served, "--embed-url", srv.URL+"/v1")
	if code != cli.ExitOK || strings.Count(stdout, "ok: "+served) != 3 || stderr != "" {
		t.Errorf("all served: exit %d\nstdout:\n%s\nstderr: %q", code, stdout, stderr)
	}
}

func TestSetupUsage(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"setup"}, "not on a terminal, so gear cannot ask: name the server with --server (openai, ollama, llamacpp, vllm, lmstudio)"},
		{[]string{"setup", "--server", "koboldcpp"}, `unknown server "koboldcpp"`},
	} {
		code, _, stderr := gearHome(t, home, tt.args...)
		if code != cli.ExitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("gear %v: exit %d, %q", tt.args, code, stderr)
		}
	}
}

// gear config init writes a template that loads as the defaults; a broken
// file does not stop it being replaced.
func TestConfigInit(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	path := filepath.Join(home, ".config", "gear", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("models: [broken\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := gearHome(t, home, "config", "init"); code != cli.ExitUsage || !strings.Contains(stderr, "--force") {
		t.Fatalf("an existing file: exit %d, %q", code, stderr)
	}
	code, stdout, stderr := gearHome(t, home, "config", "init", "--force")
	if code != cli.ExitOK || !strings.Contains(stdout, "Wrote "+path) {
		t.Fatalf("exit %d, %q, %q", code, stdout, stderr)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "# models:") || !strings.Contains(string(data), "confirm_below") {
		t.Errorf("the template lacks its sections:\n%s", data)
	}
	cfg, err := config.Load(path, func(string) string { return "" })
	if err != nil {
		t.Fatalf("the template does not load: %v", err)
	}
	if !reflect.DeepEqual(cfg.Agent, config.Defaults().Agent) || cfg.Models.Chat.Configured() {
		t.Errorf("the template changed the settings: %+v", cfg)
	}
	if code, stdout, _ := gearHome(t, home, "config"); code != cli.ExitOK || !strings.Contains(stdout, "(default; read)") {
		t.Errorf("gear config after init: exit %d\n%s", code, stdout)
	}
}
