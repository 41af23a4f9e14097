package offline

import (
	"strings"
	"unicode"

	"github.com/gear-chat/gear/tools"
)

// The focal string of a string parameter. The question's focus (focus in
// extract.go) is what a look-up tool searches for: "who wrote Hamlet" ->
// "wrote Hamlet". A tool whose description already says what kind of
// thing it looks up wants less: of "what's the stock price of AAPL" a
// tool that "gets the stock price for a ticker symbol" wants "AAPL", and
// of "latest version of numpy on pypi" a tool package_version that
// "looks up the latest version of a package on PyPI" wants "numpy". So
// the words the tool's own name and descriptions use are trimmed from the
// ends of the focus; and a query that asks no question, about no one's
// own affairs, but uses a word of the tool's name gives what is left of
// it once the tool's words are gone, when that is short.

// maxResidualWords bounds the words left over from a query that asks no
// question: more than this is a sentence, not the name of a thing.
const maxResidualWords = 3

// toolWords are the stems of the content words a tool uses for itself:
// its name (split at "_", "-", "." and case changes), its description
// and the parameter's description.
func (e *Engine) toolWords(spec tools.Spec, p tools.Param) map[string]bool {
	words := map[string]bool{}
	for _, text := range []string{splitName(spec.Name), spec.Description, p.Description} {
		for _, t := range tokenize(strings.ToLower(text)) {
			if !e.lex.stop[t.text] && !isQuestionWord(t.text) {
				words[stem(t.text)] = true
			}
		}
	}
	return words
}

// nameWords are the stems of the content words of the tool's name.
func (e *Engine) nameWords(spec tools.Spec) map[string]bool {
	words := map[string]bool{}
	for _, t := range tokenize(strings.ToLower(splitName(spec.Name))) {
		if !e.lex.stop[t.text] {
			words[stem(t.text)] = true
		}
	}
	return words
}

// splitName spells a tool name as words: "get_stock_price" and
// "GetStockPrice" are "get stock price".
func splitName(name string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.':
			b.WriteByte(' ')
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

// ownWords are a tool's own words and its name's, for one parameter.
type ownWords struct{ own, name map[string]bool }

// ownWordsOf returns the tool's words, read once per tool and parameter
// (a library's tools are called on every query).
func (e *Engine) ownWordsOf(spec tools.Spec, p tools.Param) ownWords {
	key := spec.Name + "\x00" + spec.Description + "\x00" + p.Name + "\x00" + p.Description
	if w, ok := e.toolWordCache.Load(key); ok {
		return w.(ownWords)
	}
	w := ownWords{own: e.toolWords(spec, p), name: e.nameWords(spec)}
	e.toolWordCache.Store(key, w)
	return w
}

// focalString is the text a string parameter of spec takes from the
// query, or "".
func (e *Engine) focalString(a *analysis, spec tools.Spec, p tools.Param) string {
	words := e.ownWordsOf(spec, p)
	own := words.own
	if a.term != "" {
		if t := trimOwnWords(a.term, a.termToks, own, e.lex); t != "" {
			return t
		}
		return a.term
	}
	return residual(a, own, words.name)
}

// trimOwnWords drops from each end of term a run of the tool's own
// words and the stop words between them ("stock price of AAPL" ->
// "AAPL"); a run with none of the tool's words stays ("will it be warm
// in Oslo"). The words kept are as written.
func trimOwnWords(term string, toks []token, own map[string]bool, lx *lexicon) string {
	isOwn := func(k int) bool { return own[stem(toks[k].text)] }
	isStop := func(k int) bool { return lx.stop[toks[k].text] }
	from, to := 0, len(toks)
	for k := 0; k < to && (isOwn(k) || isStop(k)); k++ {
		if isOwn(k) {
			from = k + 1
		}
	}
	for from > 0 && from < to && isStop(from) {
		from++ // "of the" after "latest version"
	}
	for k := to - 1; k >= from && (isOwn(k) || isStop(k)); k-- {
		if isOwn(k) {
			to = k
		}
	}
	for to < len(toks) && to > from && isStop(to-1) {
		to--
	}
	if from == to {
		return ""
	}
	return strings.Trim(term[toks[from].start:toks[to-1].end], "?.!\"' ")
}

// residual is what a query that asks no question leaves once the tool's
// own words, stop words and question words are gone — when the query
// uses a word of the tool's name (it names the tool's subject), is no
// request for an action and no one's own affair, and what is left is
// short: "AAPL stock price" of get_stock_price is "AAPL". The words kept
// are as written, in order.
func residual(a *analysis, own, name map[string]bool) string {
	if a.command {
		return ""
	}
	named := false
	var kept []string
	for i, t := range a.toks {
		w := t.text
		if a.lx.isPersonalAt(a.toks, i) {
			return "" // "my name is Nick"
		}
		switch s := a.stems[i]; {
		case own[s]:
			named = named || name[s]
		case a.lx.stop[w] || isQuestionWord(w) || isFiller(w):
		default:
			kept = append(kept, a.query[t.start:t.end])
		}
	}
	if !named || len(kept) == 0 || len(kept) > maxResidualWords {
		return ""
	}
	return strings.Join(kept, " ")
}
