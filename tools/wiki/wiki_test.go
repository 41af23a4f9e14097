package wiki

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/webget"
	"github.com/gear-chat/gear/tools/webget/webgettest"
)

const testUA = "gear/test (+https://github.com/gear-chat/gear)"

func testConfig(srv *webgettest.Server, o webget.Options) Config {
	o.HTTP = srv.Client()
	o.UserAgent = testUA
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Second
	}
	o.Backoff = time.Millisecond
	return Config{Web: webget.New(o), BaseURL: srv.URL + "/"}
}

func searchRoute(term string, replies ...webgettest.Reply) webgettest.Route {
	return webgettest.Route{
		Path:    "/w/api.php",
		Query:   map[string]string{"action": "query", "list": "search", "srsearch": term, "format": "json", "srlimit": "5"},
		Replies: replies,
	}
}

func summaryRoute(escapedTitle string, replies ...webgettest.Reply) webgettest.Route {
	return webgettest.Route{Path: "/api/rest_v1/page/summary/" + escapedTitle, Replies: replies}
}

func wikiCall(term string) tools.Call {
	return tools.Call{Tool: "WikiSearch", Args: []tools.Arg{{Name: "term", Value: tools.String(term)}}}
}

// noHits is the recorded search answer with its hits taken away, as
// Wikipedia answers a search nothing matches: no recording of such an
// answer is in the fixtures, so it is derived here, keeping the recorded
// shape (batchcomplete, searchinfo with its suggestion).
func noHits(t *testing.T, keepSuggestion bool) []byte {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(webgettest.Fixture(t, "search_list_anthropic.json"), &body); err != nil {
		t.Fatal(err)
	}
	delete(body, "continue")
	query := body["query"].(map[string]any)
	query["search"] = []any{}
	info := query["searchinfo"].(map[string]any)
	info["totalhits"] = 0
	if !keepSuggestion {
		delete(info, "suggestion")
		delete(info, "suggestionsnippet")
	}
	out, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWikiSearch(t *testing.T) {
	search := webgettest.Reply{Body: webgettest.Fixture(t, "search_list_anthropic.json")}
	standard := webgettest.Reply{Body: webgettest.Fixture(t, "summary_standard_fermats_last_theorem.json")}
	disambiguation := webgettest.Reply{Body: webgettest.Fixture(t, "summary_disambiguation_test.json")}
	notFound := webgettest.Reply{Status: 404, Body: webgettest.Fixture(t, "summary_404_not_found.json")}
	unavailable := webgettest.Reply{Status: 503, Body: []byte("Service Unavailable")}
	const fermat = "Fermat's Last Theorem — theorem in number theory\n" +
		"In number theory, Fermat's Last Theorem states that no three positive integers a, b, and c satisfy the equation an + bn = cn " +
		"for any integer value of n greater than 2. The cases n = 1 and n = 2 have been known to have infinitely many solutions since antiquity.\n" +
		"https://en.wikipedia.org/wiki/Fermat's_Last_Theorem"
	// The recorded search and summaries come from different sessions, so
	// the summary served for the best hit, "Anthropic", is another page's.
	tests := []struct {
		name     string
		term     string
		opts     webget.Options
		routes   []webgettest.Route
		inputErr bool
		want     string // the whole text, or a part of the error
	}{
		{name: "standard summary", term: "anthropic",
			routes: []webgettest.Route{searchRoute("anthropic", search), summaryRoute("Anthropic", standard)}, want: fermat},
		{name: "disambiguation lists the options", term: "anthropic",
			routes: []webgettest.Route{searchRoute("anthropic", search), summaryRoute("Anthropic", disambiguation)},
			want: "Test — Topics referred to by the same term\n" +
				"Test(s), testing, or TEST may refer to:\n" +
				"- Test (assessment), an educational assessment intended to measure the respondents' knowledge or other abilities\n" +
				"- Anthropic principle\n" +
				"- Claude (AI)\n" +
				"https://en.wikipedia.org/wiki/Test"},
		{name: "404 summary falls back to the snippet, markup stripped", term: "anthropic",
			routes: []webgettest.Route{searchRoute("anthropic", search), summaryRoute("Anthropic", notFound)},
			want: "Anthropic\n" +
				"Anthropic, PBC is an American artificial intelligence (AI) public benefit corporation headquartered in San Francisco, California, founded with the goal …\n" +
				"{srv}/wiki/Anthropic"},
		{name: "no match, with Wikipedia's suggestion", term: "anthropicc",
			routes:   []webgettest.Route{searchRoute("anthropicc", webgettest.Reply{Body: noHits(t, true)})},
			inputErr: true, want: `wiki: no Wikipedia article matches "anthropicc"; did you mean "anthropo"?`},
		{name: "no match", term: "qqxyzzy",
			routes:   []webgettest.Route{searchRoute("qqxyzzy", webgettest.Reply{Body: noHits(t, false)})},
			inputErr: true, want: `wiki: no Wikipedia article matches "qqxyzzy"; try other words`},
		{name: "blank term", term: " ", inputErr: true, want: "wiki: nothing to look up"},
		{name: "503 then success", term: "anthropic",
			routes: []webgettest.Route{searchRoute("anthropic", unavailable, search), summaryRoute("Anthropic", unavailable, standard)}, want: fermat},
		{name: "503 twice", term: "anthropic",
			routes: []webgettest.Route{searchRoute("anthropic", search), summaryRoute("Anthropic", unavailable, unavailable)},
			want:   "wiki: Wikipedia answered HTTP 503 Service Unavailable (2 attempts); the service is having trouble, try again later"},
		{name: "stalled server", term: "anthropic", opts: webget.Options{Timeout: 50 * time.Millisecond},
			routes: []webgettest.Route{searchRoute("anthropic", webgettest.Reply{Stall: true}, webgettest.Reply{Stall: true})},
			want:   "wiki: Wikipedia did not answer within 50ms (2 attempts); check the network, or raise tools.timeout"},
		{name: "over-size body", term: "anthropic", opts: webget.Options{MaxBytes: 1024},
			routes: []webgettest.Route{searchRoute("anthropic", search)},
			want:   "wiki: Wikipedia sent more than 1024 bytes; check tools.wiki.base_url, or raise tools.max_response_bytes"},
		{name: "malformed JSON", term: "anthropic",
			routes: []webgettest.Route{searchRoute("anthropic", search), summaryRoute("Anthropic", webgettest.Reply{Body: standard.Body[:300]})},
			want:   "wiki: Wikipedia sent an answer gear cannot read (unexpected end of JSON input); check tools.wiki.base_url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := webgettest.NewServer(t, testUA, tt.routes...)
			want := strings.ReplaceAll(tt.want, "{srv}", srv.URL)
			res, err := New(testConfig(srv, tt.opts)).Run(context.Background(), wikiCall(tt.term))
			if err != nil {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q\nwant it to contain %q", err, want)
				}
				if tools.IsInput(err) != tt.inputErr {
					t.Errorf("error %q: InputError is %v, want %v", err, tools.IsInput(err), tt.inputErr)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error is not one line: %q", err)
				}
				return
			}
			if tt.inputErr || strings.HasPrefix(want, "wiki:") {
				t.Fatalf("no error; got %q", res.Text)
			}
			if res.Text != want {
				t.Errorf("text:\n%s\nwant:\n%s", res.Text, want)
			}
			if _, ok := res.Data.(Article); !ok {
				t.Errorf("data is %T, want Article", res.Data)
			}
		})
	}
}

func TestWikiSearchCancelled(t *testing.T) {
	srv := webgettest.NewServer(t, testUA, searchRoute("anthropic", webgettest.Reply{Stall: true}))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := New(testConfig(srv, webget.Options{Timeout: 5 * time.Second})).Run(ctx, wikiCall("anthropic"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want one wrapping context.Canceled", err)
	}
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("cancellation took %v", elapsed)
	}
}

func TestWikiSearchNetworkDown(t *testing.T) {
	cfg := Config{Web: webget.New(webget.Options{HTTP: &http.Client{Transport: webgettest.Down("dial tcp: lookup en.wikipedia.org: no such host")}, UserAgent: testUA}), BaseURL: "https://en.wikipedia.org"}
	_, err := New(cfg).Run(context.Background(), wikiCall("anthropic"))
	want := "wiki: Wikipedia unreachable: dial tcp: lookup en.wikipedia.org: no such host; check the network or tools.wiki.base_url"
	if err == nil || err.Error() != want || tools.IsInput(err) {
		t.Errorf("error %v\nwant run-time error %s", err, want)
	}
}

// The summary request must carry the title as one escaped path segment.
func TestSummaryPath(t *testing.T) {
	standard := webgettest.Reply{Body: webgettest.Fixture(t, "summary_standard_fermats_last_theorem.json")}
	tests := []struct{ title, path string }{
		{"Fermat's Last Theorem", "Fermat%27s_Last_Theorem"},
		{"AC/DC", "AC%2FDC"},
		{"What?", "What%3F"},
		{"Claude (AI)", "Claude_%28AI%29"},
		{"100% Pure", "100%25_Pure"},
		{"C#", "C%23"},
		{"Zürich", "Z%C3%BCrich"},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			srv := webgettest.NewServer(t, testUA, summaryRoute(tt.path, standard))
			s := New(testConfig(srv, webget.Options{}))
			if _, err := s.summary(context.Background(), tt.title); err != nil {
				t.Fatal(err)
			}
			if got := PathTitle(tt.title); got != tt.path {
				t.Errorf("PathTitle(%q) = %q, want %q", tt.title, got, tt.path)
			}
		})
	}
}

func TestStripMarkup(t *testing.T) {
	var recorded searchResponse
	if err := json.Unmarshal(webgettest.Fixture(t, "search_list_anthropic.json"), &recorded); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Anthropic, PBC is an American artificial intelligence (AI) public benefit corporation headquartered in San Francisco, California, founded with the goal",
		"In cosmology and philosophy of science, the anthropic principle (also known as the observation selection effect) is the proposition that the range of",
		"series of large language models developed by American software company Anthropic. Claude was released as an AI-based chatbot in March 2023. It is also",
	}
	for i, h := range recorded.Query.Search {
		if got := stripMarkup(h.Snippet); got != want[i] {
			t.Errorf("snippet %d:\n%q\nwant\n%q", i, got, want[i])
		}
	}
	tests := map[string]string{
		"a &amp; b &quot;c&quot;":   `a & b "c"`,
		"<b>bold</b>\n and  spaced": "bold and spaced",
		"unclosed <span":            "unclosed <span",
		"":                          "",
	}
	for in, want := range tests {
		if got := stripMarkup(in); got != want {
			t.Errorf("stripMarkup(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzStripMarkup(f *testing.F) {
	f.Add(`<span class="searchmatch">Anthropic</span>, PBC`)
	f.Add("a &amp; b <i>c</i>")
	f.Add("<<>>&#x3c;span>")
	f.Fuzz(func(t *testing.T, s string) {
		out := stripMarkup(s)
		if strings.Contains(out, "\n") || strings.Contains(out, "  ") {
			t.Errorf("stripMarkup(%q) = %q: white space not collapsed", s, out)
		}
		if !strings.ContainsAny(s, "&<") && out != strings.Join(strings.Fields(s), " ") {
			t.Errorf("stripMarkup(%q) = %q changed text with no markup", s, out)
		}
	})
}

func TestOptions(t *testing.T) {
	sum := summary{Title: "Mercury", Extract: "Mercury may refer to:", ExtractHTML: "<p>Mercury may refer to:</p><ul><li>Mercury (planet), the closest planet to the Sun</li><li><a>Mercury (element)</a>, a metal</li></ul>"}
	hits := []hit{{Title: "Mercury (planet)"}, {Title: "Freddie Mercury"}, {Title: "Mercury"}, {Title: "Mercury Records"}, {Title: "Mercury program"}, {Title: "Mercury Prize"}}
	got := options(sum, hits)
	want := []string{"Mercury (planet), the closest planet to the Sun", "Mercury (element), a metal", "Freddie Mercury", "Mercury Records", "Mercury program"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("options = %q\nwant %q", got, want)
	}
	if lead := disambiguationLead(summary{Title: "X"}); lead != "X may refer to:" {
		t.Errorf("lead = %q", lead)
	}
}

func TestSpec(t *testing.T) {
	reg, err := tools.NewRegistry(New(Config{}))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := reg.Spec("WikiSearch")
	if n := len(s.Examples); n < 4 || n > 6 {
		t.Errorf("%d examples, want 4 to 6", n)
	}
	c, err := reg.Parse(`WikiSearch("Ada Lovelace")`)
	if err != nil {
		t.Fatal(err)
	}
	mock := s.MockResponse(c)
	if !strings.HasPrefix(mock, "Ada Lovelace — ") || strings.ContainsAny(mock, "{}") {
		t.Errorf("mock %q", mock)
	}
}
