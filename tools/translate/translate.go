// Package translate is gear's Translate tool: machine translation through
// LibreTranslate (self-hosted or with a key) or DeepL, and — when neither
// is configured but a chat model is — the chat model prompted as a
// translator, labelled so. Long texts are split at sentence ends within
// each service's limit; the detected source language and the service's
// confidence are shown where the service gives them.
package translate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/webget"
)

// Family is the translation tools' family.
const Family tools.Family = "translate"

// ChatFunc asks the chat model: system is the instruction, user the text.
type ChatFunc func(ctx context.Context, system, user string) (string, error)

// Config is what Translate needs. Each backend is used when its setting is
// present, in the order LibreTranslate, DeepL, chat model; a backend that
// fails for a reason other than the request itself hands over to the next.
type Config struct {
	Web *webget.Client
	// LibreURL is a LibreTranslate server's root
	// ("http://localhost:5000", "https://libretranslate.com"); LibreKey
	// its API key, when it needs one.
	LibreURL, LibreKey string
	// DeepLKey is a DeepL API key; a key ending in ":fx" is a free one
	// and goes to api-free.deepl.com. DeepLURL overrides the host (tests,
	// proxies).
	DeepLKey, DeepLURL string
	// Chat is the chat model, nil when none is configured; ChatModel
	// names it in the label.
	Chat      ChatFunc
	ChatModel string
}

// Tool is the Translate tool.
type Tool struct{ cfg Config }

// New returns the Translate tool.
func New(cfg Config) *Tool { return &Tool{cfg: cfg} }

// MaxTextLen bounds the text argument in runes.
const MaxTextLen = 20000

// Spec describes Translate.
func (t *Tool) Spec() tools.Spec {
	langs := enumValues()
	return tools.Spec{
		Name:   "Translate",
		Family: Family,
		Source: tools.Builtin,
		Effect: tools.EffectReadOnly,
		Description: "Machine translation renders a phrase or a sentence of one language in another: " +
			"how to say a phrase in Japanese, or what a foreign sentence means in English.",
		Params: []tools.Param{
			{Name: "text", Type: tools.TypeString, MaxLen: MaxTextLen, Description: "the text to translate, as written"},
			{Name: "target_language", Type: tools.TypeEnum, Enum: langs, Description: "the language to translate into: an ISO 639-1 code (ja) or an English name (Japanese)"},
			{Name: "source_language", Type: tools.TypeEnum, Enum: langs, Optional: true, Description: "the language of the text, when known; detected when left out"},
		},
		Examples: []tools.Example{
			{Query: "How do you say thank you very much in Japanese?", Call: `Translate("thank you very much", "ja")`},
			{Query: "What is 'the meeting is postponed until Friday' in German?", Call: `Translate("the meeting is postponed until Friday", "de")`},
			{Query: "What does 'je ne sais quoi' mean in English?", Call: `Translate("je ne sais quoi", "en", "fr")`},
			{Query: "How would I say 'where is the nearest pharmacy?' in Spanish?", Call: `Translate("where is the nearest pharmacy?", "es")`},
			{Query: "What does 「今日はとても暑いですね」 mean in English?", Call: `Translate("今日はとても暑いですね", "en", "ja")`},
		},
		OutputPattern: "non-ascii",
		// Grounding never calls a translation service to score a query:
		// the mock has the shape of a translation (non-ASCII text).
		Mock:  "Übersetzung · 翻訳 · traducción: {text}",
		Hints: hints(),
	}
}

// Translation is Translate's structured result.
type Translation struct {
	Text   string `json:"text"`
	Target string `json:"target"`
	// Source is the language given or detected ("" when unknown);
	// Detected says the service detected it, Confidence (0–100) how sure
	// it was, when it says.
	Source     string   `json:"source,omitempty"`
	Detected   bool     `json:"detected,omitempty"`
	Confidence *float64 `json:"confidence,omitempty"`
	// Service is who translated: "LibreTranslate", "DeepL", or "chat
	// model (NAME)"; ByModel marks the last, which is no translation
	// service.
	Service string `json:"service"`
	ByModel bool   `json:"by_model,omitempty"`
	Chunks  int    `json:"chunks,omitempty"`
}

// backend is one translation service.
type backend interface {
	name() string
	// limit is the most bytes of text one request carries.
	limit() int
	// translate translates the chunks in order; source is "" to detect.
	translate(ctx context.Context, chunks []string, source, target Language) (Translation, error)
}

// NotConfiguredError is Translate run with no backend: its message names
// the settings to add.
type NotConfiguredError struct{}

func (NotConfiguredError) Error() string {
	return "Translate: no translation service is configured; set tools.translate.libretranslate_url (or tools.translate.deepl_key), or configure a chat model (models.chat.model)"
}

func (t *Tool) backends() []backend {
	var bs []backend
	if t.cfg.LibreURL != "" {
		bs = append(bs, &libre{web: t.cfg.Web, base: strings.TrimRight(t.cfg.LibreURL, "/"), key: t.cfg.LibreKey})
	}
	if t.cfg.DeepLKey != "" {
		bs = append(bs, newDeepL(t.cfg.Web, t.cfg.DeepLKey, t.cfg.DeepLURL))
	}
	if t.cfg.Chat != nil {
		bs = append(bs, &chatModel{chat: t.cfg.Chat, model: t.cfg.ChatModel})
	}
	return bs
}

// Run translates the call's text.
func (t *Tool) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	text := strings.TrimSpace(call.Text("text"))
	if text == "" {
		return tools.Result{}, tools.Inputf("Translate: nothing to translate; give the text")
	}
	target, ok := Normalize(call.Text("target_language"))
	if !ok {
		return tools.Result{}, tools.Inputf("Translate: unknown target language %q; give an ISO 639-1 code (ja) or an English name (Japanese)", call.Text("target_language"))
	}
	var source Language
	if s := call.Text("source_language"); s != "" {
		if source, ok = Normalize(s); !ok {
			return tools.Result{}, tools.Inputf("Translate: unknown source language %q; give an ISO 639-1 code or an English name", s)
		}
	}
	bs := t.backends()
	if len(bs) == 0 {
		return tools.Result{}, NotConfiguredError{}
	}
	var failures []string
	for _, b := range bs {
		tr, err := b.translate(ctx, split(text, b.limit()), source, target)
		if err == nil {
			if len(failures) > 0 {
				tr.Service += " (after " + strings.Join(failures, "; ") + ")"
			}
			return tools.Result{Text: format(tr), Data: tr}, nil
		}
		if tools.IsInput(err) || ctx.Err() != nil {
			return tools.Result{}, err
		}
		failures = append(failures, err.Error())
	}
	return tools.Result{}, errors.New(strings.Join(failures, "; "))
}

// format is the result as shown: the translation, then one line saying
// from what, into what and by whom.
func format(tr Translation) string {
	var b strings.Builder
	b.WriteString(tr.Text)
	b.WriteString("\n— ")
	switch {
	case tr.Source == "":
		b.WriteString("into " + label(tr.Target))
	case tr.Detected:
		b.WriteString("detected " + label(tr.Source))
		if tr.Confidence != nil {
			fmt.Fprintf(&b, " (confidence %s%%)", tools.FormatNumber(*tr.Confidence))
		}
		b.WriteString(" → " + label(tr.Target))
	default:
		b.WriteString(label(tr.Source) + " → " + label(tr.Target))
	}
	b.WriteString(", by " + tr.Service)
	if tr.ByModel {
		b.WriteString(" — a language model's translation, not a translation service's")
	}
	return b.String()
}
