package cli

import (
	"errors"
	"testing"

	"github.com/spf13/cobra"
)

func TestEveryCommandHasAnExample(t *testing.T) {
	t.Parallel()
	root := newApp(Deps{}).rootCommand()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Example == "" {
			t.Errorf("%q has no Example", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// Exit codes come from the error's type: a message that merely reads like
// cobra's is a run-time failure, and cobra's own argument errors are
// usage errors because they are typed where they arise.
func TestExitCodeByTypeNotText(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{"requires at least 1 arg(s)", "unknown command \"x\"", "accepts 1 arg(s)", "unknown flag: --x"} {
		if got := exitCode(errors.New(msg)); got != ExitFailure {
			t.Errorf("exitCode(%q) = %d: a plain error is a failure, whatever it says", msg, got)
		}
	}
	check := usageArgs(cobra.ExactArgs(1))
	if got := exitCode(check(&cobra.Command{Use: "x"}, nil)); got != ExitUsage {
		t.Errorf("a wrapped argument check's error exits %d, want %d", got, ExitUsage)
	}
}

func TestEnvironmentModelsNamesOpenAI(t *testing.T) {
	t.Parallel()
	a := newApp(Deps{Getenv: func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-x"}[k] }})
	if err := a.loadConfig(); err != nil {
		t.Fatal(err)
	}
	want := "using OpenAI for chat, grounding and embeddings (OPENAI_API_KEY is set) — gear config shows the models, gear setup changes them"
	if got := a.environmentModels(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
