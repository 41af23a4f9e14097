package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// reqKind is what a request to the scripted model server is for, read from
// its body the way the agent and grounding build it.
type reqKind string

const (
	kindRoute  reqKind = "route"  // "does this need a tool?" yes/no
	kindPrelim reqKind = "prelim" // GEAR's preliminary answer â = SLM(Q)
	kindProbe  reqKind = "probe"  // GEAR's q_i = SLM(π_i + Q)
	kindEmit   reqKind = "emit"   // the chat LLM emits the call
	kindStep   reqKind = "step"   // one token of client-side ToolDec
	kindAnswer reqKind = "answer" // the streamed answer
	kindEmbed  reqKind = "embed"  // embeddings
)

// modelRequest is one request as the server understood it.
type modelRequest struct {
	kind  reqKind
	tool  string // probe, emit, step: the tool asked about
	query string // the user's query, when the prompt carries it
	guide string // json_schema, grammar, regex, choice, or ""
	// prefix is a step's assistant prefill; inputs an embedding's texts.
	prefix string
	inputs []string
	body   map[string]any
	ctx    context.Context
}

// reply is what the server sends back.
type reply struct {
	status int
	body   []byte
	// events are SSE events (without "data: "), sent one by one.
	events []string
	// holdAfter keeps the stream open after the events until the client
	// goes away (a model that will not stop, or a cancel mid-stream);
	// endless keeps sending its last event meanwhile.
	holdAfter bool
	endless   bool
}

// modelServer is an httptest server speaking the OpenAI wire format. Each
// request is classified and answered by the test's script; a request the
// script does not expect fails the test. Answers are built from the
// recorded bodies in testdata (see PROVENANCE.md).
type modelServer struct {
	t     testing.TB
	srv   *httptest.Server
	delay time.Duration
	// gate holds requests of the gated kinds until that many are in flight
	// at once (or 10 s pass, which fails the test): proof, without timing,
	// that they were sent concurrently.
	gate      int
	gateKinds map[reqKind]bool
	gateOpen  chan struct{}
	gateOnce  sync.Once
	gateCount int
	// script answers a kind; a kind with no entry is unexpected.
	script map[reqKind]func(r modelRequest) reply

	mu          sync.Mutex
	counts      map[reqKind]int
	reqs        []modelRequest
	inflight    int
	maxInflight int
}

func newModelServer(t testing.TB, script map[reqKind]func(modelRequest) reply) *modelServer {
	s := &modelServer{t: t, script: script, counts: map[reqKind]int{}}
	s.srv = httptest.NewServer(s)
	t.Cleanup(func() {
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
	return s
}

func (s *modelServer) url() string { return s.srv.URL + "/v1" }

func (s *modelServer) count(k reqKind) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[k]
}

func (s *modelServer) requests(k reqKind) []modelRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []modelRequest
	for _, r := range s.reqs {
		if r.kind == k {
			out = append(out, r)
		}
	}
	return out
}

func (s *modelServer) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

func (s *modelServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	raw, _ := io.ReadAll(req.Body)
	r, err := classify(req.URL.Path, raw)
	r.ctx = req.Context()
	s.mu.Lock()
	answer := s.script[r.kind]
	if err == nil && answer == nil {
		err = fmt.Errorf("no %s request was expected", r.kind)
	}
	if err != nil {
		s.mu.Unlock()
		s.t.Errorf("model server: unexpected request %s %s: %v: %.300s", req.Method, req.URL.Path, err, raw)
		http.Error(w, "unexpected request", http.StatusTeapot)
		return
	}
	s.counts[r.kind]++
	s.reqs = append(s.reqs, r)
	s.inflight++
	s.maxInflight = max(s.maxInflight, s.inflight)
	gated := s.gate > 0 && s.gateKinds[r.kind]
	if gated {
		if s.gateOpen == nil {
			s.gateOpen = make(chan struct{})
		}
		s.gateCount++
		if s.gateCount >= s.gate {
			s.gateOnce.Do(func() { close(s.gateOpen) })
		}
	}
	open := s.gateOpen
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inflight--
		s.mu.Unlock()
	}()
	if gated {
		select {
		case <-open:
		case <-time.After(10 * time.Second):
			s.mu.Lock()
			n := s.gateCount
			s.mu.Unlock()
			s.t.Errorf("model server: only %d of %d concurrent requests arrived", n, s.gate)
		case <-req.Context().Done():
			return
		}
	}
	if s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-req.Context().Done():
			return
		}
	}
	rep := answer(r)
	status := rep.status
	if status == 0 {
		status = http.StatusOK
	}
	if rep.events == nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(rep.body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(status)
	fl := w.(http.Flusher)
	for _, ev := range rep.events {
		io.WriteString(w, "data: "+ev+"\n\n")
		fl.Flush()
	}
	for rep.holdAfter {
		select {
		case <-req.Context().Done():
			return
		case <-time.After(2 * time.Millisecond):
			if rep.endless {
				io.WriteString(w, "data: "+rep.events[len(rep.events)-1]+"\n\n")
				fl.Flush()
			}
		}
	}
	io.WriteString(w, "data: [DONE]\n\n")
}

// classify reads what a request is for.
func classify(path string, raw []byte) (modelRequest, error) {
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		return modelRequest{}, fmt.Errorf("body is not JSON: %w", err)
	}
	r := modelRequest{body: body}
	if strings.HasSuffix(path, "/embeddings") {
		r.kind = kindEmbed
		switch in := body["input"].(type) {
		case []any:
			for _, x := range in {
				s, _ := x.(string)
				r.inputs = append(r.inputs, s)
			}
		case string:
			r.inputs = []string{in}
		}
		return r, nil
	}
	if !strings.HasSuffix(path, "/chat/completions") {
		return r, fmt.Errorf("unknown path %s", path)
	}
	switch {
	case body["response_format"] != nil, body["json_schema"] != nil:
		r.guide = "json_schema"
	case body["grammar"] != nil:
		r.guide = "grammar"
	case body["structured_outputs"] != nil:
		for k := range body["structured_outputs"].(map[string]any) {
			r.guide = map[string]string{"json": "json_schema"}[k]
			if r.guide == "" {
				r.guide = k
			}
		}
	}
	msgs, _ := body["messages"].([]any)
	var system, user, assistant string
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		c, _ := mm["content"].(string)
		switch mm["role"] {
		case "system":
			system = c
		case "user":
			user = c
		case "assistant":
			assistant = c
		}
	}
	if stream, _ := body["stream"].(bool); stream {
		r.kind = kindAnswer
		r.query = user
		return r, nil
	}
	const emitHead = "You write exactly one call of the tool "
	switch {
	case strings.HasPrefix(system, emitHead):
		r.tool, _, _ = strings.Cut(strings.TrimPrefix(system, emitHead), " ")
		r.query = promptInput(user)
		r.kind = kindEmit
		if lp, _ := body["logprobs"].(bool); lp && maxTokens(body) == 1 {
			r.kind, r.prefix = kindStep, assistant
		}
	case strings.Contains(user, "Does answering this message need one of the tools?"):
		r.kind = kindRoute
		_, q, _ := strings.Cut(user, "User message: ")
		r.query, _, _ = strings.Cut(q, "\nDoes answering")
	case strings.HasPrefix(user, "Answer the question briefly."):
		r.kind = kindPrelim
		_, q, _ := strings.Cut(user, "Question: ")
		r.query, _, _ = strings.Cut(q, "\nAnswer:")
	case strings.Contains(user, "\nYou can call it by writing "):
		r.kind = kindProbe
		_, rest, _ := strings.Cut(user, "\nYou can call it by writing ")
		r.tool, _, _ = strings.Cut(rest, "(")
		r.query = promptInput(user)
	default:
		return r, fmt.Errorf("a chat request the agent does not make")
	}
	return r, nil
}

func maxTokens(body map[string]any) int {
	for _, k := range []string{"max_tokens", "max_completion_tokens"} {
		if n, ok := body[k].(float64); ok {
			return int(n)
		}
	}
	return 0
}

// promptInput is the query of a π_i + Q prompt (grounding.CallPrompt).
func promptInput(p string) string {
	i := strings.LastIndex(p, "\nInput: ")
	if i < 0 {
		return ""
	}
	return strings.TrimSuffix(p[i+len("\nInput: "):], "\nOutput:")
}
