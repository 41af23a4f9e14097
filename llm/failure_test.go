package llm

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

var hi = ChatRequest{Messages: []Message{{Role: "user", Content: "hi"}}}

// rateLimited is a 429 body in OpenAI's error shape (constructed: the
// shared fixtures hold no recorded 429).
const rateLimited = `{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`

func TestRetryOnceHonouringRetryAfter(t *testing.T) {
	ok := fixture(t, "chat_completion_tool_calls.json")
	cases := []struct {
		name     string
		steps    []step
		wantErr  ErrorKind
		attempts int
	}{
		{"429 then success", []step{
			{path: "POST /v1/chat/completions", status: 429, header: map[string]string{"Retry-After-Ms": "20"}, body: []byte(rateLimited)},
			{path: "POST /v1/chat/completions", body: ok}}, "", 2},
		{"503 then success", []step{
			{path: "POST /v1/chat/completions", status: 503, body: []byte("upstream busy")},
			{path: "POST /v1/chat/completions", body: ok}}, "", 2},
		{"429 twice", []step{
			{path: "POST /v1/chat/completions", status: 429, header: map[string]string{"Retry-After": "0"}, body: []byte(rateLimited)},
			{path: "POST /v1/chat/completions", status: 429, header: map[string]string{"Retry-After": "0"}, body: []byte(rateLimited)}},
			ErrRateLimited, 2},
		{"500 twice", []step{
			{path: "POST /v1/chat/completions", status: 500, body: []byte(`{"error":{"message":"internal","type":"server_error"}}`)},
			{path: "POST /v1/chat/completions", status: 500, body: []byte(`{"error":{"message":"internal","type":"server_error"}}`)}},
			ErrServer, 2},
		{"a long Retry-After is not waited for", []step{
			{path: "POST /v1/chat/completions", status: 429, header: map[string]string{"Retry-After": "120"}, body: []byte(rateLimited)}},
			ErrRateLimited, 1},
		{"spent quota is not retried", []step{
			{path: "POST /v1/chat/completions", status: 429, body: []byte(`{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`)}},
			ErrRateLimited, 1},
		{"401 is not retried", []step{
			{path: "POST /v1/chat/completions", status: 401, body: fixture(t, "error_401_invalid_api_key.json")}},
			ErrAuth, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newReplay(t, tc.steps...)
			c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
			var u Usage
			ctx := WithUsageRecorder(context.Background(), func(got Usage) { u = got })
			_, err := c.Chat(ctx, hi)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if u.Attempts != tc.attempts || u.Failed != (tc.wantErr != "") {
				t.Errorf("usage = %+v, want %d attempts", u, tc.attempts)
			}
		})
	}
	t.Run("the hint names the wait", func(t *testing.T) {
		srv := newReplay(t, step{path: "POST /v1/chat/completions", status: 429, header: map[string]string{"Retry-After": "120"}, body: []byte(rateLimited)})
		c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
		_, err := c.Chat(context.Background(), hi)
		var e *Error
		if !errors.As(err, &e) || e.RetryAfter != 2*time.Minute || !strings.Contains(err.Error(), "retry after 2m0s") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestErrorsAPersonCanActOn(t *testing.T) {
	cases := []struct {
		name   string
		kind   ServerKind
		status int
		body   []byte
		want   ErrorKind
		says   string
	}{
		{"ollama model not pulled", ServerOllama, 404, fixture(t, "ollama_error_model_not_found.constructed.json"), ErrUnknownModel, "ollama pull test-model"},
		{"llama.cpp context exceeded", ServerLlamaCpp, 400, fixture(t, "llamacpp_error_exceed_context.constructed.json"), ErrContextTooLong, "exceeds the available context size"},
		{"openai context length code", ServerOpenAI, 400, []byte(`{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`), ErrContextTooLong, "context_length_exceeded"},
		{"vllm unknown model", ServerVLLM, 404, []byte(`{"object":"error","message":"The model ` + "`x`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`), ErrUnknownModel, "GEAR_CHAT_MODEL"},
		{"wrong base URL", ServerGeneric, 404, []byte("404 page not found"), ErrBadRequest, "ends in /v1"},
		{"not JSON at all", ServerGeneric, 200, []byte("<html>proxy login</html>"), ErrBadResponse, "not OpenAI-compatible"},
		{"truncated JSON body", ServerOpenAI, 200, fixture(t, "chat_completion_tool_calls.json")[:400], ErrBadResponse, "unexpected EOF"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newReplay(t, step{path: "POST /v1/chat/completions", status: tc.status, body: tc.body})
			c := newClient(t, endpoint(RoleChat, srv.url(), tc.kind))
			_, err := c.Chat(context.Background(), hi)
			t.Log(err)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("err = %v\nwant %v saying %q", err, tc.want, tc.says)
			}
			if strings.Contains(err.Error(), testKey) || strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("bad message: %q", err)
			}
		})
	}
}

func TestUnreachableServer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/v1"
	srv.Close()
	c := newClient(t, endpoint(RoleEmbedding, url, ServerOllama))
	_, err := c.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "embedding model test-model at "+url) ||
		!strings.Contains(err.Error(), "is the server running") {
		t.Errorf("err = %v", err)
	}
}

func TestCancelMidStreamReturnsPromptly(t *testing.T) {
	events := strings.SplitAfter(string(fixture(t, "chat_completion_stream_tool_call_split_args.sse")), "\n\n")
	release := make(chan struct{})
	defer close(release)
	srv := newReplay(t, step{path: "POST /v1/chat/completions", handle: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, events[0])
		w.(http.Flusher).Flush()
		select { // the rest never comes
		case <-r.Context().Done():
		case <-release:
		}
	}})
	c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
	ctx, cancel := context.WithCancel(context.Background())
	s, err := c.ChatStream(ctx, hi)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := s.Recv(); err != nil || len(d.ToolCalls) != 1 {
		t.Fatalf("first delta = %+v, %v", d, err)
	}
	done := make(chan error, 1)
	go func() { _, err := s.Recv(); done <- err }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, ErrCanceled) || !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want ErrCanceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Recv did not return after cancellation")
	}
	if u := s.Result().Usage; !u.Failed || u.Call != "chat_stream" {
		t.Errorf("usage = %+v", u)
	}
}

func TestStallingServerHitsTheDeadline(t *testing.T) {
	stall := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	t.Run("before the answer, retried once", func(t *testing.T) {
		srv := newReplay(t, step{path: "POST /v1/chat/completions", handle: stall}, step{path: "POST /v1/chat/completions", handle: stall})
		ep := endpoint(RoleChat, srv.url(), ServerOpenAI)
		ep.Timeout = 50 * time.Millisecond
		c := newClient(t, ep)
		res, err := c.Chat(context.Background(), hi)
		if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "no answer within 50ms") || res.Usage.Attempts != 2 {
			t.Errorf("err = %v, usage %+v", err, res.Usage)
		}
	})
	t.Run("mid-stream", func(t *testing.T) {
		first := strings.SplitAfter(string(fixture(t, "chat_completion_stream_tool_call_split_args.sse")), "\n\n")[0]
		srv := newReplay(t, step{path: "POST /v1/chat/completions", handle: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, first)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}})
		ep := endpoint(RoleChat, srv.url(), ServerOpenAI)
		ep.Timeout = 50 * time.Millisecond
		c := newClient(t, ep)
		s, err := c.ChatStream(context.Background(), hi)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Recv(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Recv(); !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "next streamed chunk") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("the caller's deadline", func(t *testing.T) {
		srv := newReplay(t, step{path: "POST /v1/chat/completions", handle: stall})
		c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		_, err := c.Chat(ctx, hi)
		if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestMalformedStreams(t *testing.T) {
	recorded := fixture(t, "chat_completion_stream_tool_call_split_args.sse")
	events := strings.SplitAfter(string(recorded), "\n\n")
	cases := []struct {
		name string
		body string
		says string
	}{
		{"a chunk cut mid-JSON", events[0] + events[1][:40] + "\n\n" + strings.Join(events[2:], ""), "malformed response"},
		{"the stream ends before its finish", strings.Join(events[:4], ""), "ended before the server sent a finish reason"},
		{"an error event mid-stream", events[0] + `data: {"error":{"message":"The server had an error while processing your request.","type":"server_error"}}` + "\n\n", "server had an error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newReplay(t, step{path: "POST /v1/chat/completions", sse: true, body: []byte(tc.body)})
			c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
			s, err := c.ChatStream(context.Background(), hi)
			if err != nil {
				t.Fatal(err)
			}
			var last error
			for _, err := range s.Deltas() {
				last = err
			}
			if last == nil || !strings.Contains(last.Error(), tc.says) {
				t.Errorf("last error = %v, want one saying %q", last, tc.says)
			}
		})
	}
}

// FuzzStream feeds arbitrary bytes to the stream reader through an
// in-memory transport: it must end (EOF or an *Error), never hang or panic.
func FuzzStream(f *testing.F) {
	f.Add(fixture(f, "chat_completion_stream_tool_call_split_args.sse"))
	f.Add(fixture(f, "ollama_v1_stream_excerpt_first_and_last_chunk.sse"))
	f.Add(fixture(f, "llamacpp_v1_chat_stream.constructed.sse"))
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":-1}]}}]}\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
				Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
		})}
		c := newClient(t, endpoint(RoleChat, "http://fuzz.invalid/v1", ServerOpenAI), WithHTTPClient(hc))
		s, err := c.ChatStream(context.Background(), hi)
		if err != nil {
			return
		}
		for n := 0; ; n++ {
			_, err := s.Recv()
			if err != nil {
				var e *Error
				if err != io.EOF && !errors.As(err, &e) {
					t.Fatalf("error of type %T: %v", err, err)
				}
				return
			}
			if n > len(body) {
				t.Fatal("more deltas than bytes")
			}
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
