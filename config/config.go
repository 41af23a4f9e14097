// Package config is gear's configuration: defaults, then the YAML file
// under the XDG config directory (or --config), then the environment; the
// command line applies its flags last. API keys are held as Secret so that
// printing a Config never shows one.
package config

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/gear-chat/gear/grounding/calibration"
)

// Config is everything gear can be configured with.
type Config struct {
	// DB is the SQLite history file; empty means the XDG data directory.
	DB string `yaml:"db" json:"db"`
	// Offline forces the built-in offline engine for every model role.
	Offline bool `yaml:"offline" json:"offline"`
	// Home is the place used when a query names none ("what's the time").
	// Empty means the machine's local time zone, and no weather default.
	Home string `yaml:"home" json:"home"`

	Models    Models    `yaml:"models" json:"models"`
	Tools     Tools     `yaml:"tools" json:"tools"`
	Grounding Grounding `yaml:"grounding" json:"grounding"`
	Agent     Agent     `yaml:"agent" json:"agent"`
	MCP       MCP       `yaml:"mcp" json:"mcp"`

	// Warnings are what Load found worth saying that is no error (a key in
	// a file others can read), one line each.
	Warnings []string `yaml:"-" json:"-"`
}

// Models configures the three model roles. A role without a model uses the
// offline engine; OPENAI_API_KEY or OPENAI_BASE_URL give every role that
// names no server of its own a default model (see package llm).
type Models struct {
	Chat      Role `yaml:"chat" json:"chat"`
	Grounding Role `yaml:"grounding" json:"grounding"`
	Embedding Role `yaml:"embedding" json:"embedding"`
	// Image generates images (media.go); not one of RoleNames, since
	// it is no language model.
	Image ImageRole `yaml:"image" json:"image"`

	// OpenAIKey and OpenAIBaseURL are OPENAI_API_KEY and OPENAI_BASE_URL,
	// the fallback endpoint; they come from the environment only.
	OpenAIKey     Secret `yaml:"-" json:"-"`
	OpenAIBaseURL string `yaml:"-" json:"openai_base_url,omitempty"`
}

// Role is one model role's endpoint.
type Role struct {
	BaseURL string `yaml:"base_url" json:"base_url"`
	Model   string `yaml:"model" json:"model"`
	// APIKey is the key itself; prefer APIKeyEnv, which names the
	// environment variable to read it from.
	APIKey    Secret `yaml:"api_key" json:"api_key"`
	APIKeyEnv string `yaml:"api_key_env" json:"api_key_env"`
	// Server is the server kind: openai, ollama, llamacpp, vllm, lmstudio,
	// or auto (detect from the base URL).
	Server string `yaml:"server" json:"server"`
	// Timeout bounds each attempt of a call: the wait for an answer and,
	// when streaming, every wait for the next chunk.
	Timeout     Duration `yaml:"timeout" json:"timeout"`
	MaxTokens   int      `yaml:"max_tokens" json:"max_tokens"`
	Temperature *float64 `yaml:"temperature" json:"temperature"`
	// API is the endpoint text is generated with: chat (default) or
	// completions (the legacy /v1/completions, for base models).
	API string `yaml:"api" json:"api"`
	// Stop ends generation at any of these strings.
	Stop []string `yaml:"stop" json:"stop"`
	// Dimensions asks an embedding model that supports it for shorter vectors.
	Dimensions int `yaml:"dimensions" json:"dimensions"`
	// BatchSize is how many texts one embeddings request carries.
	BatchSize int `yaml:"batch_size" json:"batch_size"`

	// KeyFrom says where APIKey came from (never the key); set by Load.
	KeyFrom string `yaml:"-" json:"key_from,omitempty"`
}

// Configured reports whether the role names a model to call.
func (r Role) Configured() bool { return r.Model != "" }

// Tools configures the built-in tools' network access.
type Tools struct {
	// Timeout is every network call's deadline.
	Timeout Duration `yaml:"timeout" json:"timeout"`
	// MaxResponseBytes caps a response body.
	MaxResponseBytes int64   `yaml:"max_response_bytes" json:"max_response_bytes"`
	Weather          Weather `yaml:"weather" json:"weather"`
	Wiki             Wiki    `yaml:"wiki" json:"wiki"`
	// Translation is the translation tool's services (media.go).
	Translation Translation `yaml:"translate" json:"translate"`
}

// Weather configures Open-Meteo.
type Weather struct {
	BaseURL      string `yaml:"base_url" json:"base_url"`
	GeocodingURL string `yaml:"geocoding_url" json:"geocoding_url"`
	// Units is metric or imperial.
	Units string `yaml:"units" json:"units"`
}

// Wiki configures Wikipedia.
type Wiki struct {
	// BaseURL is the wiki's root, e.g. https://en.wikipedia.org; empty
	// means https://<language>.wikipedia.org.
	BaseURL  string `yaml:"base_url" json:"base_url"`
	Language string `yaml:"language" json:"language"`
}

// Grounding configures GEAR.
type Grounding struct {
	// Gamma weighs the semantic score against the pattern score.
	Gamma float64 `yaml:"gamma" json:"gamma"`
	// Lambda is the pattern score's add-λ smoothing.
	Lambda float64 `yaml:"lambda" json:"lambda"`
	// Threshold is the probability that a tool is needed below which the
	// query routes to no tool.
	Threshold float64 `yaml:"threshold" json:"threshold"`
	// Temperature turns final scores into a calibrated confidence.
	Temperature float64 `yaml:"temperature" json:"temperature"`
	// NoneScore is the final score of the "no tool" candidate: a tool must
	// score above it to be likelier than none. Fitted with Temperature.
	NoneScore float64 `yaml:"none_score" json:"none_score"`
	// ConfidenceNone and ConfidenceTool map the choice's softmax share to
	// the confidence shown, for a none choice and a tool choice
	// (docs/calibration.md); fitted with Temperature. {a: 0, b: 0} shows
	// the share itself.
	ConfidenceNone ConfidenceMap `yaml:"confidence_none" json:"confidence_none"`
	ConfidenceTool ConfidenceMap `yaml:"confidence_tool" json:"confidence_tool"`
	// Route says who decides whether a query needs a tool: threshold
	// (grounding's probability), model (always ask the chat model, as the
	// paper does), combined (ask only when grounding is not decisive), or
	// empty for combined when a chat model is configured, else threshold.
	Route string `yaml:"route" json:"route"`
	// ToolTimeout bounds each tool's probe during grounding.
	ToolTimeout Duration `yaml:"tool_timeout" json:"tool_timeout"`
	// ExternalToolTimeout bounds the probe of an MCP or declared tool
	// (0: grounding's default, 300ms); past it the tool is scored by its
	// arguments, so an answer never waits on a slow server.
	ExternalToolTimeout Duration `yaml:"external_tool_timeout,omitempty" json:"external_tool_timeout,omitempty"`
	// Shortlist is k: how many tools, ranked by the semantic score, get
	// the pattern stage (a small-model call each); 0 means the default.
	Shortlist int `yaml:"shortlist" json:"shortlist"`
	// Concurrency bounds grounding's model requests in flight at once;
	// 0 means the default.
	Concurrency int `yaml:"concurrency" json:"concurrency"`
	// SpeculativeRoute, with route combined, asks the routing question
	// with grounding's requests and cancels it when grounding is decisive:
	// no extra round trip when it is not, one more request every turn.
	SpeculativeRoute bool `yaml:"speculative_route" json:"speculative_route"`
}

// ConfidenceMap is σ(A + B·logit p).
type ConfidenceMap struct {
	A float64 `yaml:"a" json:"a"`
	B float64 `yaml:"b" json:"b"`
}

// Agent configures a turn.
type Agent struct {
	// ConfirmBelow is the confidence under which the user is asked before
	// a tool runs.
	ConfirmBelow float64 `yaml:"confirm_below" json:"confirm_below"`
	// ConfirmCallBelow is the call confidence (how sure the engine is that
	// it read the query's arguments right) under which the call is shown
	// and asked about before it runs; 0 never asks.
	ConfirmCallBelow float64 `yaml:"confirm_call_below" json:"confirm_call_below"`
	// OfferToolsBelow is the certainty of "no tool needed" under which a
	// query put as a request for information is offered the closest
	// tools; 0 never offers.
	OfferToolsBelow float64 `yaml:"offer_tools_below" json:"offer_tools_below"`
	// ContextTokens bounds the earlier turns sent with a query.
	ContextTokens int `yaml:"context_tokens" json:"context_tokens"`
	// AllowedTools are tools that are not read-only (MCP and declared
	// tools that may write or cost) which run without asking; "always
	// allow this tool" at the prompt adds to it.
	AllowedTools []string `yaml:"allowed_tools,omitempty" json:"allowed_tools,omitempty"`
	// ReuseGroundingCall says whether the call grounding's small model
	// wrote for the chosen tool runs without asking the chat model for
	// another: auto (when the small model is the chat model), always or
	// never. Empty means auto.
	ReuseGroundingCall string `yaml:"reuse_grounding_call" json:"reuse_grounding_call"`
}

// Defaults returns the configuration gear runs with when nothing is set.
func Defaults() Config {
	return Config{
		Tools: Tools{
			Timeout:          Duration(10 * time.Second),
			MaxResponseBytes: 2 << 20,
			Weather: Weather{
				BaseURL:      "https://api.open-meteo.com",
				GeocodingURL: "https://geocoding-api.open-meteo.com",
				Units:        "metric",
			},
			Wiki: Wiki{Language: "en"},
		},
		Models: defaultModels(),
		Grounding: Grounding{Gamma: 0.75, Lambda: 1, Threshold: calibration.Threshold, Temperature: calibration.Temperature,
			NoneScore: calibration.NoneScore, ToolTimeout: Duration(2 * time.Second),
			ConfidenceNone: ConfidenceMap{A: calibration.NoneA, B: calibration.NoneB},
			ConfidenceTool: ConfidenceMap{A: calibration.ToolA, B: calibration.ToolB}},
		Agent: Agent{ConfirmBelow: 0.8, ConfirmCallBelow: 0.8, OfferToolsBelow: 0.8, ContextTokens: 2000},
		MCP:   defaultMCP(),
	}
}

// Getenv reads an environment variable; os.Getenv is one, tests pass a map.
type Getenv func(string) string

// DefaultPath is the config file used without --config:
// $XDG_CONFIG_HOME/gear/config.yaml, else ~/.config/gear/config.yaml.
func DefaultPath(getenv Getenv) string {
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" {
		return filepath.Join(dir, "gear", "config.yaml")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "gear", "config.yaml")
	}
	return ""
}

// Where FilePath found the config file's name.
const (
	FromFlag    = "--config"
	FromEnv     = "GEAR_CONFIG"
	FromDefault = "default"
)

// FilePath is the config file Load reads: flag (--config) when given, else
// $GEAR_CONFIG, else DefaultPath (empty when there is none); from says
// which (FromFlag, FromEnv, FromDefault). A file the flag or GEAR_CONFIG
// names must exist; the default one may be missing.
func FilePath(flag string, getenv Getenv) (path, from string) {
	if flag != "" {
		return flag, FromFlag
	}
	if p := getenv("GEAR_CONFIG"); p != "" {
		return p, FromEnv
	}
	return DefaultPath(getenv), FromDefault
}

// DefaultDB is the history file used without --db:
// $XDG_DATA_HOME/gear/gear.db, else ~/.local/share/gear/gear.db.
func DefaultDB(getenv Getenv) string {
	if dir := getenv("XDG_DATA_HOME"); dir != "" {
		return filepath.Join(dir, "gear", "gear.db")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".local", "share", "gear", "gear.db")
	}
	return "gear.db"
}

// Validate checks values that would otherwise fail later and obscurely.
func (c Config) Validate() error {
	if err := checkFinite(reflect.ValueOf(c), ""); err != nil {
		return err
	}
	if err := c.validateMedia(); err != nil {
		return err
	}
	switch c.Tools.Weather.Units {
	case "metric", "imperial":
	default:
		return fmt.Errorf("config: tools.weather.units is %q; want metric or imperial", c.Tools.Weather.Units)
	}
	if c.Tools.Timeout <= 0 {
		return fmt.Errorf("config: tools.timeout must be positive")
	}
	if c.Tools.MaxResponseBytes <= 0 {
		return fmt.Errorf("config: tools.max_response_bytes must be positive")
	}
	if g := c.Grounding.Gamma; g < 0 || g > 1 {
		return fmt.Errorf("config: grounding.gamma is %v; want 0..1", g)
	}
	if c.Grounding.Lambda < 0 {
		return fmt.Errorf("config: grounding.lambda must not be negative")
	}
	if t := c.Grounding.Threshold; t < 0 || t > 1 {
		return fmt.Errorf("config: grounding.threshold is %v; want 0..1", t)
	}
	for _, m := range []struct {
		key string
		b   float64
	}{{"confidence_none", c.Grounding.ConfidenceNone.B}, {"confidence_tool", c.Grounding.ConfidenceTool.B}} {
		if m.b < 0 {
			return fmt.Errorf("config: grounding.%s.b is %v; want 0 or more (a negative b would make a likelier choice less sure)", m.key, m.b)
		}
	}
	if c.Grounding.Temperature <= 0 {
		return fmt.Errorf("config: grounding.temperature must be positive")
	}
	switch c.Grounding.Route {
	case "", "threshold", "model", "combined":
	default:
		return fmt.Errorf("config: grounding.route is %q; want threshold, model or combined", c.Grounding.Route)
	}
	if c.Grounding.Shortlist < 0 || c.Grounding.Concurrency < 0 {
		return fmt.Errorf("config: grounding.shortlist and grounding.concurrency must not be negative")
	}
	switch c.Agent.ReuseGroundingCall {
	case "", "auto", "always", "never":
	default:
		return fmt.Errorf("config: agent.reuse_grounding_call is %q; want auto, always or never", c.Agent.ReuseGroundingCall)
	}
	if t := c.Agent.ConfirmBelow; t < 0 || t > 1 {
		return fmt.Errorf("config: agent.confirm_below is %v; want 0..1", t)
	}
	if t := c.Agent.ConfirmCallBelow; t < 0 || t > 1 {
		return fmt.Errorf("config: agent.confirm_call_below is %v; want 0..1", t)
	}
	if t := c.Agent.OfferToolsBelow; t < 0 || t > 1 {
		return fmt.Errorf("config: agent.offer_tools_below is %v; want 0..1", t)
	}
	if err := c.MCP.Validate(); err != nil {
		return err
	}
	return c.Models.Validate()
}

// WikiBaseURL is the wiki root to call.
func (c Config) WikiBaseURL() string {
	if c.Tools.Wiki.BaseURL != "" {
		return strings.TrimRight(c.Tools.Wiki.BaseURL, "/")
	}
	lang := c.Tools.Wiki.Language
	if lang == "" {
		lang = "en"
	}
	return "https://" + lang + ".wikipedia.org"
}
