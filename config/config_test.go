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
		{"bad GEAR_OFFLINE", "", map[string]string{"GEAR_OFFLINE": "perhaps"}, `GEAR_OFFLINE="perhaps"`},
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
		"%s":  fmt.Sprintf("%s", r.APIKey),
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
