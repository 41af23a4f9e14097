package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/sanitize"
)

// serverPreset is what gear setup proposes for a kind of server: where it
// listens by default and models for the three roles that it serves (the
// person can change each one).
type serverPreset struct {
	Kind  llm.ServerKind
	Label string
	// BaseURL serves chat and grounding; EmbedURL the embeddings (llama.cpp's
	// server and vLLM serve one model each, so embeddings are a second
	// server).
	BaseURL, EmbedURL          string
	Chat, Grounding, Embedding string
	KeyEnv                     string
	Pull                       string // how to get a missing model, "%s" for its name
	ModelNote                  string
}

// serverPresets are the servers gear setup knows, in the order offered.
var serverPresets = []serverPreset{
	{Kind: llm.ServerOpenAI, Label: "OpenAI", BaseURL: llm.OpenAIBaseURL, EmbedURL: llm.OpenAIBaseURL,
		Chat: llm.DefaultChatModel, Grounding: llm.DefaultGroundingModel, Embedding: llm.DefaultEmbeddingModel,
		KeyEnv: "OPENAI_API_KEY"},
	{Kind: llm.ServerOllama, Label: "Ollama", BaseURL: "http://localhost:11434/v1", EmbedURL: "http://localhost:11434/v1",
		Chat: "qwen2.5:7b", Grounding: "qwen2.5:1.5b", Embedding: "nomic-embed-text", Pull: "ollama pull %s"},
	{Kind: llm.ServerLlamaCpp, Label: "llama.cpp (llama-server)", BaseURL: "http://localhost:8080/v1", EmbedURL: "http://localhost:8081/v1",
		Chat: "qwen2.5-7b-instruct", Grounding: "qwen2.5-7b-instruct", Embedding: "nomic-embed-text-v1.5",
		ModelNote: "llama-server serves the model it was started with (--alias names it); start a second one with --embedding --port 8081 for embeddings"},
	{Kind: llm.ServerVLLM, Label: "vLLM", BaseURL: "http://localhost:8000/v1", EmbedURL: "http://localhost:8001/v1",
		Chat: "Qwen/Qwen2.5-7B-Instruct", Grounding: "Qwen/Qwen2.5-7B-Instruct", Embedding: "BAAI/bge-base-en-v1.5",
		ModelNote: "vLLM serves one model per server: vllm serve Qwen/Qwen2.5-7B-Instruct, and vllm serve BAAI/bge-base-en-v1.5 --port 8001 for embeddings"},
	{Kind: llm.ServerLMStudio, Label: "LM Studio", BaseURL: "http://localhost:1234/v1", EmbedURL: "http://localhost:1234/v1",
		Chat: "qwen2.5-7b-instruct", Grounding: "qwen2.5-1.5b-instruct", Embedding: "text-embedding-nomic-embed-text-v1.5",
		Pull: "lms get %s"},
}

func presetFor(kind string) (serverPreset, bool) {
	for _, p := range serverPresets {
		if string(p.Kind) == strings.ToLower(strings.TrimSpace(kind)) {
			return p, true
		}
	}
	return serverPreset{}, false
}

func presetKinds() string {
	var out []string
	for _, p := range serverPresets {
		out = append(out, string(p.Kind))
	}
	return strings.Join(out, ", ")
}

// setupChoice is what gear setup writes.
type setupChoice struct {
	preset                     serverPreset
	baseURL, embedURL          string
	chat, grounding, embedding string
	keyEnv                     string
}

func (a *app) setupCommand() *cobra.Command {
	var server, baseURL string
	var force, noTest bool
	cmd := &cobra.Command{
		Use:   "setup",
		Short: "Connect gear to a model server (OpenAI, Ollama, llama.cpp, vLLM, LM Studio): write the config and test it",
		Long: `gear setup asks which server runs your models, proposes models for gear's
three roles — the chat model, the small grounding model and the embedding
model — writes the config file, then checks that the server answers and
has those models. Everything works without it: gear's offline engine
grounds and runs the tools with no model at all.

On a terminal it is a form (ctrl+c leaves it, writing nothing). Without
one, name the server: gear setup --server ollama, with --base-url,
--chat-model, --slm-model, --embed-model and --embed-url to change what it
proposes. An existing config file is kept unless --force (or the form's
answer) replaces it. API keys are never written: the file names the
environment variable that holds the key.`,
		Args: cobra.NoArgs,
		// A broken config file is what setup replaces: it must not stop it.
		PersistentPreRunE: func(*cobra.Command, []string) error { a.loadConfigOrDefaults(); return nil },
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			path, _ := config.FilePath(a.configPath, a.deps.Getenv)
			if path == "" {
				return usageErrorf("setup: no place for the config file: set HOME or XDG_CONFIG_HOME, or pass --config FILE")
			}
			var choice setupChoice
			interactive := server == "" && a.deps.IsTerminal && a.deps.StdinIsTerminal
			switch {
			case interactive:
				var err error
				if choice, force, err = a.setupForm(ctx, path); err != nil {
					return err
				}
			case server == "":
				return usageErrorf("setup: not on a terminal, so gear cannot ask: name the server with --server (%s)", presetKinds())
			default:
				p, ok := presetFor(server)
				if !ok {
					return usageErrorf("setup: unknown server %q: want one of %s", server, presetKinds())
				}
				choice = a.choiceFromFlags(p, baseURL)
			}
			if _, err := os.Stat(path); err == nil && !force {
				return usageErrorf("setup: %s exists; run again with --force to replace it", path)
			}
			if err := writeConfigFile(path, setupYAML(choice)); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "Wrote %s (%s: chat %s, grounding %s, embeddings %s).\n", sanitize.Line(path), choice.preset.Label,
				sanitize.Line(choice.chat), sanitize.Line(choice.grounding), sanitize.Line(choice.embedding))
			if noTest {
				return nil
			}
			return a.testConnection(ctx, out, choice)
		},
	}
	f := cmd.Flags()
	f.StringVar(&server, "server", "", "the server kind: "+presetKinds())
	f.StringVar(&baseURL, "base-url", "", "the server's base URL (default: the kind's usual one)")
	f.BoolVar(&force, "force", false, "replace an existing config file")
	f.BoolVar(&noTest, "no-test", false, "write the file without testing the connection")
	return cmd
}

// loadConfigOrDefaults loads the configuration, or the defaults (with the
// flags) when the file cannot be read.
func (a *app) loadConfigOrDefaults() {
	if err := a.loadConfig(); err != nil {
		a.cfg = config.Defaults()
		_ = a.models.apply(&a.cfg)
	}
}

// choiceFromFlags is the preset with the global model flags over it.
func (a *app) choiceFromFlags(p serverPreset, baseURL string) setupChoice {
	c := setupChoice{preset: p, baseURL: p.BaseURL, embedURL: p.EmbedURL, chat: p.Chat, grounding: p.Grounding,
		embedding: p.Embedding, keyEnv: p.KeyEnv}
	if baseURL != "" {
		c.baseURL = baseURL
		if p.EmbedURL == p.BaseURL {
			c.embedURL = baseURL
		}
	}
	m := a.models
	for _, o := range []struct {
		dst *string
		v   string
	}{
		{&c.chat, m.chatModel}, {&c.grounding, m.slmModel}, {&c.embedding, m.embedModel}, {&c.embedURL, m.embedURL},
	} {
		if o.v != "" {
			*o.dst = o.v
		}
	}
	return c
}

// setupForm asks, in two pages: the server, then its addresses and models
// proposed for it. ctrl+c leaves without writing anything.
func (a *app) setupForm(ctx context.Context, path string) (setupChoice, bool, error) {
	opts := []tea.ProgramOption{tea.WithInput(a.deps.Stdin), tea.WithOutput(a.deps.Stdout)}
	run := func(f *huh.Form) error {
		err := f.WithProgramOptions(opts...).RunWithContext(ctx)
		if errors.Is(err, huh.ErrUserAborted) || ctx.Err() != nil {
			return errSetupCancelled
		}
		return err
	}
	var kind string
	options := make([]huh.Option[string], len(serverPresets))
	for i, p := range serverPresets {
		options[i] = huh.NewOption(p.Label, string(p.Kind))
	}
	if err := run(huh.NewForm(huh.NewGroup(huh.NewSelect[string]().Title("Which server runs your models?").
		Description("gear works offline without one; a server adds conversation and model grounding.").
		Options(options...).Value(&kind)))); err != nil {
		return setupChoice{}, false, err
	}
	p, _ := presetFor(kind)
	c := a.choiceFromFlags(p, "")
	notEmpty := func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New("this cannot be empty")
		}
		return nil
	}
	fields := []huh.Field{
		huh.NewInput().Title("Base URL").Value(&c.baseURL).Validate(notEmpty),
		huh.NewInput().Title("Chat model").Description("answers and converses").Value(&c.chat).Validate(notEmpty),
		huh.NewInput().Title("Grounding model").Description("the small model GEAR asks for a preliminary answer and each tool's call").Value(&c.grounding).Validate(notEmpty),
		huh.NewInput().Title("Embedding model").Description(p.ModelNote).Value(&c.embedding).Validate(notEmpty),
		huh.NewInput().Title("Embeddings base URL").Value(&c.embedURL).Validate(notEmpty),
	}
	if p.KeyEnv != "" {
		fields = append(fields, huh.NewInput().Title("Environment variable holding the API key").
			Description("the key itself is never written to the file").Value(&c.keyEnv).Validate(notEmpty))
	}
	replace := true
	if _, err := os.Stat(path); err == nil {
		fields = append(fields, huh.NewConfirm().Title("Replace "+path+"?").Value(&replace))
	}
	if err := run(huh.NewForm(huh.NewGroup(fields...).Title(p.Label))); err != nil {
		return setupChoice{}, false, err
	}
	if !replace {
		return setupChoice{}, false, errSetupCancelled
	}
	for _, s := range []*string{&c.baseURL, &c.embedURL, &c.chat, &c.grounding, &c.embedding, &c.keyEnv} {
		*s = strings.TrimSpace(*s)
	}
	return c, true, nil
}

// errSetupCancelled is the form left with ctrl+c or esc.
var errSetupCancelled = errors.New("setup cancelled: nothing was written")

// setupYAML is the config file for the choice, with comments.
func setupYAML(c setupChoice) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# gear's configuration, written by gear setup for %s.\n", c.preset.Label)
	b.WriteString("# gear config shows what each role uses; gear config init writes a template\n")
	b.WriteString("# with every setting. Precedence: flags > environment > this file > defaults.\n")
	b.WriteString("models:\n")
	role := func(name, comment, url, model string) {
		fmt.Fprintf(&b, "  # %s\n  %s:\n", comment, name)
		fmt.Fprintf(&b, "    server: %s\n    base_url: %s\n    model: %s\n", c.preset.Kind, yamlString(url), yamlString(model))
		if c.keyEnv != "" {
			fmt.Fprintf(&b, "    api_key_env: %s\n", yamlString(c.keyEnv))
		}
	}
	role("chat", "The chat model: answers and converses.", c.baseURL, c.chat)
	role("grounding", "The small model GEAR asks for a preliminary answer and each tool's call.", c.baseURL, c.grounding)
	role("embedding", "The embedding model: the semantic score of each tool.", c.embedURL, c.embedding)
	return b.String()
}

// yamlString quotes s for YAML when it needs it.
func yamlString(s string) string {
	if s == "" || strings.ContainsAny(s, ":#'\"{}[],&*!|>%@`") || strings.TrimSpace(s) != s {
		if strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
			if !strings.ContainsAny(s, "#'\" ") {
				return s
			}
		}
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

// writeConfigFile writes the file readable by its owner only (it may
// later hold a key), making its directory.
func writeConfigFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	return nil
}

// testConnection checks each server of the choice once: it answers, takes
// the key, and has the models. A failure is reported, and exits 1, but
// the file stays written: the server may just not be started yet.
func (a *app) testConnection(ctx context.Context, out io.Writer, c setupChoice) error {
	cfg := a.cfg
	cfg.Offline = false
	for _, r := range []struct {
		role       *config.Role
		url, model string
	}{{&cfg.Models.Chat, c.baseURL, c.chat}, {&cfg.Models.Grounding, c.baseURL, c.grounding}, {&cfg.Models.Embedding, c.embedURL, c.embedding}} {
		*r.role = config.Role{Server: string(c.preset.Kind), BaseURL: r.url, Model: r.model, APIKeyEnv: c.keyEnv}
		if c.keyEnv != "" {
			r.role.APIKey = config.Secret(a.deps.Getenv(c.keyEnv))
		}
	}
	fmt.Fprintln(out, "Testing the connection:")
	listed := map[string][]string{}
	failed := 0
	for _, role := range llm.Roles() {
		ep := llm.Resolve(cfg, role)
		models, seen := listed[ep.BaseURL]
		var err error
		if !seen {
			var cl *llm.Client
			if cl, err = llm.New(ep, llm.WithHTTPClient(a.deps.HTTP)); err == nil {
				models, err = cl.Models(ctx, pingTimeout)
			}
			if err == nil {
				listed[ep.BaseURL] = models
			}
		}
		switch {
		case err != nil:
			failed++
			fmt.Fprintf(out, "  %-10s %s\n", role, connectionProblem(err, ep.BaseURL))
		case len(models) > 0 && !slices.Contains(models, ep.Model):
			failed++
			hint := "the server lists " + strings.Join(firstN(models, 5), ", ")
			if c.preset.Pull != "" {
				hint = "get it with: " + fmt.Sprintf(c.preset.Pull, ep.Model)
			}
			fmt.Fprintf(out, "  %-10s %s answers, but has no model %s; %s\n", role, sanitize.Line(ep.BaseURL), sanitize.Line(ep.Model), sanitize.Line(hint))
		default:
			fmt.Fprintf(out, "  %-10s ok: %s at %s\n", role, sanitize.Line(ep.Model), sanitize.Line(ep.BaseURL))
		}
	}
	if failed > 0 {
		fmt.Fprintln(out, "The file is written; fix the above (or start the server), then check again with gear setup or gear ask.")
		return fmt.Errorf("setup: %d of 3 model roles cannot be used yet (the config file is written)", failed)
	}
	fmt.Fprintln(out, "All three roles answer. Try: gear ask \"what is 17 * 23\", or gear for the chat window.")
	return nil
}

// connectionProblem says in a few words why a server failed the test:
// where, what, and what to do.
func connectionProblem(err error, baseURL string) string {
	var le *llm.Error
	if !errors.As(err, &le) {
		return oneLine(err.Error())
	}
	msg := sanitize.Line(baseURL) + ": " + string(le.Kind)
	if le.Status != 0 {
		msg += fmt.Sprintf(" (HTTP %d)", le.Status)
	}
	switch {
	case errors.Is(err, llm.ErrUnreachable), errors.Is(err, llm.ErrTimeout):
		msg += "; is the server running there?"
	case errors.Is(err, llm.ErrAuth):
		msg += "; check the key in the environment variable the file names"
	case le.Hint != "":
		msg += "; " + oneLine(le.Hint)
	}
	return msg
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "…")
	}
	return s
}
