package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/sanitize"
)

func (a *app) configInitCommand() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Write a commented config file with every setting, to edit",
		Long: `Writes the config file (gear config shows where) with every setting
commented out at its default, so gear behaves as before until you
uncomment a line. gear setup writes the model settings for a server
interactively.`,
		Args:              cobra.NoArgs,
		PersistentPreRunE: func(*cobra.Command, []string) error { a.loadConfigOrDefaults(); return nil },
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, _ := config.FilePath(a.configPath, a.deps.Getenv)
			if path == "" {
				return usageErrorf("config init: no place for the config file: set HOME or XDG_CONFIG_HOME, or pass --config FILE")
			}
			if _, err := os.Stat(path); err == nil && !force {
				return usageErrorf("config init: %s exists; run again with --force to replace it", path)
			}
			if err := writeConfigFile(path, configTemplate()); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Wrote %s: every setting is commented out at its default; uncomment what you change.\n", sanitize.Line(path))
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "replace an existing config file")
	return cmd
}

// configTemplate is the commented config file: every setting at its
// default, commented out.
func configTemplate() string {
	d := config.Defaults()
	return fmt.Sprintf(`# gear's configuration. Every setting is commented out at its default:
# uncomment what you change. Precedence: flags > environment > this file >
# defaults; gear config shows the result. gear setup writes the models part
# for OpenAI, Ollama, llama.cpp, vLLM or LM Studio.

# The history database (GEAR_DB); empty is $XDG_DATA_HOME/gear/gear.db.
# db: ""
# Use the built-in offline engine for every model role (GEAR_OFFLINE).
# offline: false
# The place used when a query names none, e.g. "Adelaide" (GEAR_HOME_PLACE).
# home: ""

# models:
#   # A role without a model uses the offline engine. With only
#   # OPENAI_API_KEY set, every role uses OpenAI: %s (chat),
#   # %s (grounding), %s (embedding).
#   chat:
#     server: ollama             # openai, ollama, llamacpp, vllm, lmstudio or auto
#     base_url: http://localhost:11434/v1
#     model: qwen2.5:7b
#     api_key_env: ""            # the environment variable holding the key
#     timeout: 60s
#   grounding:                   # the small model: preliminary answer, tool calls
#     server: ollama
#     base_url: http://localhost:11434/v1
#     model: qwen2.5:1.5b
#   embedding:                   # the semantic score of each tool
#     server: ollama
#     base_url: http://localhost:11434/v1
#     model: nomic-embed-text

# tools:
#   timeout: %s                  # every network call's deadline
#   max_response_bytes: %d
#   weather:
#     units: %s                  # metric or imperial
#   wiki:
#     language: %s

# grounding:
#   gamma: %g                    # semantic vs pattern score
#   threshold: %g                # below this, a query needs no tool
#   route: ""                    # threshold, model or combined
#   tool_timeout: %s

# agent:
#   confirm_below: %g            # ask before running a tool grounding is less sure of
#   confirm_call_below: %g       # ask before running a call whose arguments it is less sure of
#   offer_tools_below: %g        # offer the closest tools when it is this unsure no tool is needed
#   context_tokens: %d           # earlier turns sent with a query
`, llm.DefaultChatModel, llm.DefaultGroundingModel, llm.DefaultEmbeddingModel,
		d.Tools.Timeout, d.Tools.MaxResponseBytes, d.Tools.Weather.Units, d.Tools.Wiki.Language,
		d.Grounding.Gamma, d.Grounding.Threshold, d.Grounding.ToolTimeout,
		d.Agent.ConfirmBelow, d.Agent.ConfirmCallBelow, d.Agent.OfferToolsBelow, d.Agent.ContextTokens)
}
