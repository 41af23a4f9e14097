package config

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// RoleNames returns the model roles in the order gear shows them; each is
// the YAML key under models: and, upper-cased, the GEAR_<ROLE>_* prefix.
func RoleNames() []string { return []string{"chat", "grounding", "embedding"} }

// ServerKinds are the values models.<role>.server accepts.
func ServerKinds() []string {
	return []string{"auto", "openai", "ollama", "llamacpp", "vllm", "lmstudio", "generic"}
}

// Role returns the named role's configuration (chat, grounding, embedding).
func (m *Models) Role(name string) *Role {
	switch name {
	case "chat":
		return &m.Chat
	case "grounding":
		return &m.Grounding
	case "embedding":
		return &m.Embedding
	}
	return nil
}

func defaultModels() Models {
	return Models{
		Chat:      Role{Timeout: Duration(60 * time.Second), MaxTokens: 1024},
		Grounding: Role{Timeout: Duration(30 * time.Second), MaxTokens: 64, Stop: []string{"\n"}},
		Embedding: Role{Timeout: Duration(30 * time.Second), BatchSize: 64},
		Image:     defaultImageRole(),
	}
}

// applyModelEnv reads OPENAI_API_KEY, OPENAI_BASE_URL and, per role,
// GEAR_<ROLE>_{MODEL,BASE_URL,API_KEY,SERVER,API,TIMEOUT,MAX_TOKENS,TEMPERATURE};
// it also resolves each role's api_key_env and records where each key came from.
func applyModelEnv(m *Models, getenv Getenv) error {
	if v := getenv("OPENAI_API_KEY"); v != "" {
		m.OpenAIKey = Secret(v)
	}
	if v := getenv("OPENAI_BASE_URL"); v != "" {
		m.OpenAIBaseURL = v
	}
	for _, name := range RoleNames() {
		r := m.Role(name)
		if r.APIKey != "" {
			r.KeyFrom = "config file (models." + name + ".api_key)"
		}
		if r.APIKeyEnv != "" {
			if v := getenv(r.APIKeyEnv); v != "" {
				r.APIKey = Secret(v)
				r.KeyFrom = "$" + r.APIKeyEnv + " (models." + name + ".api_key_env)"
			}
		}
		if err := applyRoleEnv(r, "GEAR_"+strings.ToUpper(name)+"_", getenv); err != nil {
			return err
		}
	}
	return nil
}

func applyRoleEnv(r *Role, prefix string, getenv Getenv) error {
	if v := getenv(prefix + "MODEL"); v != "" {
		r.Model = v
	}
	if v := getenv(prefix + "BASE_URL"); v != "" {
		r.BaseURL = v
	}
	if v := getenv(prefix + "API_KEY"); v != "" {
		r.APIKey = Secret(v)
		r.KeyFrom = prefix + "API_KEY"
	}
	if v := getenv(prefix + "SERVER"); v != "" {
		r.Server = v
	}
	if v := getenv(prefix + "API"); v != "" {
		r.API = v
	}
	if v := getenv(prefix + "TIMEOUT"); v != "" {
		d, err := ParseDuration(v)
		if err != nil {
			return fmt.Errorf("config: %sTIMEOUT: %w", prefix, err)
		}
		r.Timeout = d
	}
	if v := getenv(prefix + "MAX_TOKENS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("config: %sMAX_TOKENS=%q: want a whole number", prefix, v)
		}
		r.MaxTokens = n
	}
	if v := getenv(prefix + "TEMPERATURE"); v != "" {
		t, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("config: %sTEMPERATURE=%q: want a number like 0 or 0.7", prefix, v)
		}
		r.Temperature = &t
	}
	return nil
}

// Validate checks every role's settings.
func (m Models) Validate() error {
	if m.OpenAIBaseURL != "" {
		if err := checkBaseURL(m.OpenAIBaseURL); err != nil {
			return fmt.Errorf("config: OPENAI_BASE_URL: %w", err)
		}
	}
	for _, name := range RoleNames() {
		r := m.Role(name)
		if err := r.validate(); err != nil {
			return fmt.Errorf("config: models.%s.%w", name, err)
		}
	}
	return nil
}

func (r Role) validate() error {
	if r.BaseURL != "" {
		if err := checkBaseURL(r.BaseURL); err != nil {
			return fmt.Errorf("base_url: %w", err)
		}
	}
	if r.Server != "" && !slices.Contains(ServerKinds(), r.Server) {
		return fmt.Errorf("server is %q; want one of %s", r.Server, strings.Join(ServerKinds(), ", "))
	}
	switch r.API {
	case "", "chat", "completions":
	default:
		return fmt.Errorf("api is %q; want chat or completions", r.API)
	}
	if r.Timeout < 0 {
		return fmt.Errorf("timeout must not be negative")
	}
	if r.MaxTokens < 0 {
		return fmt.Errorf("max_tokens must not be negative")
	}
	if t := r.Temperature; t != nil && !(*t >= 0 && *t <= 2) { // NaN too
		return fmt.Errorf("temperature is %v; want 0..2", *t)
	}
	if r.Dimensions < 0 || r.BatchSize < 0 {
		return fmt.Errorf("dimensions and batch_size must not be negative")
	}
	return nil
}

func checkBaseURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL like http://localhost:11434/v1", RedactText(s))
	}
	return nil
}
