package translate

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/webget"
)

// libre is a LibreTranslate server (POST /translate, /detect; GET
// /languages), form-encoded as the server's docs and clients send it.
type libre struct {
	web  *webget.Client
	base string
	key  string
}

func (l *libre) name() string { return "LibreTranslate" }

// limit keeps each request under the char_limit public servers set
// (libretranslate.com: 2000 characters); a self-hosted server's default
// is unlimited.
func (l *libre) limit() int { return 1800 }

func (l *libre) service() webget.Service {
	return webget.Service{Name: "LibreTranslate", URLKey: "tools.translate.libretranslate_url", Reason: webget.JSONReason("error")}
}

type libreAnswer struct {
	TranslatedText   string `json:"translatedText"`
	DetectedLanguage *struct {
		Confidence float64 `json:"confidence"`
		Language   string  `json:"language"`
	} `json:"detectedLanguage"`
}

func (l *libre) post(ctx context.Context, path string, form url.Values, v any) error {
	if l.key != "" {
		form.Set("api_key", l.key)
	}
	body, err := l.web.Do(ctx, l.service(), webget.Request{Method: "POST", URL: l.base + path,
		ContentType: "application/x-www-form-urlencoded", Body: []byte(form.Encode())})
	if err != nil {
		return err
	}
	return webget.DecodeJSON(l.service(), body, v)
}

func (l *libre) translate(ctx context.Context, chunks []string, source, target Language) (Translation, error) {
	tr := Translation{Target: target.Code, Service: l.name(), Source: source.Code}
	src := source.Code
	if src == "" {
		src = "auto"
	}
	var out []string
	for i, c := range chunks {
		var a libreAnswer
		err := l.post(ctx, "/translate", url.Values{"q": {c}, "source": {src}, "target": {target.Code}, "format": {"text"}}, &a)
		if err != nil {
			return Translation{}, l.explain(ctx, err, target)
		}
		if i == 0 && source.Code == "" && a.DetectedLanguage != nil && a.DetectedLanguage.Language != "" {
			conf := a.DetectedLanguage.Confidence
			tr.Source, tr.Detected, tr.Confidence = a.DetectedLanguage.Language, true, &conf
			src = a.DetectedLanguage.Language // the rest of the text is read as the first chunk was
		}
		out = append(out, a.TranslatedText)
	}
	if source.Code == "" && tr.Source == "" {
		// An older server translates from "auto" without saying what it
		// detected; /detect says it.
		if lang, conf, ok := l.detect(ctx, chunks[0]); ok {
			tr.Source, tr.Detected, tr.Confidence = lang, true, &conf
		}
	}
	tr.Text, tr.Chunks = strings.Join(out, ""), len(chunks)
	return tr, nil
}

// detect asks /detect for the text's language; ok is false when the
// server cannot say.
func (l *libre) detect(ctx context.Context, text string) (string, float64, bool) {
	var ds []struct {
		Confidence float64 `json:"confidence"`
		Language   string  `json:"language"`
	}
	if err := l.post(ctx, "/detect", url.Values{"q": {text}}, &ds); err != nil || len(ds) == 0 {
		return "", 0, false
	}
	return ds[0].Language, ds[0].Confidence, true
}

// explain turns a refusal into what to do: a language the server does
// not have lists the ones it has (GET /languages); a key it wants names
// the setting.
func (l *libre) explain(ctx context.Context, err error, target Language) error {
	var werr *webget.Error
	if !errors.As(err, &werr) || werr.Kind != webget.KindStatus || werr.Status != 400 {
		return err
	}
	reason := werr.Reason
	switch {
	case strings.Contains(strings.ToLower(reason), "api key"):
		return fmt.Errorf("LibreTranslate wants an API key (%s); set tools.translate.libretranslate_key", reason)
	case strings.Contains(reason, "not supported"):
		if have := l.languages(ctx); have != "" {
			return tools.Inputf("LibreTranslate at %s does not translate into %s (%s); it has: %s", l.base, label(target.Code), reason, have)
		}
		return tools.Inputf("LibreTranslate at %s does not translate into %s (%s)", l.base, label(target.Code), reason)
	}
	return err
}

// languages lists the server's language codes, "" when it cannot say.
func (l *libre) languages(ctx context.Context) string {
	var ls []struct {
		Code string `json:"code"`
	}
	if err := l.web.GetJSON(ctx, l.service(), l.base+"/languages", &ls); err != nil {
		return ""
	}
	codes := make([]string, 0, len(ls))
	for _, x := range ls {
		codes = append(codes, x.Code)
	}
	return strings.Join(codes, ", ")
}
