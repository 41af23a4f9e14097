package declared

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// expect is one request the test server accepts, and its answer.
type expect struct {
	method, path, rawQuery, body string
	headers                      map[string]string
	status                       int
	reply                        string
}

// strictServer answers exactly the expected requests, in order; anything
// else fails the test.
func strictServer(t *testing.T, want ...expect) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	next := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		if next >= len(want) {
			t.Errorf("unexpected request %s %s", r.Method, r.URL)
			http.Error(w, "unexpected", http.StatusTeapot)
			return
		}
		e := want[next]
		next++
		if r.Method != e.method || r.URL.EscapedPath() != e.path || r.URL.RawQuery != e.rawQuery || string(body) != e.body {
			t.Errorf("request %d: got %s %s?%s body %q; want %s %s?%s body %q", next, r.Method, r.URL.EscapedPath(), r.URL.RawQuery, body, e.method, e.path, e.rawQuery, e.body)
		}
		if ua := r.Header.Get("User-Agent"); ua != "gear/test" {
			t.Errorf("User-Agent %q", ua)
		}
		for k, v := range e.headers {
			if got := r.Header.Get(k); got != v {
				t.Errorf("header %s = %q, want %q", k, got, v)
			}
		}
		if e.status != 0 {
			w.WriteHeader(e.status)
		}
		io.WriteString(w, e.reply)
	}))
	t.Cleanup(func() {
		srv.Close()
		mu.Lock()
		defer mu.Unlock()
		if next != len(want) {
			t.Errorf("the server got %d of %d expected requests", next, len(want))
		}
	})
	return srv
}

func TestHTTPGet(t *testing.T) {
	t.Parallel()
	srv := strictServer(t, expect{
		method: "GET", path: "/api/v2/entries/en/caf%C3%A9%2F%3F%20x", rawQuery: "lang=en+gb&limit=3",
		headers: map[string]string{"Authorization": "Bearer k-123", "Accept": "application/json"},
		reply:   `[{"word":"café/? x","meanings":[{"definitions":[{"definition":"a small \u001b[31mrestaurant\u001b[0m"}]}]}]`,
	}, expect{
		method: "GET", path: "/api/v2/entries/en/%2E%2E",
		reply: `[{"word":"..","meanings":[{"definitions":[{"definition":"dots"}]}]}]`,
	})
	path := writeDecl(t, t.TempDir(), "dict.yaml", `
name: Define
description: Looks up the meaning of an English word in a dictionary.
parameters:
  type: object
  properties:
    word: {type: string, description: the word to define}
    limit: {type: integer}
    lang: {type: string, enum: [en gb, en us]}
  required: [word]
examples:
  - query: what does serendipity mean
    call: Define("serendipity")
http:
  url: `+srv.URL+`/api/v2/entries/en/{word}
  query: {lang: "{lang}", limit: "{limit}"}
  headers: {Authorization: "Bearer ${DICT_KEY}"}
response:
  template: "{/0/word}: {/0/meanings/0/definitions/0/definition}"
`)
	tool := loadOne(t, path, Options{HTTP: srv.Client(), UserAgent: "gear/test",
		Getenv: func(k string) string { return map[string]string{"DICT_KEY": "k-123"}[k] }})
	spec := tool.Spec()
	if spec.Effect != "read-only" || spec.Source.Kind != "file" || spec.Source.Name != path || spec.Family != "define" {
		t.Errorf("spec = effect %q source %+v family %q", spec.Effect, spec.Source, spec.Family)
	}
	if got := spec.Signature(); got != "Define(word: string, [limit: integer], [lang: enum])" {
		t.Errorf("signature %s", got)
	}
	res, err := run(t, tool, `Define("café/? x", 3, "en gb")`)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "café/? x: a small restaurant" {
		t.Errorf("answer %q (escape sequences must be gone)", res.Text)
	}
	// An argument cannot climb out of its path segment.
	if res, err := run(t, tool, `Define("..")`); err != nil || res.Text != "..: dots" {
		t.Errorf("Define(\"..\") = %q, %v", res.Text, err)
	}
}

func TestHTTPPostBody(t *testing.T) {
	t.Parallel()
	srv := strictServer(t,
		expect{method: "POST", path: "/notes", body: `{"title":"a \"quoted\" <title>","stars":4.5,"tags":["x","4.5 stars"],"draft":true,"pinned":false}`,
			headers: map[string]string{"Content-Type": "application/json"}, status: 201, reply: `{"id": 7}`},
		expect{method: "POST", path: "/notes", body: `{"title":"t","tags":["x"],"draft":true}`, status: 503, reply: `busy`},
	)
	path := writeDecl(t, t.TempDir(), "notes.yaml", `
name: AddNote
description: Saves a note.
effect: writes
mock: "saved note {title}"
parameters:
  type: object
  properties:
    title: {type: string}
    stars: {type: number}
    pinned: {type: boolean}
  required: [title]
examples:
  - query: save a note called groceries, pinned
    arguments: {title: groceries, stars: 0, pinned: true}
http:
  method: post
  url: `+srv.URL+`/notes
  body:
    title: "{title}"
    stars: "{stars}"
    tags: [x, "{stars} stars"]
    draft: true
    pinned: "{pinned}"
response:
  pointer: /id
`)
	tool := loadOne(t, path, Options{HTTP: srv.Client(), UserAgent: "gear/test"})
	res, err := run(t, tool, `AddNote("a \"quoted\" <title>", 4.5, false)`)
	if err != nil || res.Text != "7" {
		t.Fatalf("AddNote = %q, %v", res.Text, err)
	}
	// A POST that fails is not sent twice.
	_, err = run(t, tool, `AddNote("t")`)
	if err == nil || !strings.Contains(err.Error(), "answered HTTP 503 Service Unavailable") {
		t.Errorf("err = %v", err)
	}
}

// TestHTTPFailures: the size cap, the deadline, a missing pointer and a
// server quoting the key back all fail with a message that says what to
// do, and never show the key.
func TestHTTPFailures(t *testing.T) {
	t.Parallel()
	const key = "sk-very-secret-9"
	big := strings.Repeat("x", 5000)
	srv := strictServer(t,
		expect{method: "GET", path: "/big", headers: map[string]string{"X-Key": key}, reply: big},
		expect{method: "GET", path: "/missing", headers: map[string]string{"X-Key": key}, reply: `{"results": []}`},
		expect{method: "GET", path: "/echo", headers: map[string]string{"X-Key": key}, status: 401, reply: `{"detail": "bad key ` + key + ` \u001b]0;pwned\u0007!"}`},
		expect{method: "GET", path: "/big", headers: map[string]string{"X-Key": key}, reply: big[:100]},
	)
	dir := t.TempDir()
	path := writeDecl(t, dir, "t.yaml", `
name: Fetch
description: Fetches a page.
parameters:
  type: object
  properties:
    page: {type: string}
  required: [page]
http:
  url: `+srv.URL+`/{page}
  headers: {X-Key: "${K}"}
  error_pointer: /detail
  max_bytes: 1000
  timeout: 2s
response:
  pointer: /results/0/name
`)
	tool := loadOne(t, path, Options{HTTP: srv.Client(), UserAgent: "gear/test", Getenv: func(string) string { return key }})
	tests := []struct{ call, want string }{
		{`Fetch("big")`, "sent more than 1000 bytes; check url in " + path + ", or raise max_bytes in " + path},
		{`Fetch("missing")`, "the answer's list at /results has 0 items, none at index 0; check response: in " + path},
		{`Fetch("echo")`, "refused the request with HTTP 401 Unauthorized: bad key [redacted] !; check url in " + path},
		{`Fetch("big")`, "the answer is not JSON"},
	}
	for _, tc := range tests {
		_, err := run(t, tool, tc.call)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.call, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), key) {
			t.Errorf("%s: the key is in the error: %v", tc.call, err)
		}
	}
}

func TestHTTPDeadline(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	path := writeDecl(t, t.TempDir(), "slow.yaml", `
name: Slow
description: Never answers.
http:
  url: `+srv.URL+`/
  timeout: 100ms
`)
	tool := loadOne(t, path, Options{HTTP: srv.Client()})
	start := time.Now()
	_, err := run(t, tool, `Slow()`)
	if err == nil || !strings.Contains(err.Error(), "did not answer within 100ms (2 attempts); check the network, or raise timeout in "+path) {
		t.Errorf("err = %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}

// TestResultCapped: a long answer is cut, and the cut is said.
func TestResultCapped(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", MaxResultBytes)
	srv := strictServer(t, expect{method: "GET", path: "/", reply: long})
	path := writeDecl(t, t.TempDir(), "long.yaml", "name: Long\ndescription: Long answers.\nhttp: {url: "+srv.URL+"/}\n")
	res, err := run(t, loadOne(t, path, Options{HTTP: srv.Client(), UserAgent: "gear/test"}), `Long()`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(res.Text, "[… cut: the answer was 32768 bytes, gear shows the first 16384]") || len(res.Text) > MaxResultBytes+100 {
		t.Errorf("answer ends %q (len %d)", res.Text[len(res.Text)-80:], len(res.Text))
	}
}

// TestHTTPServiceAnswers: a declared POST tool against replays of
// LibreTranslate's real answers — the translation read by its pointer, and
// a refusal explained by the service's own words (error_pointer).
func TestHTTPServiceAnswers(t *testing.T) {
	t.Parallel()
	ok, err := os.ReadFile(filepath.Join("testdata", "translate_auto_detect_docs_bonjour.json"))
	if err != nil {
		t.Fatal(err)
	}
	refused, err := os.ReadFile(filepath.Join("testdata", "translate_error_400_target_not_supported.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := strictServer(t,
		expect{method: "POST", path: "/translate", body: `{"q":"Bonjour!","source":"auto","target":"en","format":"text"}`, reply: string(ok)},
		expect{method: "POST", path: "/translate", body: `{"q":"Bonjour!","source":"auto","target":"lzh","format":"text"}`, status: 400, reply: string(refused)},
	)
	path := writeDecl(t, t.TempDir(), "libre.yaml", `
name: Translate
description: Translates text into another language with LibreTranslate.
effect: read-only
parameters:
  type: object
  properties:
    text: {type: string}
    target: {type: string, description: a language code such as en or de}
  required: [text, target]
http:
  method: POST
  url: `+srv.URL+`/translate
  body: {q: "{text}", source: auto, target: "{target}", format: text}
  error_pointer: /error
response:
  pointer: /translatedText
`)
	tool := loadOne(t, path, Options{HTTP: srv.Client(), UserAgent: "gear/test"})
	if res, err := run(t, tool, `Translate("Bonjour!", "en")`); err != nil || res.Text != "Hello!" || res.Data != "Hello!" {
		t.Errorf("Translate = %q (data %v), %v", res.Text, res.Data, err)
	}
	_, err = run(t, tool, `Translate("Bonjour!", "lzh")`)
	if err == nil || !strings.Contains(err.Error(), "refused the request with HTTP 400 Bad Request: lzh is not supported; check url in "+path) {
		t.Errorf("err = %v", err)
	}
}
