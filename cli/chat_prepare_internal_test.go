package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// When an MCP server's tools join the chat's library, their descriptions
// are embedded in the background at once — before any question — so no
// turn pays for them: the embedding server sees the new tool's description
// while no chat or grounding request has been made.
func TestNewServerToolsAreEmbeddedBeforeAnyTurn(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const newDescription = "Reverse the letters of a word, for palindrome puzzles"
	var mu sync.Mutex
	var embedded []string
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
			fmt.Fprint(w, `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","owned_by":"openai"},{"id":"text-embedding-3-small","object":"model","owned_by":"openai"}]}`)
		case r.Method == http.MethodPost && r.URL.Path == "/v1/embeddings":
			var req struct {
				Input any `json:"input"`
			}
			if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
				t.Errorf("embedding request: %v", err)
			}
			var texts []string
			switch in := req.Input.(type) {
			case string:
				texts = []string{in}
			case []any:
				for _, s := range in {
					texts = append(texts, fmt.Sprint(s))
				}
			}
			mu.Lock()
			embedded = append(embedded, texts...)
			mu.Unlock()
			var data []string
			for i := range texts {
				data = append(data, fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":[%d,1,0.5]}`, i, i%3))
			}
			fmt.Fprintf(w, `{"object":"list","model":"text-embedding-3-small","data":[%s],"usage":{"prompt_tokens":1,"total_tokens":1}}`, strings.Join(data, ","))
		default:
			t.Errorf("unexpected request %s %s: no turn was asked", r.Method, r.URL.Path)
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer model.Close()

	srv := sdk.NewServer(&sdk.Implementation{Name: "words", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "reverse", Description: newDescription, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"word":{"type":"string"}},"required":["word"]}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer hs.Close()

	env := map[string]string{"OPENAI_BASE_URL": model.URL + "/v1", "OPENAI_API_KEY": "sk-test-not-a-key"}
	a := chatApp(t, env, model, t.TempDir(), false)
	a.runCtx = ctx
	a.mcpFlags = []string{hs.URL + "/mcp"}
	defer a.closeMCP()
	st, err := a.openStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := a.chatOptions(ctx, st); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(15 * time.Second)
	for {
		mu.Lock()
		got := strings.Join(embedded, "\n")
		mu.Unlock()
		if strings.Contains(got, newDescription) {
			break
		}
		select {
		case <-deadline:
			t.Fatalf("the new server's tool was not embedded before a turn; embedded:\n%s", got)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
