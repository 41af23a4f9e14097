// Package llm is gear's one client for every model role — the chat LLM, the
// grounding SLM and the embedding model — on any OpenAI-compatible server
// (OpenAI, Ollama, llama.cpp's server, vLLM, LM Studio), built on
// github.com/sashabaranov/go-openai.
//
// Resolve turns the configuration into one Endpoint per role; a role with
// no model is offline, and New refuses it. A Client makes chat, streamed
// chat, legacy completion, next-token and embedding calls with the role's
// deadline, one retry on 429/5xx/timeouts, guided decoding chosen by server
// kind, and errors that name the role and the server but never the key.
// Every call returns (and reports to a context's UsageRecorder) its Usage.
package llm

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/gear-chat/gear/config"
)

// Role is a model role.
type Role string

// The model roles.
const (
	RoleChat      Role = "chat"      // routes, emits the tool call, writes the answer
	RoleGrounding Role = "grounding" // GEAR's small language model
	RoleEmbedding Role = "embedding" // GEAR's semantic score
)

// Roles returns every role in display order.
func Roles() []Role { return []Role{RoleChat, RoleGrounding, RoleEmbedding} }

// ServerKind is the kind of OpenAI-compatible server behind a base URL; it
// decides which guided-decoding fields gear sends (see CapabilitiesOf).
type ServerKind string

// The server kinds gear knows.
const (
	ServerOpenAI   ServerKind = "openai"
	ServerOllama   ServerKind = "ollama"
	ServerLlamaCpp ServerKind = "llamacpp"
	ServerVLLM     ServerKind = "vllm"
	ServerLMStudio ServerKind = "lmstudio"
	// ServerGeneric is a server gear could not identify: only what every
	// OpenAI-compatible server accepts is used.
	ServerGeneric ServerKind = "generic"
)

// ServerKinds returns every kind, in the capability table's order.
func ServerKinds() []ServerKind {
	return []ServerKind{ServerOpenAI, ServerOllama, ServerLlamaCpp, ServerVLLM, ServerLMStudio, ServerGeneric}
}

// What OPENAI_API_KEY / OPENAI_BASE_URL alone give a role.
const (
	OpenAIBaseURL         = "https://api.openai.com/v1"
	DefaultChatModel      = "gpt-4o-mini"
	DefaultGroundingModel = "gpt-4o-mini"
	DefaultEmbeddingModel = "text-embedding-3-small"
)

// DefaultModel is the model a role gets when OPENAI_API_KEY or
// OPENAI_BASE_URL is set and the role names neither a model nor a server.
func DefaultModel(role Role) string {
	switch role {
	case RoleChat:
		return DefaultChatModel
	case RoleGrounding:
		return DefaultGroundingModel
	case RoleEmbedding:
		return DefaultEmbeddingModel
	}
	return ""
}

// Endpoint is one role's resolved settings: where to call, which model, with
// which key, and how. The key is a config.Secret, so printing an Endpoint
// never shows it.
type Endpoint struct {
	Role Role
	// Offline means the role uses gear's built-in offline engine;
	// OfflineReason says why, and how to configure a model instead.
	Offline       bool
	OfflineReason string

	Server ServerKind
	// ServerFrom says how Server was decided: "configured", "from the
	// base URL", or "unknown" (a /v1/models probe runs when needed).
	ServerFrom string
	BaseURL    string
	Model      string
	// DefaultModel means Model is DefaultModel(Role), given by OPENAI_*.
	DefaultModel bool
	APIKey       config.Secret
	// KeyFrom says where the key came from; never the key itself.
	KeyFrom string

	// API is "chat" or "completions": how Complete generates text.
	API         string
	Timeout     time.Duration
	MaxTokens   int
	Temperature *float64
	Stop        []string
	Dimensions  int
	BatchSize   int
}

// Resolve gives a role its endpoint. The role's own base URL, model and key
// come first; without a base URL the role uses OPENAI_BASE_URL (or OpenAI's),
// and — if OPENAI_API_KEY or OPENAI_BASE_URL is set — DefaultModel(role)
// when it names no model. OPENAI_API_KEY is only ever sent to that shared
// endpoint, never to a server a role names itself. cfg.Offline forces every
// role offline.
func Resolve(cfg config.Config, role Role) Endpoint {
	r := cfg.Models.Role(string(role))
	if r == nil {
		return Endpoint{Role: role, Offline: true, OfflineReason: fmt.Sprintf("unknown role %q", role)}
	}
	ep := Endpoint{
		Role: role, API: r.API, Timeout: r.Timeout.D(), MaxTokens: r.MaxTokens,
		Temperature: r.Temperature, Stop: r.Stop, Dimensions: r.Dimensions, BatchSize: r.BatchSize,
	}
	if ep.API == "" {
		ep.API = "chat"
	}
	if ep.Timeout <= 0 {
		ep.Timeout = 60 * time.Second
	}
	if ep.BatchSize <= 0 {
		ep.BatchSize = 64
	}
	if cfg.Offline {
		ep.Offline, ep.OfflineReason = true, "forced by --offline, GEAR_OFFLINE or offline: true"
		return ep
	}
	shared := cfg.Models.OpenAIBaseURL
	if shared == "" {
		shared = OpenAIBaseURL
	}
	ep.BaseURL = strings.TrimRight(r.BaseURL, "/")
	ep.Model = r.Model
	if ep.BaseURL == "" {
		ep.BaseURL = strings.TrimRight(shared, "/")
		if ep.Model == "" && (cfg.Models.OpenAIKey != "" || cfg.Models.OpenAIBaseURL != "") {
			ep.Model, ep.DefaultModel = DefaultModel(role), true
		}
	}
	if ep.Model == "" {
		flag := map[Role]string{RoleChat: "--chat-model", RoleGrounding: "--slm-model", RoleEmbedding: "--embed-model"}[role]
		ep.Offline = true
		ep.OfflineReason = fmt.Sprintf("no model configured: set %s, GEAR_%s_MODEL or models.%s.model, or OPENAI_API_KEY",
			flag, strings.ToUpper(string(role)), role)
		return ep
	}
	switch {
	case r.APIKey != "":
		ep.APIKey, ep.KeyFrom = r.APIKey, r.KeyFrom
	case cfg.Models.OpenAIKey != "" && ep.BaseURL == strings.TrimRight(shared, "/"):
		ep.APIKey, ep.KeyFrom = cfg.Models.OpenAIKey, "OPENAI_API_KEY"
	case r.APIKeyEnv != "":
		ep.KeyFrom = "none ($" + r.APIKeyEnv + " is not set)"
	default:
		ep.KeyFrom = "none"
	}
	if r.Server != "" && r.Server != "auto" {
		ep.Server, ep.ServerFrom = ServerKind(r.Server), "configured"
	} else {
		ep.Server, ep.ServerFrom = DetectServer(ep.BaseURL)
	}
	return ep
}

// DetectServer guesses the server kind from a base URL: OpenAI's host, and
// the default ports of Ollama (11434) and LM Studio (1234). llama.cpp and
// vLLM share common ports with everything else, so for them it answers
// generic/"unknown" and the client probes /v1/models (their owned_by field
// names them) the first time a server-specific feature is needed.
func DetectServer(baseURL string) (ServerKind, string) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return ServerGeneric, "unknown"
	}
	host, port := u.Hostname(), u.Port()
	switch {
	case host == "api.openai.com":
		return ServerOpenAI, "from the base URL"
	case port == "11434":
		return ServerOllama, "from the base URL"
	case port == "1234":
		return ServerLMStudio, "from the base URL"
	}
	return ServerGeneric, "unknown"
}

// Describe says, on one line, which engine the role uses: offline and why,
// or the server kind, base URL, model and where the key comes from. It never
// shows the key.
func (ep Endpoint) Describe() string {
	if ep.Offline {
		return "offline (built-in engine) — " + ep.OfflineReason
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", ep.Server, config.RedactText(ep.BaseURL))
	if ep.ServerFrom == "unknown" {
		b.WriteString(" (kind probed on first use)")
	}
	fmt.Fprintf(&b, ", model %s", ep.Model)
	if ep.DefaultModel {
		b.WriteString(" (default while OPENAI_API_KEY or OPENAI_BASE_URL is set)")
	}
	if rest, ok := strings.CutPrefix(ep.KeyFrom, "none"); ok {
		fmt.Fprintf(&b, ", no key%s", rest)
	} else {
		fmt.Fprintf(&b, ", key from %s", ep.KeyFrom)
	}
	fmt.Fprintf(&b, ", timeout %s", ep.Timeout)
	return b.String()
}
