package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/grounding"
)

// modelServer stands in for one OpenAI-compatible endpoint serving the
// grounding model and the embedding model, answering from the recorded
// bodies of testdata/ground with the text and the vectors scripted.
type modelServer struct {
	t                     *testing.T
	chat, embed           map[string]any
	mu                    sync.Mutex
	slmCalls, yesNoCalls  int
	embedCalls, embedText int
}

func newModelServer(t *testing.T) (*modelServer, *httptest.Server) {
	t.Helper()
	s := &modelServer{t: t}
	for name, dst := range map[string]*map[string]any{
		"chat_completion_tool_calls.json":             &s.chat,
		"embeddings_text-embedding-3-small_256d.json": &s.embed,
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "ground", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, dst); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

func copyJSON(t *testing.T, v map[string]any) map[string]any {
	b, _ := json.Marshal(v)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// keywords make the scripted embeddings: one dimension per subject, so a
// query shares a direction with the description of its tool.
var keywords = [][]string{{"arithmetic", "multipl", "divid"}, {"time zone", "o'clock", "what time"}, {"weather", "rain"}, {"wikipedia"}, {"latitude"}}

func (s *modelServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
		Input          []string       `json:"input"`
		ResponseFormat map[string]any `json:"response_format"`
	}
	if r.Method == http.MethodGet && r.URL.Path == "/v1/models" {
		serveModelList(s.t, w)
		return
	}
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
		s.t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
		http.Error(w, "unexpected", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var body map[string]any
	switch r.URL.Path {
	case "/v1/chat/completions":
		body = copyJSON(s.t, s.chat)
		prompt := req.Messages[len(req.Messages)-1].Content
		var content string
		switch {
		case req.ResponseFormat != nil:
			s.yesNoCalls++
			content = `{"answer":"yes"}`
		case strings.HasPrefix(prompt, "Answer the question briefly."):
			s.slmCalls++
			content = "96"
		default:
			s.slmCalls++
			m := regexp.MustCompile(`You can call it by writing (\w+)\(`).FindStringSubmatch(prompt)
			if m != nil && m[1] == "Calculator" {
				content = "Calculator(48 * 4 / 2)"
			} else {
				content = "I cannot help with that."
			}
		}
		choice := body["choices"].([]any)[0].(map[string]any)
		msg := choice["message"].(map[string]any)
		msg["content"] = content
		delete(msg, "tool_calls")
		choice["finish_reason"] = "stop"
	case "/v1/embeddings":
		s.embedCalls++
		s.embedText += len(req.Input)
		body = copyJSON(s.t, s.embed)
		var data []any
		for i, text := range req.Input {
			v := make([]float64, 8)
			low := strings.ToLower(text)
			for k, words := range keywords {
				for _, kw := range words {
					v[k] += float64(strings.Count(low, kw))
				}
			}
			v[7] = 0.1
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
		}
		body["data"] = data
	default:
		s.t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
		http.Error(w, "unexpected", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
}

// TestGroundModelEngine runs gear ground with a grounding model and an
// embedding model configured, through the llm client: 1 + n small-model
// calls per query, and the tool descriptions embedded on the first run
// only — the second run, a new process over the same database, embeds the
// query alone.
func TestGroundModelEngine(t *testing.T) {
	srv, hs := newModelServer(t)
	dir := t.TempDir()
	env := map[string]string{
		"HOME":                    dir,
		"GEAR_DB":                 filepath.Join(dir, "gear.db"),
		"GEAR_GROUNDING_MODEL":    "small",
		"GEAR_GROUNDING_BASE_URL": hs.URL + "/v1",
		"GEAR_GROUNDING_SERVER":   "openai",
		"GEAR_EMBEDDING_MODEL":    "text-embedding-3-small",
		"GEAR_EMBEDDING_BASE_URL": hs.URL + "/v1",
		"GEAR_EMBEDDING_SERVER":   "openai",
	}
	run := func() grounding.Result {
		var stdout, stderr bytes.Buffer
		code := cli.Run(context.Background(), []string{"ground", "--json", "what is 48 multiplied by 4 divided by 2"}, cli.Deps{
			Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }, HTTP: hs.Client(),
			Now: func() time.Time { return time.Date(2026, 5, 14, 15, 0, 0, 0, time.UTC) },
		})
		if code != cli.ExitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		var res grounding.Result
		if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run()
	n := len(res.Tools)
	if res.Engine != grounding.EngineModel || res.Preliminary != "96" || res.Choice.Call != "Calculator(48 * 4 / 2)" || res.Choice.Response != "96" {
		t.Errorf("engine %q preliminary %q choice %+v", res.Engine, res.Preliminary, res.Choice)
	}
	srv.mu.Lock()
	slm, embedTexts := srv.slmCalls, srv.embedText
	srv.mu.Unlock()
	if slm != n+1 {
		t.Errorf("%d small-model calls, want 1 + n = %d", slm, n+1)
	}
	if embedTexts < n+1 {
		t.Errorf("first run embedded %d texts, want the %d descriptions, the usage examples and the query", embedTexts, n)
	}
	run()
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.slmCalls-slm != n+1 {
		t.Errorf("second run: %d small-model calls, want %d", srv.slmCalls-slm, n+1)
	}
	if srv.embedText-embedTexts != 1 {
		t.Errorf("second run embedded %d texts, want the query only (descriptions from the database)", srv.embedText-embedTexts)
	}
}

// A password in the embedding server's base URL stays out of the history,
// where the embedding cache names its model.
func TestEmbeddingCacheKeyHasNoPassword(t *testing.T) {
	_, hs := newModelServer(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "gear.db")
	withPassword := strings.Replace(hs.URL, "http://", "http://gear:hunter2pw@", 1) + "/v1"
	env := map[string]string{
		"HOME": dir, "GEAR_DB": db,
		"GEAR_GROUNDING_MODEL": "small", "GEAR_GROUNDING_BASE_URL": hs.URL + "/v1", "GEAR_GROUNDING_SERVER": "openai",
		"GEAR_EMBEDDING_MODEL": "text-embedding-3-small", "GEAR_EMBEDDING_BASE_URL": withPassword, "GEAR_EMBEDDING_SERVER": "openai",
	}
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), []string{"ground", "--json", "what is 48 multiplied by 4 divided by 2"}, cli.Deps{
		Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }, HTTP: hs.Client(),
		Now: func() time.Time { return time.Date(2026, 5, 14, 15, 0, 0, 0, time.UTC) },
	})
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, f := range []string{db, db + "-wal"} {
		data, _ := os.ReadFile(f)
		if bytes.Contains(data, []byte("hunter2pw")) {
			t.Errorf("%s holds the password", filepath.Base(f))
		}
	}
	if strings.Contains(stdout.String()+stderr.String(), "hunter2pw") {
		t.Error("the password was printed")
	}
}
