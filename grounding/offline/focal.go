package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

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
// ends of the focus; a query that asks no question but uses a word of the
// tool's name — a request for its action ("echo hello world") or a
// search-box fragment ("AAPL stock price") — gives the words beside the
// tool's own (residual); and a text in double quotes is taken as written
// (extract.go).

// maxResidualWords bounds the words of a fragment before the tool's own
// words ("AAPL" of "AAPL stock price"): more is a sentence, not the name
// of a thing.
const maxResidualWords = 3

// toolWords are the stems of the content words a tool uses for itself:
// its name (split at "_", "-", "." and case changes), its description
// and the parameter's description.
func (e *Engine) toolWords(spec tools.Spec, p tools.Param) map[string]bool {
	words := map[string]bool{}
	for _, text := range []string{splitName(spec.Name), spec.Description, p.Description} {
		for _, t := range tokenize(strings.ToLower(withoutExamples(text))) {
			if !e.lex.stop[t.text] && !isQuestionWord(t.text) {
				words[stem(t.text)] = true
			}
		}
	}
	// The values of the tool's enum parameters are arguments of their
	// own ("good morning in Japanese": the language is the target, not
	// part of the text).
	for _, q := range spec.Params {
		if q.Type != tools.TypeEnum || q.Name == p.Name {
			continue
		}
		for _, v := range q.Enum {
			if t := tokenize(strings.ToLower(v)); len(t) == 1 && len(t[0].text) > 2 {
				words[stem(t[0].text)] = true
			}
		}
	}
	return words
}

// withoutExamples drops what a description quotes or puts in
// parentheses — its examples of values ("Two-letter state code (e.g. CA,
// NY)", `a city such as "Lisbon"`) are not the tool's own words.
func withoutExamples(text string) string {
	var b strings.Builder
	depth, quoted := 0, false
	for _, r := range text {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case r == '"':
			quoted = !quoted
		case depth == 0 && !quoted:
			b.WriteRune(r)
			continue
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// nameWords are the stems of the content words of the tool's name.
func (e *Engine) nameWords(spec tools.Spec) map[string]bool {
	words := map[string]bool{}
	for _, t := range tokenize(strings.ToLower(splitName(spec.Name))) {
		if !e.lex.stop[t.text] {
			words[stem(t.text)] = true
		}
	}
	// The words of the tool's subject name its action as well as its
	// name does: "draw a lighthouse" asks a drawing tool for "a
	// lighthouse".
	for _, sub := range spec.Hints.Subjects {
		for _, w := range sub.Words {
			if !strings.ContainsRune(w, ' ') && !e.lex.stop[w] {
				words[stem(w)] = true
			}
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
	if t := askedText(a, spec, own); t != "" {
		// A request framed by one of the tool's own phrases in another
		// language (asked.go).
		return t
	}
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

// residual is the focal string of a query that asks no question but
// uses a word of the tool's name — a request for the tool's own action
// ("echo hello world", "read the file notes.txt", "translate good morning
// into French") or a search-box fragment ("AAPL stock price", "latest
// version of numpy on pypi"): the tool's own words split the query into
// runs of other words; the last run that follows one of them is the
// argument ("hello world", "notes.txt", "numpy"), or when none does, the
// run before the first ("AAPL"), if it is short (maxResidualWords). Stop
// words, request words and pronouns are trimmed from a run's ends (and
// fillers from the start of the query); the text kept is as written. A
// query that speaks of the user before the tool's words ("I'm searching
// for a flight") gives none.
func residual(a *analysis, own, name map[string]bool) string {
	named := false
	for i := range a.toks {
		named = named || name[a.stems[i]]
	}
	if !named {
		return ""
	}
	var runs [][]int // runs[0] is the one before the first own word
	runs = append(runs, nil)
	for i := range a.toks {
		if own[a.stems[i]] {
			runs = append(runs, nil)
			continue
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], i)
	}
	for _, i := range runs[0] {
		switch a.toks[i].text {
		case "i", "i'm", "im", "i've", "i'd", "i'll", "my", "mine", "we", "we're", "our", "ours":
			// "I'm searching for a flight": the user's own affairs, before
			// the tool's words ("show me" is a request's frame, not that).
			return ""
		}
	}
	var run []int
	for k := len(runs) - 1; k >= 1 && len(run) == 0; k-- {
		run = trimRun(a, runs[k], false)
	}
	if len(run) == 0 {
		if run = trimRun(a, runs[0], true); len(run) > maxResidualWords {
			return ""
		}
	}
	if len(run) == 0 {
		return ""
	}
	// The text as written, with the punctuation that is part of it
	// ("/tmp/notes.txt", "README.md").
	start, end := a.toks[run[0]].start, a.toks[run[len(run)-1]].end
	for start > 0 && a.query[start-1] != ' ' {
		start--
	}
	for end < len(a.query) && a.query[end] != ' ' {
		end++
	}
	return strings.Trim(a.query[start:end], "?.!,;:\"' ")
}

// trimRun drops function words, question words, request words and
// personal pronouns from both ends of a run of token indexes; a run that
// opens the query loses every stop word and filler ("ok", "hey") at its
// ends, one that follows the tool's words only the function words ("echo
// hello world" echoes "hello world").
func trimRun(a *analysis, run []int, opening bool) []int {
	edge := func(i int) bool {
		w := a.toks[i].text
		return functionWord(w) || isQuestionWord(w) || isPersonal(w) || requestWord(w) || opening && (a.lx.stop[w] || isFiller(w))
	}
	for len(run) > 0 && edge(run[0]) {
		run = run[1:]
	}
	for len(run) > 0 && edge(run[len(run)-1]) {
		run = run[:len(run)-1]
	}
	return run
}

// functionWord: articles, prepositions, conjunctions and auxiliaries,
// which join an argument to the words around it.
func functionWord(w string) bool {
	switch w {
	case "a", "an", "the", "of", "to", "for", "in", "on", "at", "with", "about", "from", "into", "by", "as", "and", "or",
		"that", "this", "these", "those", "is", "are", "was", "were", "be", "it", "there", "some", "any":
		return true
	}
	return false
}

// requestWord: the words of a request's frame ("please show me", "can you
// tell me").
func requestWord(w string) bool {
	switch w {
	case "please", "show", "tell", "give", "let", "know", "want", "need", "like", "can", "could", "would", "will":
		return true
	}
	return false
}

// quoteMarks are the quotation marks a query may delimit a text with,
// each opening mark with the marks that close it.
var quoteMarks = []struct {
	open  string
	close []string
}{{"\"", []string{"\""}}, {"“", []string{"”", "\""}}, {"«", []string{"»"}}, {"「", []string{"」"}}, {"‘", []string{"’"}}, {"'", []string{"'"}}}

// quotedTexts are the texts the query puts in quotation marks, of at
// least two characters, trimmed, in order: "translate “where is the
// station” into German", `echo "hello there"`, "translate 'where is the
// station' into German". A straight single quote opens only at the start
// or after a space, colon or parenthesis, and closes only a text without
// spaces at its ends, never inside a word — so the apostrophes of "don't"
// and "O'Hare" quote nothing.
func quotedTexts(query string) []string {
	var out []string
	for i := 0; i < len(query); {
		if text, next, ok := quotedAt(query, i); ok {
			if len([]rune(text)) >= 2 {
				out = append(out, text)
			}
			i = next
			continue
		}
		_, size := utf8.DecodeRuneInString(query[i:])
		i += size
	}
	return out
}

// quotedAt reads a quoted text opening at q[i:]: the text, trimmed, and
// where the query goes on after its closing mark.
func quotedAt(q string, i int) (text string, next int, ok bool) {
	for _, m := range quoteMarks {
		if !strings.HasPrefix(q[i:], m.open) {
			continue
		}
		single := m.open == "'"
		if single && i > 0 && !strings.ContainsRune(" :(\t", rune(q[i-1])) {
			return "", 0, false
		}
		rest := q[i+len(m.open):]
		j, closeLen := -1, 0
		for _, c := range m.close {
			if k := strings.Index(rest, c); k >= 0 && (j < 0 || k < j) {
				j, closeLen = k, len(c)
			}
		}
		for single && j >= 0 && j+1 < len(rest) && isWordByte(rest[j+1]) {
			// an apostrophe inside the text ("it's")
			k := strings.Index(rest[j+1:], "'")
			if k < 0 {
				j = -1
				break
			}
			j += 1 + k
		}
		if j < 0 {
			return "", 0, false
		}
		text = strings.TrimSpace(rest[:j])
		if single && text != rest[:j] {
			return "", 0, false
		}
		return text, i + len(m.open) + j + closeLen, true
	}
	return "", 0, false
}
