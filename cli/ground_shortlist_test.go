package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/cli"
)

// gear ground shows the shortlist and its cut: with grounding.shortlist 2
// the model engine calls the small model for two tools (and â), and the
// other tools are listed below the cut, not called.
func TestGroundShowsShortlist(t *testing.T) {
	srv, hs := newModelServer(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "gear.yaml")
	if err := os.WriteFile(cfg, []byte("grounding:\n  shortlist: 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"HOME": dir, "GEAR_DB": filepath.Join(dir, "gear.db"),
		"GEAR_GROUNDING_MODEL": "small", "GEAR_GROUNDING_BASE_URL": hs.URL + "/v1", "GEAR_GROUNDING_SERVER": "openai",
		"GEAR_EMBEDDING_MODEL": "text-embedding-3-small", "GEAR_EMBEDDING_BASE_URL": hs.URL + "/v1", "GEAR_EMBEDDING_SERVER": "openai",
	}
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), []string{"--config", cfg, "ground", "what is 48 multiplied by 4 divided by 2"}, cli.Deps{
		Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }, HTTP: hs.Client(),
		Now: func() time.Time { return time.Date(2026, 5, 14, 15, 0, 0, 0, time.UTC) },
	})
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"-- shortlist cut: ", "of 8 tools called (top 2 by max(description, best example)", "(not shortlisted: not called)",
		"choice: Calculator"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	srv.mu.Lock()
	calls := srv.slmCalls
	srv.mu.Unlock()
	if calls < 3 || calls > 5 {
		t.Errorf("%d small-model calls, want k + 1 = 3 (at most 2k + 1 when the prefilter missed)", calls)
	}
}
