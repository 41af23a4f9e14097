package offline

import (
	"context"
	"testing"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/imagegen"
	"github.com/gear-chat/gear/tools/translate"
)

// Calls of the translation and image tools: enum spellings written as the
// hints make them canonical, the "from"/"to" roles of two language
// parameters, quoted text as the string, and a drawing tool's subject
// words naming its action.
func TestMediaCalls(t *testing.T) {
	t.Parallel()
	tr, img := translate.New(translate.Config{}).Spec(), imagegen.New(imagegen.Config{}).Spec()
	e := New(Options{Tools: append(builtinSpecs(), tr, img)})
	for _, tc := range []struct {
		spec  tools.Spec
		query string
		want  string
	}{
		{tr, "how do you say good morning in Japanese", `Translate("good morning", "ja")`},
		{tr, "translate 'where is the station' into German", `Translate("where is the station", "de")`},
		{tr, `translate "je ne sais quoi" from French to English`, `Translate("je ne sais quoi", "en", "fr")`},
		{tr, "日本語で「おはよう」は何と言いますか", `Translate("おはよう", "ja")`},
		{tr, "don't tell me what it's like in O'Hare", ""},
		{img, "draw a watercolor of a lighthouse at dusk", `ImageGeneration("watercolor of a lighthouse at dusk")`},
		{img, "paint a red fox in the snow", `ImageGeneration("red fox in the snow")`},
	} {
		got, err := e.Call(context.Background(), tc.spec, tc.query)
		if err != nil || got != tc.want {
			t.Errorf("%s: %q (%v), want %q", tc.query, got, err, tc.want)
		}
	}
}

// A translation request phrased in another language: the tool's Asking
// phrase frames it, and only the text is the text — not the question
// words ("Cómo se dice"), nor the target language (named in the query's
// language: tools/translate/names) and the word leading into it.
func TestTranslationRequestsInOtherLanguages(t *testing.T) {
	t.Parallel()
	tr := translate.New(translate.Config{}).Spec()
	e := New(Options{Tools: append(builtinSpecs(), tr)})
	for _, tc := range []struct{ query, want string }{
		{"Cómo se dice buenos días en japonés", `Translate("buenos días", "ja")`},
		{"¿Cómo se dice buenos días en japonés?", `Translate("buenos días", "ja")`},
		{"¿Cómo se dice en japonés buenos días?", `Translate("buenos días", "ja")`},
		{"Comment dit-on bonjour en allemand ?", `Translate("bonjour", "de")`},
		{"Wie sagt man guten Morgen auf Japanisch?", `Translate("guten Morgen", "ja")`},
		{"Übersetze guten Morgen ins Englische", `Translate("guten Morgen", "en")`},
		{"Come si dice buongiorno in giapponese", `Translate("buongiorno", "ja")`},
		{"Como se diz bom dia em japonês", `Translate("bom dia", "ja")`},
		{"Cómo se dice", ""},
	} {
		got, err := e.Call(context.Background(), tr, tc.query)
		if err != nil || got != tc.want {
			t.Errorf("%s: %q (%v), want %q", tc.query, got, err, tc.want)
		}
	}
}

func TestQuotedTextsSingleQuotesAndOtherMarks(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"translate 'where is the station' into German": "where is the station",
		"what's 'it's raining' in French":              "it's raining",
		"don't go to O'Hare":                           "",
		"「おはよう」":                                       "おはよう",
		"say “good night” in Korean":                   "good night",
	} {
		got := ""
		if q := quotedTexts(in); len(q) > 0 {
			got = q[0]
		}
		if got != want {
			t.Errorf("quotedTexts(%q)[0] = %q, want %q", in, got, want)
		}
	}
}
