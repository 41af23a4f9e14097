package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hostileStream is a server that answers one streamed chat request with
// hostileBody; written counts what it managed to send before gear hung up.
func hostileStream(t *testing.T, head string, fill []byte, size int64, tail string) (*replay, *atomic.Int64) {
	t.Helper()
	var written atomic.Int64
	srv := newReplay(t, step{path: "POST /v1/chat/completions", handle: hostileBody(head, fill, size, tail, &written)})
	return srv, &written
}

// hostileBody writes head, then fill repeated up to size bytes (generated
// as they are written, never held whole; whole copies of fill only), then
// tail, as an event stream.
func hostileBody(head string, fill []byte, size int64, tail string, written *atomic.Int64) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		n, err := io.WriteString(w, head)
		written.Add(int64(n))
		if err != nil {
			return
		}
		block := bytes.Repeat(fill, max(1, (64<<10)/len(fill)))
		size := size - size%int64(len(fill))
		for sent := int64(0); sent < size; {
			chunk := block[:min(int64(len(block)), size-sent)]
			n, err := w.Write(chunk)
			written.Add(int64(n))
			sent += int64(n)
			if err != nil || r.Context().Err() != nil {
				return
			}
		}
		n, _ = io.WriteString(w, tail)
		written.Add(int64(n))
	}
}

const (
	okChunk  = `data: {"choices":[{"index":0,"delta":{"content":"ok"}}]}` + "\n\n"
	endChunk = `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
)

// drain reads a stream to its end and returns its text and the failure.
func drain(t *testing.T, c *Client, req ChatRequest) (ChatResult, error) {
	t.Helper()
	s, err := c.ChatStream(context.Background(), req)
	if err != nil {
		return ChatResult{}, err
	}
	var last error
	for _, err := range s.Deltas() {
		last = err
	}
	return s.Result(), last
}

func TestHostileStreamsAreCut(t *testing.T) {
	t.Parallel()
	contentHead := `data: {"choices":[{"index":0,"delta":{"content":"`
	cases := []struct {
		name  string
		head  string
		fill  []byte
		size  int64
		tail  string
		want  string
		limit int64 // the most the server may get out before gear hangs up
	}{
		{"a 100 MB SSE line", contentHead, []byte("a"), 100 << 20, `"}}]}` + "\n\n" + endChunk, "a streamed line is longer than 1 MiB", 8 << 20},
		{"2 GB without a newline", "data: ", []byte("x"), 2 << 30, "", "a streamed line is longer than 1 MiB", 8 << 20},
		{"an error-prefixed line of 100 MB", `data: {"error":{"message":"`, []byte("e"), 100 << 20, `"}}` + "\n\n", "a streamed line is longer than 1 MiB", 8 << 20},
		{"290 comment lines of 1 MB", okChunk, append(append([]byte(":"), bytes.Repeat([]byte("c"), 1<<20-2)...), '\n'), 290 << 20, endChunk, "the streamed response is longer than 64 MiB", 80 << 20},
		{"200 MB of text that is not data", okChunk, append(bytes.Repeat([]byte("junk that is neither data nor a comment "), 25), '\n'), 200 << 20, endChunk, "more than 64 KiB that is not data", 8 << 20},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, written := hostileStream(t, tc.head, tc.fill, tc.size, tc.tail)
			c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
			_, err := drain(t, c, hi)
			if !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrBadResponse saying %q", err, tc.want)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("the error is not one line: %q", err)
			}
			srv.srv.CloseClientConnections()
			if n := written.Load(); n > tc.limit {
				t.Errorf("the server got %d MiB out; gear should hang up within %d MiB", n>>20, tc.limit>>20)
			}
		})
	}
}

func TestStreamCommentsAndFieldsAreDropped(t *testing.T) {
	t.Parallel()
	// Comments longer than the line limit and SSE fields gear does not use
	// are skipped, and the answer around them arrives whole.
	head := ": " + strings.Repeat("k", 3<<20) + "\nevent: message\nid: 7\nretry: 10\n" + okChunk
	srv, _ := hostileStream(t, head, []byte(": keep-alive\n"), 1<<20, okChunk+endChunk)
	c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
	res, err := drain(t, c, hi)
	if err != nil || res.Content != "okok" || res.FinishReason != "stop" {
		t.Fatalf("result = %+v, err = %v", res, err)
	}
}

func TestStreamedToolArgumentsAreBounded(t *testing.T) {
	t.Parallel()
	first := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}}]}` + "\n\n"
	piece := []byte(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"` + strings.Repeat("x", 1000) + `"}}]}}]}` + "\n\n")
	srv, written := hostileStream(t, first, piece, 200<<20, endChunk)
	c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
	_, err := drain(t, c, hi)
	if !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), "tool-call arguments are longer than 1 MiB") {
		t.Fatalf("err = %v", err)
	}
	srv.srv.CloseClientConnections()
	if n := written.Load(); n > 16<<20 {
		t.Errorf("the server got %d MiB out", n>>20)
	}

	t.Run("too many calls", func(t *testing.T) {
		var b strings.Builder
		for i := range maxStreamCalls + 1 {
			fmt.Fprintf(&b, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"c%d","function":{"name":"f","arguments":"{}"}}]}}]}`+"\n\n", i, i)
		}
		srv := newReplay(t, step{path: "POST /v1/chat/completions", sse: true, body: []byte(b.String() + endChunk)})
		c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
		if _, err := drain(t, c, hi); !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), "more than 64 tool calls") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestUnrequestedLogprobsAreNotKept(t *testing.T) {
	t.Parallel()
	chunk := `data: {"choices":[{"index":0,"delta":{"content":"a"},"logprobs":{"content":[{"token":"a","logprob":-0.1,"top_logprobs":[{"token":"b","logprob":-2}]}]}}]}` + "\n\n"
	body := strings.Repeat(chunk, 3) + endChunk
	for _, asked := range []int{0, 2} {
		srv := newReplay(t, step{path: "POST /v1/chat/completions", sse: true, body: []byte(body)})
		c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
		res, err := drain(t, c, ChatRequest{Messages: hi.Messages, TopLogprobs: asked})
		if err != nil || res.Content != "aaa" {
			t.Fatalf("result = %+v, err = %v", res, err)
		}
		if want := map[bool]int{true: 3, false: 0}[asked > 0]; len(res.Tokens) != want {
			t.Errorf("top_logprobs %d: kept %d tokens, want %d", asked, len(res.Tokens), want)
		}
	}
}

func TestKeyEchoedInAnyErrorFieldIsMasked(t *testing.T) {
	t.Parallel()
	echo := fmt.Sprintf(`{"error":{"message":"bad key %[1]s","type":"%[1]s","param":"%[1]s","code":"%[1]s"}}`, testKey)
	for _, streamed := range []bool{false, true} {
		srv := newReplay(t, step{path: "POST /v1/chat/completions", status: 401, body: []byte(echo)})
		c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
		var err error
		if streamed {
			_, err = c.ChatStream(context.Background(), hi)
		} else {
			_, err = c.Chat(context.Background(), hi)
		}
		if !errors.Is(err, ErrAuth) {
			t.Fatalf("err = %v, want ErrAuth", err)
		}
		// Everything reachable from the error: its text, every wrapped
		// cause's text, and the fields callers read.
		var e *Error
		errors.As(err, &e)
		texts := []string{err.Error(), fmt.Sprintf("%+v", err), e.Code, e.Detail}
		for u := error(e.Err); u != nil; u = errors.Unwrap(u) {
			texts = append(texts, u.Error())
		}
		for _, s := range texts {
			if strings.Contains(s, "DO-NOT-PRINT") {
				t.Errorf("streamed=%v: key shown in %q", streamed, s)
			}
		}
	}
}

func TestBaseURLPasswordIsRedacted(t *testing.T) {
	t.Parallel()
	srv := newReplay(t, step{path: "POST /v1/chat/completions", status: 500, body: []byte(`{"error":{"message":"down","type":"server_error"}}`)},
		step{path: "POST /v1/chat/completions", status: 500, body: []byte(`{"error":{"message":"down","type":"server_error"}}`)})
	url := strings.Replace(srv.url(), "http://", "http://gear:hunter2pw@", 1)
	ep := endpoint(RoleChat, url, ServerOpenAI)
	c := newClient(t, ep)
	_, err := c.Chat(context.Background(), hi)
	if err == nil {
		t.Fatal("want an error")
	}
	for _, s := range []string{err.Error(), ep.Describe()} {
		if strings.Contains(s, "hunter2pw") || !strings.Contains(s, "[redacted]@") {
			t.Errorf("password not redacted: %s", s)
		}
	}
	// An unreachable server's network error quotes the URL too.
	dead := endpoint(RoleChat, "http://gear:hunter2pw@127.0.0.1:1/v1", ServerOpenAI)
	_, err = newClient(t, dead).Chat(context.Background(), hi)
	for u := err; u != nil; u = errors.Unwrap(u) {
		if strings.Contains(u.Error(), "hunter2pw") {
			t.Errorf("password in %q", u)
		}
	}
}

// BenchmarkHostileLine is gear reading a stream whose one SSE line is 100 MB
// (generated as it is sent): it hangs up at the line limit. peak-heap-MB is
// the largest heap seen while it reads.
func BenchmarkHostileLine(b *testing.B) {
	var peak atomic.Uint64
	stop := make(chan struct{})
	go samplePeakHeap(stop, &peak)
	defer close(stop)
	var written atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(hostileBody(`data: {"choices":[{"index":0,"delta":{"content":"`, []byte("a"), 100<<20, "", &written)))
	defer srv.Close()
	c := newClient(b, endpoint(RoleChat, srv.URL+"/v1", ServerOpenAI))
	for b.Loop() {
		s, err := c.ChatStream(context.Background(), hi)
		if err != nil {
			b.Fatal(err)
		}
		for range s.Deltas() {
		}
	}
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
}

func samplePeakHeap(stop <-chan struct{}, peak *atomic.Uint64) {
	var ms runtime.MemStats
	for {
		select {
		case <-stop:
			return
		case <-time.After(2 * time.Millisecond):
		}
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse > peak.Load() {
			peak.Store(ms.HeapInuse)
		}
	}
}

func TestUnrequestedLogprobsAreNotKeptUnstreamed(t *testing.T) {
	t.Parallel()
	srv := newReplay(t, step{path: "POST /v1/chat/completions", body: fixture(t, "chat_completion_logprobs_docs_example.json")})
	c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
	res, err := c.Chat(context.Background(), hi)
	if err != nil || res.Content == "" || len(res.Tokens) != 0 {
		t.Fatalf("result %+v, %v: logprobs kept though not asked for", res, err)
	}
}

// The same key echoed by an error sent inside a stream.
func TestKeyEchoedInAStreamedErrorIsMasked(t *testing.T) {
	t.Parallel()
	body := okChunk + fmt.Sprintf(`data: {"error":{"message":"quota for %[1]s","type":"%[1]s","code":"%[1]s"}}`, testKey) + "\n\n"
	srv := newReplay(t, step{path: "POST /v1/chat/completions", sse: true, body: []byte(body)})
	c := newClient(t, endpoint(RoleChat, srv.url(), ServerOpenAI))
	res, err := drain(t, c, hi)
	if err == nil || res.Content != "ok" {
		t.Fatalf("result %+v, err %v", res, err)
	}
	var e *Error
	errors.As(err, &e)
	texts := []string{err.Error(), e.Code, e.Detail}
	for u := error(e.Err); u != nil; u = errors.Unwrap(u) {
		texts = append(texts, u.Error())
	}
	for _, s := range texts {
		if strings.Contains(s, "DO-NOT-PRINT") {
			t.Errorf("key shown in %q", s)
		}
	}
}
