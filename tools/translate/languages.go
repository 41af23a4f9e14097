package translate

import (
	"embed"
	"fmt"
	"strings"
	"sync"
)

// Language is one language the tool's parameters accept: its ISO 639-1
// code and its English name.
type Language struct {
	Code, Name string
}

// endonyms are languages' names for themselves, which the parameters
// accept too: a request is often phrased in its target language ("¿cómo
// se dice … en español?", "日本語で…").
var endonyms = map[string][]string{
	"ar": {"العربية"}, "bg": {"български"}, "cs": {"čeština"}, "da": {"dansk"}, "de": {"Deutsch"},
	"el": {"Ελληνικά"}, "es": {"español", "castellano"}, "fi": {"suomi"}, "fr": {"français"},
	"he": {"עברית"}, "hi": {"हिन्दी"}, "hu": {"magyar"}, "it": {"italiano"}, "ja": {"日本語"},
	"ko": {"한국어"}, "nl": {"Nederlands"}, "nb": {"norsk"}, "pl": {"polski"}, "pt": {"português"},
	"ro": {"română"}, "ru": {"русский"}, "sv": {"svenska"}, "th": {"ไทย"}, "tr": {"Türkçe"},
	"uk": {"українська"}, "vi": {"Tiếng Việt"}, "zh": {"中文", "汉语", "漢語"},
}

//go:embed names/exonyms.txt
var exonymFile embed.FS

// exonyms are languages' names in other languages than English and their
// own (names/exonyms.txt), read once.
var exonyms = sync.OnceValue(func() map[string][]string {
	m, err := parseExonyms(mustRead(exonymFile, "names/exonyms.txt"))
	if err != nil {
		panic(err) // the embedded file is tested
	}
	return m
})

func mustRead(fs embed.FS, name string) string {
	b, err := fs.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// parseExonyms reads "code: name, name" lines; "#" starts a comment.
func parseExonyms(text string) (map[string][]string, error) {
	m := map[string][]string{}
	owner := map[string]string{}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		code, names, ok := strings.Cut(line, ":")
		code = strings.TrimSpace(code)
		if _, known := ByCode(code); !ok || !known || len(code) != 2 {
			return nil, fmt.Errorf("names/exonyms.txt:%d: want \"code: name, name\" with a code of the table", n+1)
		}
		for _, name := range strings.Split(names, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			key := strings.ToLower(name)
			if other, dup := owner[key]; dup && other != code {
				return nil, fmt.Errorf("names/exonyms.txt:%d: %q is already a name of %s", n+1, name, other)
			}
			owner[key] = code
			m[code] = append(m[code], name)
		}
	}
	return m, nil
}

// otherNames are a language's endonyms, then its names in other
// languages.
func otherNames(code string) []string {
	return append(append([]string(nil), endonyms[code]...), exonyms()[code]...)
}

// languages are the languages LibreTranslate and DeepL both translate
// (most of them) or either does, by ISO 639-1 code. The enum of the
// tool's language parameters is built from this table only, so the
// machine, the parser and the tool read the same list.
var languages = []Language{
	{"ar", "Arabic"}, {"az", "Azerbaijani"}, {"bg", "Bulgarian"}, {"bn", "Bengali"},
	{"ca", "Catalan"}, {"cs", "Czech"}, {"da", "Danish"}, {"de", "German"},
	{"el", "Greek"}, {"en", "English"}, {"eo", "Esperanto"}, {"es", "Spanish"},
	{"et", "Estonian"}, {"fa", "Persian"}, {"fi", "Finnish"}, {"fr", "French"},
	{"ga", "Irish"}, {"he", "Hebrew"}, {"hi", "Hindi"}, {"hu", "Hungarian"},
	{"id", "Indonesian"}, {"it", "Italian"}, {"ja", "Japanese"}, {"ko", "Korean"},
	{"lt", "Lithuanian"}, {"lv", "Latvian"}, {"ms", "Malay"}, {"nb", "Norwegian"},
	{"nl", "Dutch"}, {"pl", "Polish"}, {"pt", "Portuguese"}, {"ro", "Romanian"},
	{"ru", "Russian"}, {"sk", "Slovak"}, {"sl", "Slovenian"}, {"sq", "Albanian"},
	{"sv", "Swedish"}, {"th", "Thai"}, {"tl", "Tagalog"}, {"tr", "Turkish"},
	{"uk", "Ukrainian"}, {"ur", "Urdu"}, {"vi", "Vietnamese"}, {"zh", "Chinese"},
}

// Languages returns the table, ordered by code.
func Languages() []Language { return append([]Language(nil), languages...) }

// enumValues are the spellings the language parameters accept: every
// English name, then every code. Names come first because an offline
// engine reads the first value the query contains, and some codes are
// English words ("it", "he", "hi").
func enumValues() []string {
	out := make([]string, 0, 3*len(languages))
	for _, l := range languages {
		out = append(out, l.Name)
	}
	for _, l := range languages {
		out = append(out, otherNames(l.Code)...)
	}
	for _, l := range languages {
		out = append(out, l.Code)
	}
	return out
}

// nameSpellings maps each English name, endonym and exonym to its code, for the offline
// engine's hints: it writes the code when the query says the name.
func nameSpellings() map[string]string {
	m := make(map[string]string, 2*len(languages))
	for _, l := range languages {
		m[l.Name] = l.Code
		for _, e := range otherNames(l.Code) {
			m[e] = l.Code
		}
	}
	return m
}

// Normalize reads a language parameter's value — a code, an English name,
// an endonym or another language's name for it, any case — as its
// language.
func Normalize(s string) (Language, bool) {
	s = strings.TrimSpace(s)
	for _, l := range languages {
		if strings.EqualFold(s, l.Code) || strings.EqualFold(s, l.Name) {
			return l, true
		}
		for _, e := range otherNames(l.Code) {
			if strings.EqualFold(s, e) {
				return l, true
			}
		}
	}
	return Language{}, false
}

// ByCode returns the language of a code a service sent ("EN", "zh-Hans",
// "pt-BR" read as their base language); ok is false for one not in the
// table, whose code is then shown as sent.
func ByCode(code string) (Language, bool) {
	base := strings.ToLower(code)
	if i := strings.IndexAny(base, "-_"); i > 0 {
		base = base[:i]
	}
	for _, l := range languages {
		if l.Code == base {
			return l, true
		}
	}
	return Language{}, false
}

// label is how a language a service sent is shown: "English (en)".
func label(code string) string {
	if l, ok := ByCode(code); ok {
		return l.Name + " (" + l.Code + ")"
	}
	return code
}
