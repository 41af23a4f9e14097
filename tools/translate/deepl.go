package translate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/webget"
)

// deepl is DeepL's API (POST /v2/translate): a free key (ending ":fx")
// goes to api-free.deepl.com, any other to api.deepl.com.
type deepl struct {
	web  *webget.Client
	base string
	key  string
}

func newDeepL(web *webget.Client, key, base string) *deepl {
	if base == "" {
		base = "https://api.deepl.com"
		if strings.HasSuffix(key, ":fx") {
			base = "https://api-free.deepl.com"
		}
	}
	return &deepl{web: web, base: strings.TrimRight(base, "/"), key: key}
}

func (d *deepl) name() string { return "DeepL" }

// limit keeps each text well inside DeepL's 128 KiB request; all chunks
// go in one request, as repeated text fields.
func (d *deepl) limit() int { return 30000 }

func (d *deepl) service() webget.Service {
	return webget.Service{Name: "DeepL", URLKey: "tools.translate.deepl_url", Reason: webget.JSONReason("message")}
}

// deeplTarget is DeepL's code for a target: English and Portuguese must
// name a variant.
func deeplTarget(code string) string {
	switch code {
	case "en":
		return "EN-US"
	case "pt":
		return "PT-PT"
	case "zh":
		return "ZH-HANS"
	}
	return strings.ToUpper(code)
}

func (d *deepl) translate(ctx context.Context, chunks []string, source, target Language) (Translation, error) {
	tr := Translation{Target: target.Code, Service: d.name(), Source: source.Code}
	var out []string
	// At most 50 texts go in one request.
	for start := 0; start < len(chunks); start += 50 {
		end := min(start+50, len(chunks))
		form := url.Values{"text": chunks[start:end], "target_lang": {deeplTarget(target.Code)}}
		if source.Code != "" {
			form.Set("source_lang", strings.ToUpper(source.Code))
		}
		body, err := d.web.Do(ctx, d.service(), webget.Request{Method: "POST", URL: d.base + "/v2/translate",
			ContentType: "application/x-www-form-urlencoded", Body: []byte(form.Encode()),
			Header: http.Header{"Authorization": {"DeepL-Auth-Key " + d.key}}})
		if err != nil {
			return Translation{}, d.explain(err)
		}
		var a struct {
			Translations []struct {
				DetectedSourceLanguage string `json:"detected_source_language"`
				Text                   string `json:"text"`
			} `json:"translations"`
		}
		if err := webget.DecodeJSON(d.service(), body, &a); err != nil {
			return Translation{}, err
		}
		if len(a.Translations) != end-start {
			return Translation{}, fmt.Errorf("DeepL sent %d translations for %d texts; check tools.translate.deepl_url", len(a.Translations), end-start)
		}
		for i, x := range a.Translations {
			if start == 0 && i == 0 && source.Code == "" && x.DetectedSourceLanguage != "" {
				tr.Source, tr.Detected = strings.ToLower(x.DetectedSourceLanguage), true
			}
			out = append(out, x.Text)
		}
	}
	tr.Text, tr.Chunks = strings.Join(out, ""), len(chunks)
	return tr, nil
}

// explain names the setting to fix for DeepL's refusals: 403 is a bad key
// (with an empty body), 456 the quota.
func (d *deepl) explain(err error) error {
	var werr *webget.Error
	if !errors.As(err, &werr) || werr.Kind != webget.KindStatus {
		return err
	}
	switch werr.Status {
	case http.StatusForbidden:
		return errors.New("DeepL refused the key (HTTP 403); check tools.translate.deepl_key (a free key ends in :fx)")
	case 456:
		return errors.New("DeepL: the account's character quota is used up (HTTP 456); wait for the next period or upgrade the plan")
	case http.StatusBadRequest:
		return tools.Inputf("DeepL refused the request: %s", werr.Reason)
	}
	return err
}
