package grounding_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gear-chat/gear/grounding"
)

// openAIServer stands in for an OpenAI-compatible endpoint serving the
// small model (/v1/chat/completions) and the embedding model
// (/v1/embeddings). Its answers are the recorded bodies of testdata/openai
// with the generated text and the vectors scripted. Any other request
// fails the test.
type openAIServer struct {
	t         testing.TB
	chatBody  map[string]any
	embedBody map[string]any
	reply     func(prompt string) string

	mu          sync.Mutex
	chatCalls   int
	embedCalls  int
	embedTexts  int
	embedInputs []string
}

func newOpenAIServer(t testing.TB, reply func(prompt string) string) (*openAIServer, *httptest.Server) {
	t.Helper()
	s := &openAIServer{t: t, reply: reply}
	for path, dst := range map[string]*map[string]any{
		"testdata/openai/chat_completion_tool_calls.json":             &s.chatBody,
		"testdata/openai/embeddings_text-embedding-3-small_256d.json": &s.embedBody,
	} {
		data, err := os.ReadFile(path)
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

func (s *openAIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
		http.Error(w, "unexpected", http.StatusNotFound)
		return
	}
	switch r.URL.Path {
	case "/v1/chat/completions":
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role, Content string
			} `json:"messages"`
			Temperature float64 `json:"temperature"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
			s.t.Errorf("bad chat request: %v", err)
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if req.Temperature != 0 {
			s.t.Errorf("the small model must decode greedily, got temperature %v", req.Temperature)
		}
		s.mu.Lock()
		s.chatCalls++
		s.mu.Unlock()
		body := clone(s.t, s.chatBody)
		choice := body["choices"].([]any)[0].(map[string]any)
		msg := choice["message"].(map[string]any)
		msg["content"] = s.reply(req.Messages[len(req.Messages)-1].Content)
		delete(msg, "tool_calls")
		choice["finish_reason"] = "stop"
		writeBody(w, body)
	case "/v1/embeddings":
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Input) == 0 {
			s.t.Errorf("bad embeddings request: %v", err)
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.embedCalls++
		s.embedTexts += len(req.Input)
		s.embedInputs = append(s.embedInputs, req.Input...)
		s.mu.Unlock()
		body := clone(s.t, s.embedBody)
		recorded := body["data"].([]any)[0].(map[string]any)["embedding"].([]any)
		var data []any
		for i, text := range req.Input {
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": vectorFor(text, recorded)})
		}
		body["data"] = data
		writeBody(w, body)
	default:
		s.t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
		http.Error(w, "unexpected", http.StatusNotFound)
	}
}

func (s *openAIServer) counts() (chat, embedCalls, embedTexts int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chatCalls, s.embedCalls, s.embedTexts
}

func clone(t testing.TB, m map[string]any) map[string]any {
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func writeBody(w http.ResponseWriter, body any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(body)
}

// vectorFor gives each text its own vector: the recorded one with the
// words of our little vocabulary added on top, so texts that share them are
// closer.
func vectorFor(text string, recorded []any) []float64 {
	v := make([]float64, len(recorded))
	h := fnv.New32a()
	h.Write([]byte(text))
	shift := int(h.Sum32() % uint32(len(v)))
	for i := range v {
		v[i] = 0.1 * recorded[(i+shift)%len(recorded)].(float64)
	}
	for k, w := range vocabulary {
		v[k] += float64(strings.Count(strings.ToLower(text), w))
	}
	return v
}

// openAIClient is the smallest client of the wire format: enough to
// satisfy grounding's SLM and Encoder with a real HTTP round trip.
type openAIClient struct {
	base string
	http *http.Client
}

func (c openAIClient) post(ctx context.Context, path string, req, resp any) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	hr.Header.Set("Content-Type", "application/json")
	r, err := c.http.Do(hr)
	if err != nil {
		return err
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: HTTP %d", path, r.StatusCode)
	}
	return json.NewDecoder(r.Body).Decode(resp)
}

func (c openAIClient) Complete(ctx context.Context, prompt string) (string, error) {
	var resp struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	req := map[string]any{"model": "small", "temperature": 0, "messages": []map[string]string{{"role": "user", "content": prompt}}}
	if err := c.post(ctx, "/v1/chat/completions", req, &resp); err != nil {
		return "", err
	}
	if len(resp.Choices) == 0 {
		return "", fmt.Errorf("no choices")
	}
	return resp.Choices[0].Message.Content, nil
}

func (c openAIClient) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var resp struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := c.post(ctx, "/v1/embeddings", map[string]any{"model": "text-embedding-3-small", "input": texts}, &resp); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	for _, d := range resp.Data {
		out[d.Index] = d.Embedding
	}
	return out, nil
}

// scriptedModel answers the preliminary prompt with "96" and each call
// prompt with a call of the tool it describes.
func scriptedModel(prompt string) string {
	if strings.HasPrefix(prompt, "Answer the question briefly.") {
		return "96"
	}
	m := regexp.MustCompile(`You can call it by writing (\w+)\(`).FindStringSubmatch(prompt)
	if m == nil {
		return "I do not know."
	}
	switch m[1] {
	case "Calc":
		return "<API>[Calc(48 * 4 / 2)]"
	case "Clock":
		return `Clock("Adelaide")`
	case "Search":
		return `Search("48 multiplied by 4")`
	}
	return "nothing"
}

// TestModelEngine: with a local server standing in for the small model and
// the embedding model, grounding makes exactly 1 + n small-model calls per
// query and embeds the tool descriptions once, in the first query's own
// embedding request (no round trip of their own): the second query embeds
// only itself.
func TestModelEngine(t *testing.T) {
	reg, _ := library(t)
	srv, hs := newOpenAIServer(t, scriptedModel)
	client := openAIClient{base: hs.URL, http: hs.Client()}
	eng := grounding.Engine{Name: grounding.EngineModel, Model: "text-embedding-3-small", Encoder: client, Prober: grounding.SLMProber{SLM: client}}
	g, err := grounding.New(reg, eng, grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	n := reg.Len()
	query := "what is 48 multiplied by 4 divided by 2 with numbers"
	res, err := g.Ground(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	chat, embedCalls, embedTexts := srv.counts()
	if chat != 1+n {
		t.Errorf("first query: %d small-model calls, want 1 + n = %d", chat, 1+n)
	}
	if embedCalls != 1 || embedTexts != n+1 {
		t.Errorf("first query: %d embedding requests for %d texts, want 1 for the query and the %d descriptions", embedCalls, embedTexts, n)
	}
	if res.Engine != "model" || res.Preliminary != "96" || res.Choice.Tool != "Calc" || res.Choice.Call != "Calc(48 * 4 / 2)" || res.Choice.Response != "96" {
		t.Errorf("result: engine %q preliminary %q choice %+v", res.Engine, res.Preliminary, res.Choice)
	}

	if _, err := g.Ground(context.Background(), "what time is it in Adelaide"); err != nil {
		t.Fatal(err)
	}
	chat2, embedCalls2, embedTexts2 := srv.counts()
	if chat2-chat != 1+n {
		t.Errorf("second query: %d small-model calls, want %d", chat2-chat, 1+n)
	}
	if embedCalls2-embedCalls != 1 || embedTexts2-embedTexts != 1 {
		t.Errorf("second query: %d embedding requests for %d texts, want 1 for the query only (descriptions cached)",
			embedCalls2-embedCalls, embedTexts2-embedTexts)
	}
	srv.mu.Lock()
	last := srv.embedInputs[len(srv.embedInputs)-1]
	srv.mu.Unlock()
	if last != "what time is it in Adelaide" {
		t.Errorf("the last text embedded is %q", last)
	}
}
