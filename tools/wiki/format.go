package wiki

import (
	"html"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Text renders the article: a title line (with the short description), the
// first paragraph (or a disambiguation page's options) and the link.
//
//	Fermat's Last Theorem — theorem in number theory
//	In number theory, Fermat's Last Theorem states that no three positive integers …
//	https://en.wikipedia.org/wiki/Fermat's_Last_Theorem
func (a Article) Text() string {
	var b strings.Builder
	b.WriteString(a.Title)
	if a.Description != "" {
		b.WriteString(" — " + a.Description)
	}
	if a.Extract != "" {
		b.WriteString("\n" + a.Extract)
	}
	for _, o := range a.Options {
		b.WriteString("\n- " + o)
	}
	b.WriteString("\n" + a.URL)
	return b.String()
}

var (
	tagPattern      = regexp.MustCompile(`<[^>]*>`)
	listItemPattern = regexp.MustCompile(`(?is)<li[^>]*>(.*?)</li>`)
)

// stripMarkup turns a search snippet or an HTML fragment into plain text:
// tags (the <span class="searchmatch"> highlighting) removed, entities
// decoded, white space collapsed.
func stripMarkup(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(tagPattern.ReplaceAllString(s, ""))), " ")
}

// maxOptionLen bounds one option of a disambiguation page, in runes.
const maxOptionLen = 120

// disambiguationLead is the sentence a disambiguation page opens with,
// "Test(s), testing, or TEST may refer to:". The plain extract runs the
// list on without a break, so it is cut after "refer to:".
func disambiguationLead(sum summary) string {
	const marker = "refer to:"
	if i := strings.Index(sum.Extract, marker); i >= 0 {
		return strings.TrimSpace(sum.Extract[:i+len(marker)])
	}
	return sum.Title + " may refer to:"
}

// options lists a disambiguation page's top entries: the items of its
// summary's list, then the other search hits, without repeats.
func options(sum summary, others []hit) []string {
	var out []string
	seen := func(title string) bool {
		for _, o := range out {
			if strings.EqualFold(o, title) || strings.HasPrefix(strings.ToLower(o), strings.ToLower(title)+",") {
				return true
			}
		}
		return strings.EqualFold(title, sum.Title)
	}
	for _, m := range listItemPattern.FindAllStringSubmatch(sum.ExtractHTML, -1) {
		if item := clipRunes(stripMarkup(m[1]), maxOptionLen); item != "" && !seen(item) {
			out = append(out, item)
		}
	}
	if len(out) == 0 && sum.ExtractHTML == "" {
		if i := strings.Index(sum.Extract, "refer to:"); i >= 0 {
			if rest := clipRunes(strings.TrimSpace(sum.Extract[i+len("refer to:"):]), maxOptionLen); rest != "" {
				out = append(out, rest)
			}
		}
	}
	for _, h := range others {
		if h.Title != "" && !seen(h.Title) {
			out = append(out, h.Title)
		}
	}
	if len(out) > maxOptions {
		out = out[:maxOptions]
	}
	return out
}

// clipRunes shortens s to n runes, marking the cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// mockArticle is WikiSearch's grounding mock (GEAR, arXiv:2307.08775, Appendix
// A.3): an article rendered by the same code as a real one, so it has the
// same mix of words, a date, punctuation and a link, for the term "{term}".
func mockArticle() string {
	return Article{
		Title:       "{term}",
		Description: "topic of an encyclopedia article",
		Extract: "{term} is the subject of a Wikipedia article. It was first described in 1905, " +
			"and the article covers its history, its main features and the people who studied it.",
		URL: "https://en.wikipedia.org/wiki/{term}",
	}.Text()
}
