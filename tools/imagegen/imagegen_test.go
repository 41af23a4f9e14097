package imagegen

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/webget"
)

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// loopbackOnly refuses any host that is not this machine, so a test can
// never reach the internet (the dall-e-3 body names an Azure host).
type loopbackOnly struct{ next http.RoundTripper }

func (l loopbackOnly) RoundTrip(r *http.Request) (*http.Response, error) {
	host := r.URL.Hostname()
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("test transport: %s is not a loopback host", host)
	}
	return l.next.RoundTrip(r)
}

// server answers POST /v1/images/generations with handle (after checking
// the request) and any path under /files/ with files; anything else fails
// the test.
func server(t *testing.T, handle func(w http.ResponseWriter, req map[string]any), files map[string][]byte) (*httptest.Server, *int32) {
	t.Helper()
	var calls int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == "POST" && r.URL.Path == "/v1/images/generations":
			atomic.AddInt32(&calls, 1)
			var req map[string]any
			if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
				t.Errorf("request body: %v", err)
			}
			handle(w, req)
		case r.Method == "GET" && files[r.URL.Path] != nil:
			w.Header().Set("Content-Type", "image/png")
			w.Write(files[r.URL.Path])
		default:
			t.Errorf("unexpected request %s %s", r.Method, r.URL)
			http.Error(w, "unexpected", http.StatusTeapot)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func newTool(t *testing.T, srv *httptest.Server, model string) (*Tool, string) {
	dir := t.TempDir()
	hc := &http.Client{Transport: loopbackOnly{next: srv.Client().Transport}}
	return New(Config{BaseURL: srv.URL + "/v1", Model: model, APIKey: "fake_key", Dir: dir, HTTP: hc,
		Web: webget.New(webget.Options{HTTP: hc, UserAgent: "gear-test", Backoff: 1}), MaxBytes: 8 << 20,
		Now: func() time.Time { return time.Date(2026, 11, 24, 21, 30, 5, 0, time.UTC) }}), dir
}

func run(t *testing.T, tool *Tool, call string) (tools.Result, error) {
	t.Helper()
	reg, err := tools.NewRegistry(tool)
	if err != nil {
		t.Fatal(err)
	}
	c, err := reg.Parse(call)
	if err != nil {
		t.Fatal(err)
	}
	return reg.Run(context.Background(), c)
}

func TestGPTImageB64(t *testing.T) {
	t.Parallel()
	srv, _ := server(t, func(w http.ResponseWriter, req map[string]any) {
		if req["model"] != "gpt-image-1" || req["prompt"] != "An isolated stop sign." || req["n"] != 1.0 {
			t.Errorf("request %v", req)
		}
		if _, ok := req["response_format"]; ok {
			t.Errorf("response_format sent to a GPT Image model: %v", req)
		}
		w.Write(fixture(t, "images_generations_gpt-image-1_b64_json_sanitized.json"))
	}, nil)
	tool, dir := newTool(t, srv, "gpt-image-1")
	res, err := run(t, tool, `ImageGeneration("An isolated stop sign.")`)
	if err != nil {
		t.Fatal(err)
	}
	img := res.Data.(Image)
	want := filepath.Join(dir, "20261124-213005-an-isolated-stop-sign.png")
	if img.Path != want || img.Format != "png" || img.Width != 1 || img.Height != 1 {
		t.Errorf("image %+v", img)
	}
	if !strings.HasPrefix(res.Text, "Image saved: "+want+"\n(1x1 PNG, gpt-image-1)") {
		t.Errorf("text %q", res.Text)
	}
	// The same prompt again never overwrites the first image.
	res2, err := run(t, tool, `ImageGeneration("An isolated stop sign.")`)
	if err != nil || res2.Data.(Image).Path == want {
		t.Errorf("second image: %v %v", res2.Data, err)
	}
}

func TestDallE2CompletePNGSavedByteForByte(t *testing.T) {
	t.Parallel()
	body := fixture(t, "images_generations_dall-e-2_b64_json_256_complete.json")
	var rec struct {
		Data []struct {
			B64 string `json:"b64_json"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &rec); err != nil {
		t.Fatal(err)
	}
	want, _ := base64.StdEncoding.DecodeString(rec.Data[0].B64)
	srv, _ := server(t, func(w http.ResponseWriter, req map[string]any) {
		if req["size"] != "256x256" || req["response_format"] != "b64_json" {
			t.Errorf("request %v", req)
		}
		w.Write(body)
	}, nil)
	tool, _ := newTool(t, srv, "dall-e-2")
	tool.cfg.ResponseFormat = "b64_json"
	res, err := run(t, tool, `ImageGeneration("sleepy capybara with monkey on top", "256x256")`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(res.Data.(Image).Path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("saved file differs from the decoded image (%v)", err)
	}
	// A real PNG decodes, and re-encodes to one that decodes the same.
	im, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, im); err != nil {
		t.Fatal(err)
	}
	im2, err := png.Decode(&buf)
	if err != nil || im2.Bounds() != im.Bounds() || im2.At(100, 100) != im.At(100, 100) {
		t.Errorf("re-encoded PNG differs: %v", err)
	}
}

func TestURLAnswers(t *testing.T) {
	t.Parallel()
	png1 := pngBytes(t)
	t.Run("LocalAI url on the server is downloaded", func(t *testing.T) {
		var srv *httptest.Server
		srv, _ = server(t, func(w http.ResponseWriter, req map[string]any) {
			b := strings.ReplaceAll(string(fixture(t, "images_generations_localai_url.json")), "http://localai.local:8080", srv.URL)
			w.Write([]byte(b))
		}, map[string][]byte{"/generated-images/b64431666173.png": png1})
		tool, _ := newTool(t, srv, "stablediffusion")
		res, err := run(t, tool, `ImageGeneration("a red fox in the snow")`)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(res.Data.(Image).Path); !bytes.Equal(got, png1) {
			t.Error("downloaded image not saved as sent")
		}
	})
	t.Run("dall-e-3 url on a host that is not loopback fails readably", func(t *testing.T) {
		srv, _ := server(t, func(w http.ResponseWriter, req map[string]any) {
			w.Write(fixture(t, "images_generations_dall-e-3_url_revised_prompt.json"))
		}, nil)
		tool, _ := newTool(t, srv, "dall-e-3")
		_, err := run(t, tool, `ImageGeneration("An isolated stop sign.")`)
		if err == nil || !strings.Contains(err.Error(), "oaidalleapiprodscus.blob.core.windows.net") || strings.Contains(err.Error(), "\n") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("a url that is not http is never fetched", func(t *testing.T) {
		srv, _ := server(t, func(w http.ResponseWriter, req map[string]any) {
			w.Write([]byte(`{"data":[{"url":"file:///etc/passwd"}]}`))
		}, nil)
		tool, _ := newTool(t, srv, "x")
		_, err := run(t, tool, `ImageGeneration("a cat")`)
		if err == nil || !strings.Contains(err.Error(), "only http(s) URLs are") {
			t.Errorf("err %v", err)
		}
	})
}

func TestRevisedPromptShown(t *testing.T) {
	t.Parallel()
	p := base64.StdEncoding.EncodeToString(pngBytes(t))
	srv, _ := server(t, func(w http.ResponseWriter, req map[string]any) {
		if req["style"] != "natural" {
			t.Errorf("style %v", req["style"])
		}
		fmt.Fprintf(w, `{"created":1,"data":[{"revised_prompt":"A photo of a red fox \u001b[31mstanding","b64_json":%q}]}`, p)
	}, nil)
	tool, _ := newTool(t, srv, "dall-e-3")
	res, err := run(t, tool, `ImageGeneration("a red fox", "1024x1024", "natural")`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "\nRevised prompt: A photo of a red fox") {
		t.Errorf("text %q", res.Text)
	}
}

func TestServiceErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		status     int
		want       string
	}{
		{"401 never shows the key", string(fixture(t, "images_error_401_invalid_api_key_gpt-image-1.json")), 401, "refused the key (HTTP 401); check models.image.api_key"},
		{"response_format refused", string(fixture(t, "images_error_400_unknown_parameter_response_format.json")), 400, "remove models.image.response_format"},
		// Hand-written in the documented error shape ({"error": {code,
		// message, param, type}}, https://platform.openai.com/docs/guides/error-codes/api-errors)
		// with the code the images guide names for a refused prompt: no
		// recorded content_policy_violation body with provenance exists
		// (the fixtures' MANIFEST). The second case is the body a user
		// quoted from api.openai.com, code null
		// (https://community.openai.com/t/error-in-image-generation-api-rejection-by-safety-system/232241).
		{"content policy", `{"error":{"code":"content_policy_violation","message":"Your request was rejected as a result of our safety system.","param":null,"type":"invalid_request_error"}}`, 400, "refused the prompt under its content policy (Your request was rejected as a result of our safety system.); rephrase the prompt"},
		{"content policy, code null", "{\n  \"error\": {\n    \"code\": null,\n    \"message\": \"Your request was rejected as a result of our safety system. \",\n    \"param\": null,\n    \"type\": \"invalid_request_error\"\n  }\n}\n", 400, "refused the prompt under its content policy (Your request was rejected as a result of our safety system. ); rephrase the prompt"},
		{"billing", `{"error":{"code":"billing_hard_limit_reached","message":"Billing hard limit has been reached","param":null,"type":"invalid_request_error"}}`, 400, "billing limit or quota is reached"},
		{"not json", "<html>bad gateway</html>", 502, "not an OpenAI answer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := server(t, func(w http.ResponseWriter, req map[string]any) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				w.Write([]byte(tc.body))
			}, nil)
			tool, dir := newTool(t, srv, "gpt-image-1")
			_, err := run(t, tool, `ImageGeneration("a cat")`)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "fake_key") || strings.Contains(err.Error(), "\n") {
				t.Errorf("err %v", err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("files saved: %v", entries)
			}
		})
	}
}

func TestHostileBodies(t *testing.T) {
	t.Parallel()
	t.Run("a 50 MB base64 image is refused without being read whole", func(t *testing.T) {
		var sent atomic.Int64
		srv, _ := server(t, func(w http.ResponseWriter, req map[string]any) {
			io.WriteString(w, `{"data":[{"b64_json":"`)
			chunk := bytes.Repeat([]byte("QUFB"), 16<<10) // 64 KiB
			for i := 0; i < 50<<20/len(chunk); i++ {
				n, err := w.Write(chunk)
				sent.Add(int64(n))
				if err != nil {
					return // the client hung up: good
				}
			}
			io.WriteString(w, `"}]}`)
		}, nil)
		tool, dir := newTool(t, srv, "gpt-image-1")
		_, err := run(t, tool, `ImageGeneration("a cat")`)
		if err == nil || !strings.Contains(err.Error(), "raise models.image.max_bytes") {
			t.Errorf("err %v", err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("files saved: %v", entries)
		}
	})
	t.Run("an image that is not an image", func(t *testing.T) {
		srv, _ := server(t, func(w http.ResponseWriter, req map[string]any) {
			fmt.Fprintf(w, `{"data":[{"b64_json":%q}]}`, base64.StdEncoding.EncodeToString([]byte("<html><body>quota exceeded</body></html>")))
		}, nil)
		tool, dir := newTool(t, srv, "gpt-image-1")
		_, err := run(t, tool, `ImageGeneration("a cat")`)
		if err == nil || !strings.Contains(err.Error(), "not an image (text/html") {
			t.Errorf("err %v", err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("files saved: %v", entries)
		}
	})
	t.Run("b64_json that is not base64", func(t *testing.T) {
		srv, _ := server(t, func(w http.ResponseWriter, req map[string]any) {
			w.Write([]byte(`{"data":[{"b64_json":"%%%not base64"}]}`))
		}, nil)
		tool, _ := newTool(t, srv, "gpt-image-1")
		if _, err := run(t, tool, `ImageGeneration("a cat")`); err == nil || !strings.Contains(err.Error(), "not base64") {
			t.Errorf("err %v", err)
		}
	})
}

func TestNotConfigured(t *testing.T) {
	t.Parallel()
	_, err := run(t, New(Config{Dir: t.TempDir()}), `ImageGeneration("a cat")`)
	var nc NotConfiguredError
	if !errors.As(err, &nc) || !strings.Contains(err.Error(), "set models.image.model") {
		t.Errorf("err %v", err)
	}
}

func TestSpec(t *testing.T) {
	t.Parallel()
	s := New(Config{}).Spec()
	if s.Effect != tools.EffectCosts || s.Mock == "" || s.Effect.ReadOnly() {
		t.Errorf("spec %+v", s)
	}
	if err := s.Hints.Validate(s.Params); err != nil {
		t.Error(err)
	}
	for _, name := range []string{"image-aliases", "image-words"} {
		if err := tools.CheckWordList(tools.EmbeddedList(hintFiles, name), name == "image-words"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestSlug(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Paint a red fox in the snow!": "paint-a-red-fox-in-the-snow",
		"富士山":                          "image",
		"../../etc/passwd":             "etc-passwd",
		strings.Repeat("abc ", 40):     "abc-abc-abc-abc-abc-abc-abc-abc-abc-abc-abc-abc",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// pngBytes is the 1×1 PNG of the recorded gpt-image-1 body.
func pngBytes(t *testing.T) []byte {
	var rec struct {
		Data []struct {
			B64 string `json:"b64_json"`
		} `json:"data"`
	}
	json.Unmarshal(fixture(t, "images_generations_gpt-image-1_b64_json_sanitized.json"), &rec)
	b, err := base64.StdEncoding.DecodeString(rec.Data[0].B64)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
