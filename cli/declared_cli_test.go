package cli_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gear-chat/gear/cli"
)

// replayOnly serves body for exactly one request path and query, any
// number of times, and fails the test on any other request.
func replayOnly(t *testing.T, path, rawQuery string, body []byte) (*httptest.Server, func() int) {
	t.Helper()
	var mu sync.Mutex
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != path || r.URL.RawQuery != rawQuery {
			t.Errorf("unexpected request %s %s", r.Method, r.URL)
			http.Error(w, "unexpected request", http.StatusTeapot)
			return
		}
		if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "gear/") {
			t.Errorf("User-Agent %q", ua)
		}
		mu.Lock()
		hits++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, func() int { mu.Lock(); defer mu.Unlock(); return hits }
}

// installDeclared copies a docs/tools example into a config directory's
// tools/ folder, pointing its service at base, and returns the config
// home (XDG_CONFIG_HOME) and the file's path.
func installDeclared(t *testing.T, example, service, base string) (string, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "tools", example))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), service) {
		t.Fatalf("%s does not name %s", example, service)
	}
	home := t.TempDir()
	dir := filepath.Join(home, "gear", "tools")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, example)
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(data), service, base)), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, path
}

// Must show: a declared http tool in the config directory's
// tools/ folder — a YAML file, no Go — is grounded, called and answered
// offline. Grounding picks it from its description and examples, the
// call is emitted under the ToolDec machine and run against a replay of
// the real service, and the answer is printed with the tool's name.
func TestAskOfflineDeclaredHTTPTool(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile(filepath.Join("testdata", "declared", "forecast_current_weather_berlin.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv, hits := replayOnly(t, "/v1/forecast", "current_weather=true&latitude=52.52&longitude=13.41", body)
	home, _ := installDeclared(t, "elevation.yaml", "https://api.open-meteo.com", srv.URL)
	env := map[string]string{"XDG_CONFIG_HOME": home}
	hc := &http.Client{Transport: onlyHost{t, strings.TrimPrefix(srv.URL, "http://")}}

	code, stdout, stderr := runAskHTTP(t, hc, env, "ask", "--offline", "what is the elevation at latitude 52.52, longitude 13.41")
	if code != cli.ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if strings.Contains(stderr, "warning") {
		t.Errorf("stderr %q", stderr)
	}
	t.Logf("gear ask --offline:\n%s", stdout)
	for _, want := range []string{"38 m above sea level at 52.52, 13.419998\n", "— Elevation", " · tool ", "grounding: offline engine"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout %q lacks %q", stdout, want)
		}
	}
	if hits() == 0 {
		t.Error("the tool never reached the service")
	}

	// --json shows the call the offline engine wrote, accepted by the
	// Elevation tool's ToolDec machine, and the tool's answer.
	code, stdout, stderr = runAskHTTP(t, hc, env, "ask", "--offline", "--json", "what is the elevation at latitude 52.52, longitude 13.41")
	if code != cli.ExitOK {
		t.Fatalf("--json: exit %d, stderr %q", code, stderr)
	}
	var turn struct {
		AnsweredBy string `json:"answered_by"`
		Emission   struct {
			Path     string `json:"path"`
			Tool     string `json:"tool"`
			Call     string `json:"call"`
			Rejected bool   `json:"rejected"`
		} `json:"emission"`
		Call struct {
			Response string `json:"response"`
		} `json:"call"`
	}
	if err := json.Unmarshal([]byte(stdout), &turn); err != nil {
		t.Fatalf("--json: %v in %q", err, stdout)
	}
	e := turn.Emission
	if e.Path != "offline" || e.Tool != "Elevation" || e.Call != "Elevation(52.52, 13.41)" || e.Rejected ||
		turn.AnsweredBy != "tool" || turn.Call.Response != "38 m above sea level at 52.52, 13.419998" {
		t.Errorf("--json: %+v", turn)
	}
}

// Declared tools from --tools files and the tools/ folder are listed and
// run beside the built-ins; a broken file is a warning with file:line,
// and everything else still works; a declared tool cannot take a
// built-in's name; a --tools file that is not there stops the command.
func TestDeclaredToolsCLI(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dir := filepath.Join(home, "gear", "tools")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	broken := write("broken.yaml", "name: Broken\ndescription: [oops\n")
	clash := write("clash.yml", "name: Calculator\ndescription: Not the real one.\nhttp: {url: \"https://example.org\"}\n")
	env := map[string]string{"XDG_CONFIG_HOME": home, "PATH": os.Getenv("PATH")}
	translate := filepath.Join("..", "docs", "tools", "translate-zh.yaml")

	code, stdout, stderr := runAsk(t, env, "--tools", translate, "tools")
	if code != cli.ExitOK {
		t.Fatalf("tools: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"Calculator(", "TranslateToChinese(text: string)", "WordCount(text: string)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("gear tools lacks %q", want)
		}
	}
	for _, want := range []string{
		"gear: warning: " + broken + ":2: not valid YAML",
		"gear: warning: " + clash + ": tool Calculator: the built-in tool of that name comes first; rename the declared one (skipped)",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	if strings.Count(stderr, "\n") != 2 {
		t.Errorf("each problem once: %q", stderr)
	}

	// A file in tools/ named again with --tools loads once.
	code, _, stderr = runAsk(t, env, "--tools", clash, "--tools", filepath.Join(dir, ".", "clash.yml"), "tools")
	if code != cli.ExitOK || strings.Count(stderr, "\n") != 2 {
		t.Errorf("the same file twice: exit %d, stderr %q", code, stderr)
	}

	code, stdout, stderr = runAsk(t, env, "--tools", translate, "tool", `WordCount("one; two $(three) | four")`)
	if code != cli.ExitOK || stdout != "5\n" {
		t.Errorf("WordCount: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// The built-in Calculator is the real one.
	code, stdout, _ = runAsk(t, env, "tool", `Calculator(2 + 2)`)
	if code != cli.ExitOK || stdout != "4\n" {
		t.Errorf("Calculator: exit %d, stdout %q", code, stdout)
	}

	code, _, stderr = runAsk(t, env, "--tools", filepath.Join(home, "nope.yaml"), "tools")
	if code != cli.ExitUsage || stderr != "gear: --tools "+filepath.Join(home, "nope.yaml")+": cannot read the file: no such file or directory\n" {
		t.Errorf("missing --tools file: exit %d, stderr %q", code, stderr)
	}
}

// A declared tool reads the real MyMemory answer (which starts with a
// CRLF before its JSON) through its JSON pointer.
func TestDeclaredTranslateTool(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile(filepath.Join("testdata", "declared", "get_en_zh-CN_hello_world.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv, hits := replayOnly(t, "/get", "langpair=en%7Czh-CN&q=hello+world", body)
	home, _ := installDeclared(t, "translate-zh.yaml", "https://api.mymemory.translated.net", srv.URL)
	hc := &http.Client{Transport: onlyHost{t, strings.TrimPrefix(srv.URL, "http://")}}
	code, stdout, stderr := runAskHTTP(t, hc, map[string]string{"XDG_CONFIG_HOME": home}, "tool", `TranslateToChinese("hello world")`)
	if code != cli.ExitOK || stdout != "你好，世界\n" || hits() != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q, %d requests", code, stdout, stderr, hits())
	}
	code, stdout, _ = runAskHTTP(t, hc, map[string]string{"XDG_CONFIG_HOME": home}, "tool", "--json", `TranslateToChinese("hello world")`)
	var run struct {
		Tool     string `json:"tool"`
		Response string `json:"response"`
		Data     string `json:"data"`
	}
	if err := json.Unmarshal([]byte(stdout), &run); code != cli.ExitOK || err != nil ||
		run.Tool != "TranslateToChinese" || run.Response != "你好，世界" || run.Data != "你好，世界" {
		t.Errorf("--json: exit %d, %q (%v)", code, stdout, err)
	}
}

// A declared tool's grounding: block reaches the offline engine: with it,
// a question in its subject's words is grounded to the tool; the same
// file without it leaves a question in words only the hints have to no
// tool.
func TestDeclaredGroundingHints(t *testing.T) {
	t.Parallel()
	// Once grounding can write the call, it may run the tool to score it:
	// a replay server answers that one request.
	body, err := os.ReadFile(filepath.Join("testdata", "declared", "get_en_zh-CN_hello_world.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := replayOnly(t, "/get", "langpair=en%7Czh-CN&q=thank+you+very+much", body)
	hc := &http.Client{Transport: onlyHost{t, strings.TrimPrefix(srv.URL, "http://")}}
	ground := func(t *testing.T, strip bool, query string) (string, float64) {
		home, path := installDeclared(t, "translate-zh.yaml", "https://api.mymemory.translated.net", srv.URL)
		if strip {
			data, _ := os.ReadFile(path)
			s := string(data)
			start, end := strings.Index(s, "    grounding:\n"), strings.Index(s, "    http:\n")
			if start < 0 || end < start {
				t.Fatal("no grounding block in the example")
			}
			if err := os.WriteFile(path, []byte(s[:start]+s[end:]), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		code, stdout, stderr := runAskHTTP(t, hc, map[string]string{"XDG_CONFIG_HOME": home}, "ground", "--offline", "--json", query)
		if code != cli.ExitOK {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		var res struct {
			Choice struct {
				Tool       string  `json:"tool"`
				Confidence float64 `json:"confidence"`
			} `json:"choice"`
		}
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatal(err)
		}
		return res.Choice.Tool, res.Choice.Confidence
	}
	tool, conf := ground(t, false, "Chinese for thank you very much")
	if tool != "TranslateToChinese" || conf < 0.5 {
		t.Errorf("with hints: %s at %.2f, want TranslateToChinese above 0.5", tool, conf)
	}
	// Without hints the tool is still found by its description and
	// examples (the library index); a word only its hints have shows
	// that they reach the engine.
	const hinted = "Mandarin for thank you very much"
	if tool, conf = ground(t, false, hinted); tool != "TranslateToChinese" {
		t.Errorf("with hints: %q grounded to %s at %.2f, want TranslateToChinese", hinted, tool, conf)
	}
	if tool, conf = ground(t, true, hinted); tool == "TranslateToChinese" {
		t.Errorf("without hints: %s at %.2f (the test would not show the hints matter)", tool, conf)
	}
}

// Grounding never runs a declared tool that may write just to score it:
// it reads the tool's mock (here the default one, its arguments), and the
// program does not run.
func TestDeclaredWritingToolNotRunByGrounding(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dir := filepath.Join(home, "gear", "tools")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	ran := filepath.Join(home, "RAN")
	decl := `name: SaveNote
description: Saves a note to the notes file, to remember something for later.
parameters:
  type: object
  properties:
    text: {type: string, description: what to note}
  required: [text]
examples:
  - query: note that the meeting moved to Friday
    call: SaveNote("the meeting moved to Friday")
command:
  argv: [touch, ` + ran + `]
`
	if err := os.WriteFile(filepath.Join(dir, "note.yaml"), []byte(decl), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_CONFIG_HOME": home, "PATH": os.Getenv("PATH")}
	code, stdout, stderr := runAsk(t, env, "ground", "--offline", "--json", "note that the keys are in the drawer")
	if code != cli.ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var res struct {
		Tools []struct {
			Tool, Status, Call string
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ts := range res.Tools {
		if ts.Tool == "SaveNote" {
			found = true
			if ts.Status != "mock" || ts.Call == "" {
				t.Errorf("SaveNote scored by %q (call %q), want its mock", ts.Status, ts.Call)
			}
		}
	}
	if !found {
		t.Error("SaveNote is not in the library")
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("grounding ran the tool")
	}
}

// A declared tool with a string parameter and grounding hints, from the
// docs' example file, is grounded, called and answered offline from a
// natural request: the offline engine reads the text to translate out of
// it by the parameter's type.
func TestAskOfflineDeclaredTranslation(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile(filepath.Join("testdata", "declared", "get_en_zh-CN_hello_world.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv, hits := replayOnly(t, "/get", "langpair=en%7Czh-CN&q=hello+world", body)
	home, _ := installDeclared(t, "translate-zh.yaml", "https://api.mymemory.translated.net", srv.URL)
	hc := &http.Client{Transport: onlyHost{t, strings.TrimPrefix(srv.URL, "http://")}}
	code, stdout, stderr := runAskHTTP(t, hc, map[string]string{"XDG_CONFIG_HOME": home, "PATH": os.Getenv("PATH")},
		"ask", "--offline", "translate hello world into Chinese")
	if code != cli.ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"你好，世界\n", "— TranslateToChinese", " · tool ", "grounding: offline engine"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout %q lacks %q", stdout, want)
		}
	}
	if hits() == 0 {
		t.Error("the tool never reached the service")
	}
}
