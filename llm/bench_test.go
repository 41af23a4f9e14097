package llm

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// timedServer answers every request with body and adds up the time its
// handler spends, so a benchmark can subtract the server's own time.
func timedServer(b *testing.B, contentType string, body []byte) (*httptest.Server, *atomic.Int64) {
	var spent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", contentType)
		w.Write(body)
		spent.Add(int64(time.Since(start)))
	}))
	b.Cleanup(srv.Close)
	return srv, &spent
}

// BenchmarkChatOverhead is one non-streamed tool-call completion against a
// local server; client-µs/op excludes the server handler's own time.
func BenchmarkChatOverhead(b *testing.B) {
	srv, spent := timedServer(b, "application/json", fixture(b, "chat_completion_tool_calls.json"))
	c := newClient(b, endpoint(RoleChat, srv.URL+"/v1", ServerOpenAI))
	req := ChatRequest{Messages: []Message{{Role: "user", Content: "What is the weather like in Boston?"}},
		Tools: []ToolDef{weatherTool}, Temperature: Temperature(0)}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if _, err := c.Chat(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	client := time.Since(start) - time.Duration(spent.Load())
	b.ReportMetric(float64(client.Microseconds())/float64(b.N), "client-µs/op")
}

// BenchmarkChatOverheadInMemory is the same call with no network at all:
// what gear and go-openai themselves cost.
func BenchmarkChatOverheadInMemory(b *testing.B) {
	body := fixture(b, "chat_completion_tool_calls.json")
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
	})}
	c := newClient(b, endpoint(RoleChat, "http://bench.invalid/v1", ServerOpenAI), WithHTTPClient(hc))
	req := ChatRequest{Messages: []Message{{Role: "user", Content: "What is the weather like in Boston?"}},
		Tools: []ToolDef{weatherTool}, Temperature: Temperature(0)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Chat(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// streamBody repeats the recorded stream's argument-delta event n times
// between its first event and its finish, usage and [DONE] events.
func streamBody(b *testing.B, n int) []byte {
	events := strings.SplitAfter(string(fixture(b, "chat_completion_stream_tool_call_split_args.sse")), "\n\n")
	var buf strings.Builder
	buf.WriteString(events[0])
	for range n {
		buf.WriteString(events[2])
	}
	buf.WriteString(strings.Join(events[7:], ""))
	return []byte(buf.String())
}

const deltasPerStream = 1000

// BenchmarkStreamPerDelta reads a 1000-delta stream from a local server;
// client-µs/delta excludes the server handler's own time.
func BenchmarkStreamPerDelta(b *testing.B) {
	srv, spent := timedServer(b, "text/event-stream", streamBody(b, deltasPerStream))
	c := newClient(b, endpoint(RoleChat, srv.URL+"/v1", ServerOpenAI))
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		readStream(b, c)
	}
	client := time.Since(start) - time.Duration(spent.Load())
	b.ReportMetric(float64(client.Nanoseconds())/1e3/float64(b.N*(deltasPerStream+2)), "client-µs/delta")
}

// BenchmarkStreamPerDeltaInMemory is the same stream with no network.
func BenchmarkStreamPerDeltaInMemory(b *testing.B) {
	body := streamBody(b, deltasPerStream)
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
			Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
	})}
	c := newClient(b, endpoint(RoleChat, "http://bench.invalid/v1", ServerOpenAI), WithHTTPClient(hc))
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		readStream(b, c)
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/1e3/float64(b.N*(deltasPerStream+2)), "µs/delta")
}

func readStream(b *testing.B, c *Client) {
	s, err := c.ChatStream(context.Background(), hi)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, err := range s.Deltas() {
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
	if n != deltasPerStream+2 {
		b.Fatalf("%d deltas", n)
	}
}
