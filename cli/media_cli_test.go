package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/ui/termimg"
)

// mediaServer replays recorded bodies: POST /v1/images/generations (the
// dall-e-2 cassette, a real PNG), POST /v2/translate (DeepL's documented
// answer) and POST /translate (a LibreTranslate cassette). Anything else
// fails the test.
func mediaServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var images atomic.Int32
	body := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "media", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		switch {
		case r.Method == "POST" && r.URL.Path == "/v1/images/generations":
			images.Add(1)
			if !strings.Contains(string(raw), `"prompt":"red fox in the snow"`) {
				t.Errorf("image request %s", raw)
			}
			w.Write(body("images_generations_dall-e-2_b64_json_256_complete.json"))
		case r.Method == "POST" && r.URL.Path == "/v2/translate":
			form, _ := url.ParseQuery(string(raw))
			if form.Get("text") != "where is the station" || form.Get("target_lang") != "DE" || r.Header.Get("Authorization") != "DeepL-Auth-Key test-key:fx" {
				t.Errorf("DeepL request %q %q", raw, r.Header.Get("Authorization"))
			}
			w.Write(body("deepl_translate_docs_hello_world_de.json"))
		default:
			t.Errorf("unexpected request %s %s", r.Method, r.URL)
			http.Error(w, "unexpected", http.StatusTeapot)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &images
}

func mediaGear(t *testing.T, dir string, env map[string]string, deps func(*cli.Deps), args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	base := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir + "/config", "XDG_DATA_HOME": dir + "/data"}
	for k, v := range env {
		base[k] = v
	}
	d := cli.Deps{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return base[k] }, HTTP: &http.Client{}}
	if deps != nil {
		deps(&d)
	}
	code := cli.Run(context.Background(), args, d)
	return code, stdout.String(), stderr.String()
}

// The must-show: gear ask --yes "paint a red fox in the snow"
// grounds to ImageGeneration offline, saves the PNG the server sent and
// prints its path; the turn is in the history with its prompt and path.
func TestAskPaintsAndSavesThePNG(t *testing.T) {
	t.Parallel()
	srv, images := mediaServer(t)
	dir := t.TempDir()
	env := map[string]string{"GEAR_IMAGE_MODEL": "dall-e-2", "GEAR_IMAGE_BASE_URL": srv.URL + "/v1"}

	// Not read-only and not allowed: without --yes (and no terminal to
	// ask on) it is not run, and the service is never called; the turn
	// did not answer, so gear exits 1.
	code, out, errOut := mediaGear(t, dir, env, nil, "ask", "--offline", "paint a red fox in the snow")
	if code != cli.ExitFailure || !strings.Contains(errOut, "is not read-only") || images.Load() != 0 {
		t.Fatalf("unconfirmed: exit %d, %d requests\n%s\n%s", code, images.Load(), out, errOut)
	}

	code, out, errOut = mediaGear(t, dir, env, nil, "ask", "--offline", "--yes", "paint a red fox in the snow")
	if code != cli.ExitOK || images.Load() != 1 {
		t.Fatalf("exit %d, %d requests\n%s\n%s", code, images.Load(), out, errOut)
	}
	m := regexp.MustCompile(`Image saved: (\S+\.png)`).FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, `— ImageGeneration("red fox in the snow") → Image saved: `) ||
		!strings.Contains(out, "% · grounding: offline engine") {
		t.Fatalf("no path printed:\n%s", out)
	}
	path := m[1]
	if !strings.HasPrefix(path, filepath.Join(dir, "data")) || !strings.HasSuffix(path, "-red-fox-in-the-snow.png") {
		t.Errorf("saved at %s", path)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() != 256 {
		t.Fatalf("saved file is not the 256×256 PNG: %v", err)
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Error("escape sequences written to a non-terminal")
	}

	// The history keeps the prompt and the path.
	code, out, _ = mediaGear(t, dir, env, nil, "history", "export", "--all")
	if code != cli.ExitOK || !strings.Contains(out, `ImageGeneration(\"red fox in the snow\")`) || !strings.Contains(out, path) {
		t.Errorf("history lacks the call or the path (exit %d):\n%.2000s", code, out)
	}

	// /GEAR with the exact call is consent: it runs without --yes.
	code, out, errOut = mediaGear(t, dir, env, nil, "ask", "--offline", `/GEAR ImageGeneration("red fox in the snow")`)
	if code != cli.ExitOK || images.Load() != 2 || !strings.Contains(out, "Image saved: ") {
		t.Errorf("typed call: exit %d, %d requests\n%s\n%s", code, images.Load(), out, errOut)
	}
}

// --show draws on a terminal that can, and never into a non-terminal.
func TestAskShowDrawsOnlyOnATerminal(t *testing.T) {
	t.Parallel()
	srv, _ := mediaServer(t)
	dir := t.TempDir()
	env := map[string]string{"GEAR_IMAGE_MODEL": "dall-e-2", "GEAR_IMAGE_BASE_URL": srv.URL + "/v1"}
	kitty := func(d *cli.Deps) {
		d.IsTerminal = true
		d.ImageCaps = func(context.Context) termimg.Caps { return termimg.Caps{Protocol: termimg.Kitty, Host: "box"} }
	}
	code, out, errOut := mediaGear(t, dir, env, kitty, "ask", "--offline", "--yes", "--show", "paint a red fox in the snow")
	if code != cli.ExitOK || !strings.Contains(out, "\x1b_Ga=T,f=100,q=2,c=40,m=1;iVBORw0KGgo") || !strings.Contains(out, "\x1b]8;;file://box/") {
		t.Errorf("kitty: exit %d\n%.300q\n%s", code, out, errOut)
	}
	notTerminal := func(d *cli.Deps) {
		d.ImageCaps = func(context.Context) termimg.Caps { return termimg.Caps{Protocol: termimg.Kitty} }
	}
	code, out, errOut = mediaGear(t, dir, env, notTerminal, "ask", "--offline", "--yes", "--show", "paint a red fox in the snow")
	if code != cli.ExitOK || strings.ContainsRune(out, 0x1b) || !strings.Contains(out, "Image saved: ") || !strings.Contains(errOut, "--show draws only on a terminal") {
		t.Errorf("not a terminal: exit %d\n%q\n%s", code, out, errOut)
	}
}

// The must-show: gear ask "translate 'where is the station' into
// German" prints the translation with the detected source language. The
// replayed body is DeepL's documented answer ("Hallo, Welt!", detected
// EN): no recorded body for this sentence exists, and the test is about
// what gear sends and prints.
func TestAskTranslatesWithTheDetectedSource(t *testing.T) {
	t.Parallel()
	srv, _ := mediaServer(t)
	dir := t.TempDir()
	env := map[string]string{"DEEPL_AUTH_KEY": "test-key:fx"}
	cfg := filepath.Join(dir, "gear.yaml")
	if err := os.WriteFile(cfg, []byte("tools:\n  translate:\n    deepl_url: "+srv.URL+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := mediaGear(t, dir, env, nil, "--config", cfg, "ask", "--offline", "translate 'where is the station' into German")
	if code != cli.ExitOK || !strings.Contains(out, "Hallo, Welt!") || !strings.Contains(out, "detected English (en) → German (de), by DeepL") ||
		!strings.Contains(out, `— Translate("where is the station", "de") → Hallo, Welt!`) ||
		!strings.Contains(out, "% · grounding: offline engine") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out+errOut, "test-key") {
		t.Error("the key was printed")
	}
}

// With no service configured, each tool says in one line which setting
// to add — no crash, no fake image or translation. (--yes: ImageGeneration
// costs money, so gear tool runs it only when told to.)
func TestMediaToolsUnconfigured(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct{ call, want string }{
		{`ImageGeneration("a red fox")`, "set models.image.model"},
		{`Translate("good morning", "ja")`, "set tools.translate.libretranslate_url"},
	} {
		code, out, errOut := mediaGear(t, dir, nil, func(d *cli.Deps) { d.HTTP = &http.Client{Transport: failTransport{t}} }, "tool", "--yes", tc.call)
		if code != cli.ExitFailure || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tc.call, code, out, errOut)
		}
	}
}

type failTransport struct{ t *testing.T }

func (f failTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	f.t.Errorf("unexpected request %s", r.URL)
	return nil, io.EOF
}

// The must-show for grounding, offline: a drawing request picks
// ImageGeneration (from its mock, never running it), a translation
// request Translate with the target as its code.
func TestGroundMediaOffline(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ query, tool, call string }{
		{"draw a watercolor of a lighthouse at dusk", "ImageGeneration", `ImageGeneration("watercolor of a lighthouse at dusk")`},
		{"how do you say good morning in Japanese", "Translate", `Translate("good morning", "ja")`},
		{"translate 'where is the station' into German", "Translate", `Translate("where is the station", "de")`},
		{"¿Cómo se dice good morning en español?", "Translate", ""},
	} {
		code, out, errOut := mediaGear(t, t.TempDir(), nil, func(d *cli.Deps) { d.HTTP = &http.Client{Transport: failTransport{t}} },
			"ground", "--offline", "--json", tc.query)
		var res struct {
			Choice struct{ Tool, Call string }
		}
		if code != cli.ExitOK || json.Unmarshal([]byte(out), &res) != nil {
			t.Fatalf("%s: exit %d %s", tc.query, code, errOut)
		}
		if res.Choice.Tool != tc.tool || tc.call != "" && res.Choice.Call != tc.call {
			t.Errorf("%s: chose %s %s", tc.query, res.Choice.Tool, res.Choice.Call)
		}
	}
}
