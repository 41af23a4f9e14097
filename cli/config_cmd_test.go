package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gear-chat/gear/cli"
)

func TestConfigShowsEnginesNeverKeys(t *testing.T) {
	t.Parallel()
	const envKey, yamlKey, roleKey = "sk-proj-ENVKEY-0123456789", "sk-YAMLKEY-9876543210", "ollama-ROLEKEY-555"
	dir := t.TempDir()
	yaml := "models:\n" +
		"  chat:\n    api_key: " + yamlKey + "\n" +
		"  embedding:\n    base_url: http://localhost:11434/v1\n    model: nomic-embed-text\n    api_key_env: EMBED_KEY\n"
	if err := os.MkdirAll(filepath.Join(dir, "gear"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gear", "config.yaml"), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_CONFIG_HOME": dir, "HOME": dir, "OPENAI_API_KEY": envKey, "EMBED_KEY": roleKey}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"config"}, []string{
			"Config file: " + filepath.Join(dir, "gear", "config.yaml") + " (default; read)",
			"chat       openai https://api.openai.com/v1, model gpt-4o-mini (default while OPENAI_API_KEY or OPENAI_BASE_URL is set), key from config file (models.chat.api_key)",
			"grounding  openai https://api.openai.com/v1, model gpt-4o-mini (default while OPENAI_API_KEY or OPENAI_BASE_URL is set), key from OPENAI_API_KEY",
			"embedding  ollama http://localhost:11434/v1, model nomic-embed-text, key from $EMBED_KEY (models.embedding.api_key_env)",
			"api_key: '[redacted]'",
			"Effective configuration (keys redacted):",
		}},
		{[]string{"--chat-model", "qwen2.5:7b", "--chat-url", "http://localhost:11434/v1", "--slm-model", "phi3", "config"}, []string{
			"chat       ollama http://localhost:11434/v1, model qwen2.5:7b, key from config file (models.chat.api_key)",
			"grounding  openai https://api.openai.com/v1, model phi3, key from OPENAI_API_KEY",
		}},
		{[]string{"--offline", "config"}, []string{
			"chat       offline (built-in engine) — forced by --offline",
			"embedding  offline (built-in engine) — forced by --offline",
		}},
		{[]string{"version", "--verbose"}, []string{"Model roles:", "grounding  openai https://api.openai.com/v1, model gpt-4o-mini"}},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := cli.Run(context.Background(), tt.args, cli.Deps{Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }})
		out := stdout.String()
		if code != cli.ExitOK || stderr.Len() > 0 {
			t.Fatalf("gear %v: exit %d, stderr %q", tt.args, code, stderr.String())
		}
		for _, want := range tt.want {
			if !strings.Contains(out, want) {
				t.Errorf("gear %v: output lacks %q:\n%s", tt.args, want, out)
			}
		}
		for _, key := range []string{envKey, yamlKey, roleKey, "ENVKEY", "YAMLKEY", "ROLEKEY"} {
			if strings.Contains(out, key) {
				t.Errorf("gear %v printed key material %q", tt.args, key)
			}
		}
	}
}

func TestConfigFlagErrors(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), []string{"--chat-url", "localhost:11434", "config"},
		cli.Deps{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }})
	if code != cli.ExitUsage || !strings.Contains(stderr.String(), "gear: config: models.chat.base_url: \"localhost:11434\" is not an http(s) URL") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// A password in a base URL is never printed: not by gear config, version
// -v, nor an error; a key in a config file others can read is warned about
// in one line.
func TestBaseURLPasswordNeverPrints(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	body := "models:\n  chat:\n    base_url: http://gear:hunter2pw@localhost:11434/v1\n    model: m\n    api_key: sk-file-key-123456\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": dir, "GEAR_GROUNDING_BASE_URL": "ftp://gear:hunter2pw@host/v1"}
	for _, args := range [][]string{{"--config", path, "config"}, {"--config", path, "version", "-v"}} {
		var stdout, stderr bytes.Buffer
		getenv := func(k string) string {
			if k == "GEAR_GROUNDING_BASE_URL" {
				return ""
			}
			return env[k]
		}
		code := cli.Run(context.Background(), args, cli.Deps{Stdout: &stdout, Stderr: &stderr, Getenv: getenv})
		if code != cli.ExitOK || strings.Contains(stdout.String(), "hunter2pw") || !strings.Contains(stdout.String(), "http://[redacted]@localhost:11434/v1") {
			t.Errorf("gear %v: exit %d\n%s", args, code, stdout.String())
		}
		if w := stderr.String(); strings.Count(w, "\n") != 1 || !strings.Contains(w, "chmod 600") || strings.Contains(w, "sk-file-key") {
			t.Errorf("gear %v: stderr %q, want one warning line", args, w)
		}
	}
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), []string{"--config", path, "config"}, cli.Deps{Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return env[k] }})
	if code == cli.ExitOK || strings.Contains(stderr.String(), "hunter2pw") || !strings.Contains(stderr.String(), "[redacted]@host") {
		t.Errorf("a bad base URL: exit %d, stderr %q", code, stderr.String())
	}
}
