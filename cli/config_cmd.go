package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"

	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/sanitize"
)

// modelFlags pick a model and server per role; they beat the environment
// and the config file.
type modelFlags struct {
	chatModel, chatURL, slmModel, slmURL, embedModel, embedURL string
}

func (f *modelFlags) register(pf *pflag.FlagSet) {
	pf.StringVar(&f.chatModel, "chat-model", "", "chat LLM model (GEAR_CHAT_MODEL)")
	pf.StringVar(&f.chatURL, "chat-url", "", "chat LLM base URL, e.g. http://localhost:11434/v1 (GEAR_CHAT_BASE_URL)")
	pf.StringVar(&f.slmModel, "slm-model", "", "grounding SLM model (GEAR_GROUNDING_MODEL)")
	pf.StringVar(&f.slmURL, "slm-url", "", "grounding SLM base URL (GEAR_GROUNDING_BASE_URL)")
	pf.StringVar(&f.embedModel, "embed-model", "", "embedding model (GEAR_EMBEDDING_MODEL)")
	pf.StringVar(&f.embedURL, "embed-url", "", "embedding model base URL (GEAR_EMBEDDING_BASE_URL)")
}

// apply sets the flags given over the loaded configuration.
func (f modelFlags) apply(cfg *config.Config) error {
	for _, s := range []struct {
		role       *config.Role
		model, url string
	}{
		{&cfg.Models.Chat, f.chatModel, f.chatURL},
		{&cfg.Models.Grounding, f.slmModel, f.slmURL},
		{&cfg.Models.Embedding, f.embedModel, f.embedURL},
	} {
		if s.model != "" {
			s.role.Model = s.model
		}
		if s.url != "" {
			s.role.BaseURL = s.url
		}
	}
	if err := cfg.Models.Validate(); err != nil {
		return usageError{err}
	}
	return nil
}

func (a *app) configCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show which engine each model role uses, and the effective configuration",
		Long: `Shows, for the chat LLM, the grounding SLM and the embedding model, whether
the built-in offline engine or a server is used (kind, base URL, model, where
the key comes from — never the key), then the whole effective configuration.
Precedence: flags > environment > config file > defaults.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "Config file: %s\n\n", a.configFileStatus())
			fmt.Fprintln(out, "Model roles (flags > environment > config file > defaults):")
			writeEngines(out, a.cfg)
			fmt.Fprintf(out, "\nWith only OPENAI_API_KEY or OPENAI_BASE_URL set, a role that names no server of its own\n"+
				"uses %s (chat), %s (grounding) and %s (embedding) there;\n"+
				"OPENAI_API_KEY is only sent to OPENAI_BASE_URL (default %s).\n\n",
				llm.DefaultChatModel, llm.DefaultGroundingModel, llm.DefaultEmbeddingModel, llm.OpenAIBaseURL)
			fmt.Fprintln(out, "Effective configuration (keys redacted):")
			data, err := yaml.Marshal(a.cfg)
			if err != nil {
				return fmt.Errorf("config: %w", err)
			}
			_, err = io.WriteString(out, sanitize.Text(config.RedactText(string(data))))
			return err
		},
	}
	cmd.AddCommand(a.configInitCommand())
	return cmd
}

// writeEngines prints one line per model role: offline, or the server.
func writeEngines(w io.Writer, cfg config.Config) {
	for _, role := range llm.Roles() {
		fmt.Fprintf(w, "  %-10s %s\n", role, sanitize.Line(llm.Resolve(cfg, role).Describe()))
	}
}

func (a *app) configFileStatus() string {
	path, how := config.FilePath(a.configPath, a.deps.Getenv)
	if path == "" {
		return "none (neither XDG_CONFIG_HOME nor HOME is set)"
	}
	status := "read"
	if _, err := os.Stat(path); err != nil {
		status = "not found, defaults used"
	}
	return fmt.Sprintf("%s (%s; %s)", sanitize.Line(path), how, strings.TrimSpace(status))
}
