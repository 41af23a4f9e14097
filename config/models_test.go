package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestModelRolesFromFileAndEnv(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	yaml := `models:
  chat:
    base_url: http://localhost:8080/v1
    model: from-file
    api_key_env: CHAT_KEY
    timeout: 5s
  grounding:
    model: phi3
    api: completions
    stop: ["\n\n"]
`
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"OPENAI_API_KEY": "sk-openai", "OPENAI_BASE_URL": "http://localhost:11434/v1",
		"CHAT_KEY": "chat-secret", "GEAR_CHAT_MODEL": "from-env", "GEAR_CHAT_TEMPERATURE": "0",
		"GEAR_EMBEDDING_MAX_TOKENS": "8", "GEAR_EMBEDDING_SERVER": "ollama", "GEAR_GROUNDING_TIMEOUT": "250ms",
	}
	cfg, err := Load(path, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	m := cfg.Models
	if m.OpenAIKey.Reveal() != "sk-openai" || m.OpenAIBaseURL != "http://localhost:11434/v1" {
		t.Errorf("OPENAI_* = %q %q", m.OpenAIKey.Reveal(), m.OpenAIBaseURL)
	}
	if m.Chat.Model != "from-env" || m.Chat.APIKey.Reveal() != "chat-secret" || m.Chat.KeyFrom != "$CHAT_KEY (models.chat.api_key_env)" ||
		m.Chat.Timeout.D() != 5*time.Second || m.Chat.Temperature == nil || *m.Chat.Temperature != 0 || m.Chat.MaxTokens != 1024 {
		t.Errorf("chat = %+v", m.Chat)
	}
	if m.Grounding.API != "completions" || strings.Join(m.Grounding.Stop, "|") != "\n\n" || m.Grounding.Timeout.D() != 250*time.Millisecond || m.Grounding.MaxTokens != 64 {
		t.Errorf("grounding = %+v", m.Grounding)
	}
	if m.Embedding.MaxTokens != 8 || m.Embedding.Server != "ollama" || m.Embedding.BatchSize != 64 {
		t.Errorf("embedding = %+v", m.Embedding)
	}
}

func TestModelRoleErrors(t *testing.T) {
	cases := []struct {
		yaml string
		env  map[string]string
		want string
	}{
		{"models:\n  chat:\n    server: tgi\n", nil, `config: models.chat.server is "tgi"; want one of auto, openai`},
		{"models:\n  embedding:\n    base_url: localhost:11434\n", nil, `config: models.embedding.base_url: "localhost:11434" is not an http(s) URL`},
		{"models:\n  grounding:\n    api: responses\n", nil, `config: models.grounding.api is "responses"; want chat or completions`},
		{"models:\n  chat:\n    temperature: 3\n", nil, "config: models.chat.temperature is 3; want 0..2"},
		{"", map[string]string{"GEAR_CHAT_TIMEOUT": "soon"}, "config: GEAR_CHAT_TIMEOUT: duration \"soon\""},
		{"", map[string]string{"GEAR_GROUNDING_MAX_TOKENS": "many"}, `config: GEAR_GROUNDING_MAX_TOKENS="many": want a whole number`},
		{"", map[string]string{"GEAR_CHAT_TEMPERATURE": "hot"}, `config: GEAR_CHAT_TEMPERATURE="hot": want a number`},
		{"", map[string]string{"OPENAI_BASE_URL": "api.openai.com"}, `config: OPENAI_BASE_URL: "api.openai.com" is not an http(s) URL`},
	}
	for _, tc := range cases {
		path := filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path, func(k string) string { return tc.env[k] })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q, %v) = %v, want %q", tc.yaml, tc.env, err, tc.want)
		}
	}
}
