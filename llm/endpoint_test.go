package llm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gear-chat/gear/config"
)

func load(t *testing.T, yaml string, env map[string]string) config.Config {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestResolve(t *testing.T) {
	cases := []struct {
		name    string
		yaml    string
		env     map[string]string
		offline bool // force offline
		role    Role
		want    Endpoint // fields compared: Offline, Server, BaseURL, Model, DefaultModel, KeyFrom, key set
		wantKey string
	}{
		{name: "nothing configured is offline", role: RoleChat, want: Endpoint{Offline: true}},
		{name: "OPENAI_API_KEY alone gives default models", role: RoleEmbedding,
			env:  map[string]string{"OPENAI_API_KEY": "sk-env-key-0000000"},
			want: Endpoint{Server: ServerOpenAI, BaseURL: OpenAIBaseURL, Model: DefaultEmbeddingModel, DefaultModel: true, KeyFrom: "OPENAI_API_KEY"}, wantKey: "sk-env-key-0000000"},
		{name: "OPENAI_BASE_URL alone gives default models, no key", role: RoleGrounding,
			env:  map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1/"},
			want: Endpoint{Server: ServerOllama, BaseURL: "http://localhost:11434/v1", Model: DefaultGroundingModel, DefaultModel: true, KeyFrom: "none"}},
		{name: "a role's own server gets no OPENAI_API_KEY and no default model", role: RoleChat,
			yaml: "models:\n  chat:\n    base_url: http://gpu-box:8000/v1\n",
			env:  map[string]string{"OPENAI_API_KEY": "sk-env-key-0000000"},
			want: Endpoint{Offline: true}},
		{name: "a role's own server keeps the OpenAI key away", role: RoleChat,
			yaml: "models:\n  chat:\n    base_url: http://gpu-box:8000/v1\n    model: qwen2.5\n    server: vllm\n",
			env:  map[string]string{"OPENAI_API_KEY": "sk-env-key-0000000"},
			want: Endpoint{Server: ServerVLLM, BaseURL: "http://gpu-box:8000/v1", Model: "qwen2.5", KeyFrom: "none"}},
		{name: "env beats YAML, api_key_env is read", role: RoleChat,
			yaml: "models:\n  chat:\n    model: from-yaml\n    base_url: http://localhost:1234/v1\n    api_key_env: MY_KEY\n",
			env:  map[string]string{"GEAR_CHAT_MODEL": "from-env", "MY_KEY": "lm-studio-key-123"},
			want: Endpoint{Server: ServerLMStudio, BaseURL: "http://localhost:1234/v1", Model: "from-env", KeyFrom: "$MY_KEY (models.chat.api_key_env)"}, wantKey: "lm-studio-key-123"},
		{name: "GEAR_<ROLE>_API_KEY beats the file", role: RoleGrounding,
			yaml: "models:\n  grounding:\n    model: phi3\n    base_url: http://localhost:8080/v1\n    api_key: file-key-0000\n",
			env:  map[string]string{"GEAR_GROUNDING_API_KEY": "env-key-1111"},
			want: Endpoint{Server: ServerGeneric, BaseURL: "http://localhost:8080/v1", Model: "phi3", KeyFrom: "GEAR_GROUNDING_API_KEY"}, wantKey: "env-key-1111"},
		{name: "an unset api_key_env is said", role: RoleChat,
			yaml: "models:\n  chat:\n    model: m\n    base_url: http://localhost:8080/v1\n    api_key_env: MISSING\n",
			want: Endpoint{Server: ServerGeneric, BaseURL: "http://localhost:8080/v1", Model: "m", KeyFrom: "none ($MISSING is not set)"}},
		{name: "offline forces offline", role: RoleChat, offline: true,
			env:  map[string]string{"OPENAI_API_KEY": "sk-env-key-0000000"},
			want: Endpoint{Offline: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := load(t, tc.yaml, tc.env)
			cfg.Offline = cfg.Offline || tc.offline
			got := Resolve(cfg, tc.role)
			online := !tc.want.Offline && (got.Server != tc.want.Server || got.BaseURL != tc.want.BaseURL ||
				got.Model != tc.want.Model || got.DefaultModel != tc.want.DefaultModel || got.KeyFrom != tc.want.KeyFrom)
			if got.Offline != tc.want.Offline || online || got.APIKey.Reveal() != tc.wantKey {
				t.Errorf("Resolve = %+v\nwant %+v with key %q", got, tc.want, tc.wantKey)
			}
			desc := got.Describe() + fmt.Sprintf("%v %+v %#v", got, got, got)
			for _, key := range []string{"sk-env-key-0000000", "lm-studio-key-123", "env-key-1111", "file-key-0000"} {
				if strings.Contains(desc, key) {
					t.Errorf("the key shows in %s", desc)
				}
			}
			if got.Offline && !strings.Contains(got.Describe(), "offline") {
				t.Errorf("Describe = %s", got.Describe())
			}
			if _, err := New(got); got.Offline != errors.Is(err, ErrOffline) {
				t.Errorf("New on offline=%v: %v", got.Offline, err)
			}
		})
	}
}

func TestServerKindsAgreeWithConfig(t *testing.T) {
	var ours []string
	for _, k := range ServerKinds() {
		ours = append(ours, string(k))
	}
	if got, want := strings.Join(config.ServerKinds()[1:], ","), strings.Join(ours, ","); got != want {
		t.Errorf("config accepts %s; llm knows %s", got, want)
	}
	var roles []string
	for _, r := range Roles() {
		roles = append(roles, string(r))
	}
	if strings.Join(roles, ",") != strings.Join(config.RoleNames(), ",") {
		t.Errorf("roles %v vs config %v", roles, config.RoleNames())
	}
}

// The capability table in docs/models.md is the one the code uses.
func TestModelsDocCapabilityTable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "docs", "models.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), CapabilityTable()) {
		t.Errorf("docs/models.md does not hold the current table:\n%s", CapabilityTable())
	}
}
