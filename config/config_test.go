package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

func envOf(m map[string]string) Getenv { return func(k string) string { return m[k] } }

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadLayers(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "gear/config.yaml", `
home: Lisbon
db: /from/file.db
tools:
  timeout: 3s
  weather:
    units: imperial
grounding:
  gamma: 0.5
  route: model
`)
	tests := []struct {
		name  string
		path  string
		env   map[string]string
		check func(t *testing.T, c Config)
	}{
		{"defaults without a file", "", map[string]string{"HOME": dir + "/nohome"}, func(t *testing.T, c Config) {
			d := Defaults()
			if c.Tools.Timeout != d.Tools.Timeout || c.Grounding != d.Grounding || !reflect.DeepEqual(c.Agent, d.Agent) {
				t.Fatalf("not the defaults: %+v", c)
			}
			if c.DB != filepath.Join(dir, "nohome", ".local", "share", "gear", "gear.db") {
				t.Fatalf("db %q", c.DB)
			}
		}},
		{"the XDG file is read", "", map[string]string{"XDG_CONFIG_HOME": dir}, func(t *testing.T, c Config) {
			if c.Home != "Lisbon" || c.DB != "/from/file.db" || c.Tools.Timeout.D() != 3*time.Second ||
				c.Tools.Weather.Units != "imperial" || c.Grounding.Gamma != 0.5 || c.Grounding.Route != "model" {
				t.Fatalf("file not applied: %+v", c)
			}
			if c.Grounding.Lambda != 1 || c.Tools.Weather.BaseURL != Defaults().Tools.Weather.BaseURL {
				t.Fatal("keys the file leaves out must keep their defaults")
			}
		}},
		{"the environment wins over the file", file, map[string]string{"GEAR_DB": "/from/env.db", "GEAR_OFFLINE": "true", "GEAR_HOME_PLACE": "Oslo"}, func(t *testing.T, c Config) {
			if c.DB != "/from/env.db" || !c.Offline || c.Home != "Oslo" {
				t.Fatalf("env not applied: %+v", c)
			}
		}},
		{"GEAR_CONFIG names the file", "", map[string]string{"GEAR_CONFIG": file}, func(t *testing.T, c Config) {
			if c.Home != "Lisbon" {
				t.Fatal("GEAR_CONFIG ignored")
			}
		}},
		{"an empty file is the defaults", writeFile(t, dir, "empty.yaml", "\n"), nil, func(t *testing.T, c Config) {
			if c.Grounding != Defaults().Grounding {
				t.Fatal("empty file changed something")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(tt.path, envOf(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestLoadRefusesBrokenConfig(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, body string
		env        map[string]string
		want       string
	}{
		{"bad yaml", "tools: [\n", nil, "did not find expected node content"},
		{"unknown key", "toolz: 1\n", nil, `line 1: unknown key "toolz"`},
		{"unknown nested key", "tools:\n  weather:\n    unit: metric\n", nil, `line 3: unknown key "unit"`},
		{"bad duration", "tools:\n  timeout: forever\n", nil, `line 2: duration "forever"`},
		{"bad units", "tools:\n  weather:\n    units: kelvin\n", nil, "tools.weather.units is \"kelvin\""},
		{"negative timeout", "tools:\n  timeout: -1s\n", nil, "tools.timeout must be positive"},
		{"gamma out of range", "grounding:\n  gamma: 2\n", nil, "grounding.gamma is 2"},
		{"threshold out of range", "grounding:\n  threshold: -0.1\n", nil, "grounding.threshold"},
		{"zero temperature", "grounding:\n  temperature: 0\n", nil, "grounding.temperature must be positive"},
		{"bad route", "grounding:\n  route: sometimes\n", nil, `grounding.route is "sometimes"`},
		{"confirm out of range", "agent:\n  confirm_below: 3\n", nil, "agent.confirm_below"},
		{"call confirm out of range", "agent:\n  confirm_call_below: 1.5\n", nil, "agent.confirm_call_below"},
		{"offer out of range", "agent:\n  offer_tools_below: -1\n", nil, "agent.offer_tools_below"},
		{"bad GEAR_OFFLINE", "", map[string]string{"GEAR_OFFLINE": "perhaps"}, `GEAR_OFFLINE="perhaps"`},
		// NaN passes any check written "x < lo || x > hi": every number
		// is refused non-finite, by its name.
		{"NaN temperature", "models:\n  chat:\n    temperature: .nan\n", nil, "models.chat.temperature is NaN; want a finite number"},
		{"NaN temperature from the environment", "", map[string]string{"GEAR_CHAT_TEMPERATURE": "NaN"}, "models.chat.temperature is NaN"},
		{"Inf lambda", "grounding:\n  lambda: .inf\n", nil, "grounding.lambda is +Inf; want a finite number"},
		{"NaN none score", "grounding:\n  none_score: .nan\n", nil, "grounding.none_score is NaN"},
		{"NaN confirm", "agent:\n  confirm_below: .nan\n", nil, "agent.confirm_below is NaN"},
		{"NaN timeout", "tools:\n  timeout: NaN\n", nil, `duration "NaN"`},
		{"Inf timeout", "tools:\n  timeout: +Inf\n", nil, `duration "+Inf"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, dir, strings.ReplaceAll(tt.name, " ", "_")+".yaml", tt.body)
			_, err := Load(path, envOf(tt.env))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
		})
	}
	t.Run("missing explicit file", func(t *testing.T) {
		_, err := Load(filepath.Join(dir, "nope.yaml"), envOf(nil))
		if err == nil || !strings.Contains(err.Error(), "cannot read") || !strings.Contains(err.Error(), "no such file") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("unreadable default file", func(t *testing.T) {
		xdg := t.TempDir()
		if err := os.MkdirAll(filepath.Join(xdg, "gear", "config.yaml"), 0o700); err != nil {
			t.Fatal(err) // a directory where the file should be
		}
		if _, err := Load("", envOf(map[string]string{"XDG_CONFIG_HOME": xdg})); err == nil {
			t.Fatal("a default config path that cannot be read must be an error, not silently the defaults")
		}
	})
}

func TestSecretNeverPrints(t *testing.T) {
	const key = "sk-test-1234567890abcdef"
	r := Role{Model: "m", APIKey: Secret(key)}
	outs := map[string]string{
		"%v":  fmt.Sprintf("%v", r),
		"%+v": fmt.Sprintf("%+v", r),
		"%#v": fmt.Sprintf("%#v", r),
		//lint:ignore S1025 the test is of what the %s verb prints for a Secret
		"%s": fmt.Sprintf("%s", r.APIKey),
	}
	j, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	outs["json"] = string(j)
	y, err := yaml.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	outs["yaml"] = string(y)
	for how, out := range outs {
		if strings.Contains(out, key) || strings.Contains(out, "1234567890") {
			t.Errorf("%s shows the key: %s", how, out)
		}
		if !strings.Contains(out, "[redacted]") {
			t.Errorf("%s does not say the key is redacted: %s", how, out)
		}
	}
	if r.APIKey.Reveal() != key {
		t.Fatal("Reveal must give the key")
	}
	if Secret("").String() != "" {
		t.Fatal("an empty key prints as nothing")
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"10s", 10 * time.Second, true},
		{"250ms", 250 * time.Millisecond, true},
		{"1m30s", 90 * time.Second, true},
		{"5", 5 * time.Second, true},
		{"1.5", 1500 * time.Millisecond, true},
		{"soon", 0, false},
		{"NaN", 0, false},
		{"+Inf", 0, false},
		{"1e300", 0, false},
		{"5 s", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in)
		if (err == nil) != tt.ok || got.D() != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v", tt.in, got, err)
		}
	}
}

func TestDefaultPaths(t *testing.T) {
	if got := DefaultPath(envOf(map[string]string{"XDG_CONFIG_HOME": "/x"})); got != "/x/gear/config.yaml" {
		t.Fatal(got)
	}
	if got := DefaultPath(envOf(map[string]string{"HOME": "/h"})); got != "/h/.config/gear/config.yaml" {
		t.Fatal(got)
	}
	if got := DefaultDB(envOf(map[string]string{"XDG_DATA_HOME": "/d"})); got != "/d/gear/gear.db" {
		t.Fatal(got)
	}
	if got := DefaultDB(envOf(nil)); got != "gear.db" {
		t.Fatal(got)
	}
	c := Defaults()
	if c.WikiBaseURL() != "https://en.wikipedia.org" {
		t.Fatal(c.WikiBaseURL())
	}
	c.Tools.Wiki.Language = "de"
	if c.WikiBaseURL() != "https://de.wikipedia.org" {
		t.Fatal(c.WikiBaseURL())
	}
	c.Tools.Wiki.BaseURL = "http://mirror.local/"
	if c.WikiBaseURL() != "http://mirror.local" {
		t.Fatal(c.WikiBaseURL())
	}
}

func TestRedactURLUserinfo(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"http://user:pass@host:8080/v1", "http://[redacted]@host:8080/v1"},
		{"https://token@api.example.com/v1", "https://[redacted]@api.example.com/v1"},
		{"http://localhost:11434/v1", "http://localhost:11434/v1"},
		{`Post "http://u:p@h/v1/chat": refused; see http://other/x`, `Post "http://[redacted]@h/v1/chat": refused; see http://other/x`},
		{"mail me@example.org", "mail me@example.org"},
		{"http://host/path?x=a@b", "http://host/path?x=a@b"},
	}
	for _, c := range cases {
		if got := RedactText(c.in); got != c.want {
			t.Errorf("RedactText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A config file holding an API key that others can read gets one line of
// warning; one only its owner reads, or one without a key, gets none.
func TestReadableKeyFileWarns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	withKey := "models:\n  chat:\n    model: m\n    base_url: http://localhost:1/v1\n    api_key: sk-in-the-file\n"
	cases := []struct {
		name, body string
		mode       os.FileMode
		warn       bool
	}{
		{"key, group-readable", withKey, 0o640, true},
		{"key, world-readable", withKey, 0o644, true},
		{"key, owner only", withKey, 0o600, false},
		{"no key, world-readable", "db: x.db\n", 0o644, false},
	}
	for _, c := range cases {
		path := writeFile(t, dir, strings.ReplaceAll(c.name, " ", "_")+".yaml", c.body)
		if err := os.Chmod(path, c.mode); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load(path, envOf(nil))
		if err != nil {
			t.Fatal(err)
		}
		if (len(cfg.Warnings) == 1) != c.warn || len(cfg.Warnings) > 1 {
			t.Errorf("%s: warnings %q", c.name, cfg.Warnings)
		}
		for _, w := range cfg.Warnings {
			if !strings.Contains(w, "chmod 600") || strings.Contains(w, "sk-in-the-file") || strings.Contains(w, "\n") {
				t.Errorf("%s: warning %q", c.name, w)
			}
		}
	}
}

// A file of comments only (gear config init's template) sets nothing.
func TestCommentsOnlyFileIsDefaults(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("# every setting commented out\n# models:\n#   chat: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path, func(string) string { return "" })
	if err != nil {
		t.Fatalf("a comments-only file: %v", err)
	}
	if cfg.Grounding != Defaults().Grounding || !reflect.DeepEqual(cfg.Agent, Defaults().Agent) {
		t.Errorf("a comments-only file changed the defaults: %+v", cfg)
	}
}
