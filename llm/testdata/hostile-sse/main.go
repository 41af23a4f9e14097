// Command hostile-sse is an OpenAI-compatible server on loopback that
// answers every streamed chat request with one SSE data line of -size bytes
// (generated as it is sent, never held), and every other chat request with
// a short refusal. It measures gear against a hostile server:
//
//	go run ./llm/testdata/hostile-sse -addr 127.0.0.1:18099 -size 100MB &
//	GEAR_CHAT_MODEL=m GEAR_CHAT_BASE_URL=http://127.0.0.1:18099/v1 GEAR_CHAT_SERVER=openai \
//	  /usr/bin/time -v gear --db /tmp/h.db ask "tell me a joke"
//
// It lives under testdata so it is no package of gear's.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18099", "listen address (keep it on loopback)")
	size := flag.String("size", "100MB", "bytes in the streamed line: 100MB, 2GB, 1048576")
	newline := flag.Bool("newline", true, "end the line (false: the stream never sends a newline)")
	flag.Parse()
	n, err := parseSize(*size)
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Stream bool `json:"stream"`
		}
		json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req)
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{\"answer\":\"no\"}"},"finish_reason":"stop"}]}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"`)
		block := bytes.Repeat([]byte("a"), 64<<10)
		for sent := int64(0); sent < n; {
			k, err := w.Write(block[:min(int64(len(block)), n-sent)])
			if err != nil {
				return // gear hung up
			}
			sent += int64(k)
		}
		if *newline {
			io.WriteString(w, "\"}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
		}
	})
	log.Printf("hostile-sse on http://%s/v1, streaming a line of %d bytes", *addr, n)
	log.Fatal(http.ListenAndServe(*addr, nil))
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	for suffix, m := range map[string]int64{"KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30} {
		if strings.HasSuffix(s, suffix) {
			s, mult = strings.TrimSuffix(s, suffix), m
		}
	}
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		return 0, fmt.Errorf("-size %q: want a number with KB, MB or GB", s)
	}
	return n * mult, nil
}
