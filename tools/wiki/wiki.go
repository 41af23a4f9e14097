// Package wiki is gear's WikiSearch tool: a Wikipedia full-text search,
// then the REST summary of the best hit (title, short description, first
// paragraph, link). A disambiguation page lists its top options.
package wiki

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/webget"
)

// Config is what WikiSearch needs. BaseURL is the wiki's root, e.g.
// "https://en.wikipedia.org"; its language is the language searched.
type Config struct {
	Web     *webget.Client
	BaseURL string
}

// Search is the WikiSearch tool.
type Search struct{ cfg Config }

// New returns the WikiSearch tool.
func New(cfg Config) *Search { return &Search{cfg: cfg} }

// Spec describes WikiSearch.
func (s *Search) Spec() tools.Spec {
	return tools.Spec{
		Name:   "WikiSearch",
		Family: tools.FamilyWiki,
		Source: tools.Builtin,
		Effect: tools.EffectReadOnly,
		Description: "Wikipedia Search API is used to look up information from Wikipedia that is necessary to answer a question: " +
			"facts about people, places, things, events, words and ideas. " +
			"It finds the best-matching article and returns its title, short description, first paragraph and link.",
		Params: []tools.Param{
			{Name: "term", Type: tools.TypeString, Description: "what to look up: a name, a topic or a few key words"},
		},
		Examples: []tools.Example{
			{Query: "Who was Ada Lovelace and why is she famous?", Call: `WikiSearch("Ada Lovelace")`},
			{Query: "What is the Great Barrier Reef made of?", Call: `WikiSearch("Great Barrier Reef")`},
			{Query: "In which year did Constantinople fall to the Ottomans?", Call: `WikiSearch("Fall of Constantinople")`},
			{Query: "Which author created the novel Moby-Dick?", Call: `WikiSearch("Moby-Dick novel")`},
			{Query: "What does the word ephemeral mean?", Call: `WikiSearch("ephemeral")`},
		},
		Mock:  mockArticle(),
		Hints: hints(),
	}
}

// Article is WikiSearch's structured result.
type Article struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	// Extract is the article's first paragraph, or the search snippet
	// when the summary could not be had (FromSnippet).
	Extract string `json:"extract"`
	URL     string `json:"url"`
	// Disambiguation marks a page listing articles of one name; Options
	// are the top ones.
	Disambiguation bool     `json:"disambiguation,omitempty"`
	Options        []string `json:"options,omitempty"`
	FromSnippet    bool     `json:"from_snippet,omitempty"`
}

// maxHits is how many search hits are asked for, and maxOptions how many
// options of a disambiguation page are shown.
const (
	maxHits    = 5
	maxOptions = 5
)

func searchService() webget.Service {
	return webget.Service{Name: "Wikipedia", URLKey: "tools.wiki.base_url", Reason: mediaWikiReason}
}

func summaryService() webget.Service {
	return webget.Service{Name: "Wikipedia", URLKey: "tools.wiki.base_url", Reason: webget.JSONReason("detail")}
}

// searchResponse is the part of action=query&list=search gear reads.
type searchResponse struct {
	Query struct {
		SearchInfo struct {
			TotalHits  int    `json:"totalhits"`
			Suggestion string `json:"suggestion"`
		} `json:"searchinfo"`
		Search []hit `json:"search"`
	} `json:"query"`
	Error *apiError `json:"error"`
}

type hit struct {
	Title   string `json:"title"`
	Snippet string `json:"snippet"`
}

// apiError is how the MediaWiki action API reports a failure (with HTTP 200).
type apiError struct {
	Code string `json:"code"`
	Info string `json:"info"`
}

func mediaWikiReason(body []byte) string {
	var r searchResponse
	if json.Unmarshal(body, &r) != nil || r.Error == nil {
		return ""
	}
	return r.Error.Info
}

// summary is the part of the REST page summary gear reads.
type summary struct {
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Extract     string `json:"extract"`
	ExtractHTML string `json:"extract_html"`
	ContentURLs struct {
		Desktop struct {
			Page string `json:"page"`
		} `json:"desktop"`
	} `json:"content_urls"`
}

// Run looks the call's term up.
func (s *Search) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	term := strings.TrimSpace(call.Text("term"))
	if term == "" {
		return tools.Result{}, tools.Inputf("wiki: nothing to look up; give a name, a topic or a few key words")
	}
	hits, err := s.search(ctx, term)
	if err != nil {
		return tools.Result{}, err
	}
	best := hits[0]
	sum, err := s.summary(ctx, best.Title)
	var werr *webget.Error
	switch {
	case errors.As(err, &werr) && werr.Kind == webget.KindStatus && werr.Status == http.StatusNotFound:
		// The page went between the search and the summary (deleted,
		// moved, or a search index behind): the hit's snippet still says
		// what it was about.
		a := Article{Title: best.Title, Extract: stripMarkup(best.Snippet) + " …", URL: s.articleURL(best.Title), FromSnippet: true}
		return tools.Result{Text: a.Text(), Data: a}, nil
	case err != nil:
		return tools.Result{}, fmt.Errorf("wiki: %w", err)
	}
	a := Article{
		Title:       sum.Title,
		Description: sum.Description,
		Extract:     firstParagraph(sum.Extract),
		URL:         sum.ContentURLs.Desktop.Page,
	}
	if a.Title == "" {
		a.Title = best.Title
	}
	if a.URL == "" {
		a.URL = s.articleURL(a.Title)
	}
	if sum.Type == "disambiguation" {
		a.Disambiguation = true
		a.Extract = disambiguationLead(sum)
		a.Options = options(sum, hits[1:])
	}
	return tools.Result{Text: a.Text(), Data: a}, nil
}

func (s *Search) root() string { return strings.TrimRight(s.cfg.BaseURL, "/") }

// search runs the full-text search; no hit is the caller's to fix.
func (s *Search) search(ctx context.Context, term string) ([]hit, error) {
	q := url.Values{}
	q.Set("action", "query")
	q.Set("list", "search")
	q.Set("srsearch", term)
	q.Set("format", "json")
	q.Set("srlimit", strconv.Itoa(maxHits))
	var resp searchResponse
	if err := s.cfg.Web.GetJSON(ctx, searchService(), s.root()+"/w/api.php?"+q.Encode(), &resp); err != nil {
		return nil, fmt.Errorf("wiki: %w", err)
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("wiki: Wikipedia search failed: %s (%s); check tools.wiki.base_url", resp.Error.Info, resp.Error.Code)
	}
	if len(resp.Query.Search) == 0 {
		if sug := resp.Query.SearchInfo.Suggestion; sug != "" {
			return nil, tools.Inputf("wiki: no Wikipedia article matches %q; did you mean %q?", term, sug)
		}
		return nil, tools.Inputf("wiki: no Wikipedia article matches %q; try other words", term)
	}
	return resp.Query.Search, nil
}

func (s *Search) summary(ctx context.Context, title string) (summary, error) {
	var sum summary
	err := s.cfg.Web.GetJSON(ctx, summaryService(), s.root()+"/api/rest_v1/page/summary/"+PathTitle(title), &sum)
	return sum, err
}

func (s *Search) articleURL(title string) string { return s.root() + "/wiki/" + PathTitle(title) }

// PathTitle writes a page title as one URL path segment the way Wikipedia
// links do: spaces become underscores, and everything a path segment
// cannot hold as is ("/", "?", "#", "%", non-ASCII) is percent-escaped, so
// "AC/DC" stays one title.
func PathTitle(title string) string {
	return url.PathEscape(strings.ReplaceAll(strings.TrimSpace(title), " ", "_"))
}

// firstParagraph keeps an extract's first paragraph.
func firstParagraph(s string) string {
	for _, p := range strings.Split(s, "\n") {
		if p = strings.TrimSpace(p); p != "" {
			return p
		}
	}
	return ""
}
