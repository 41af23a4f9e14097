package imagegen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gear-chat/gear/sanitize"
)

// explain turns a failed generation into one line that says what to do.
// The service's message is shown only when it cannot hold the key (a
// 401's "Incorrect API key provided: sk-…" can).
func (t *Tool) explain(ctx context.Context, err error) error {
	if errors.Is(err, errTooLarge) {
		return fmt.Errorf("ImageGeneration: %s sent an answer larger than %d bytes; raise models.image.max_bytes", t.service(), t.cfg.MaxBytes)
	}
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("ImageGeneration: %s did not answer within %s; try again, or raise models.image.timeout", t.service(), t.cfg.Timeout)
	}
	var api *openai.APIError
	if errors.As(err, &api) {
		code := strings.ToLower(fmt.Sprint(api.Code))
		msg := t.clean(api.Message)
		switch {
		case api.HTTPStatusCode == http.StatusUnauthorized || code == "invalid_api_key":
			return fmt.Errorf("ImageGeneration: %s refused the key (HTTP 401); check models.image.api_key, models.image.api_key_env or GEAR_IMAGE_API_KEY", t.service())
		case code == "content_policy_violation" || strings.Contains(strings.ToLower(msg), "safety system") || code == "moderation_blocked":
			return fmt.Errorf("ImageGeneration: %s refused the prompt under its content policy (%s); rephrase the prompt", t.service(), msg)
		case code == "billing_hard_limit_reached" || code == "insufficient_quota" || api.HTTPStatusCode == http.StatusPaymentRequired:
			return fmt.Errorf("ImageGeneration: %s says the account's billing limit or quota is reached (%s); check the account's billing", t.service(), msg)
		case code == "unknown_parameter" && api.Param != nil && *api.Param == "response_format":
			return fmt.Errorf("ImageGeneration: model %s does not take response_format (%s); remove models.image.response_format", t.cfg.Model, msg)
		case api.HTTPStatusCode == http.StatusTooManyRequests:
			return fmt.Errorf("ImageGeneration: %s is rate-limiting (%s); try again later", t.service(), msg)
		}
		return fmt.Errorf("ImageGeneration: %s answered HTTP %d: %s", t.service(), api.HTTPStatusCode, msg)
	}
	var rerr *openai.RequestError
	if errors.As(err, &rerr) {
		if rerr.HTTPStatusCode == http.StatusUnauthorized {
			return fmt.Errorf("ImageGeneration: %s refused the key (HTTP 401); check models.image.api_key or GEAR_IMAGE_API_KEY", t.service())
		}
		return fmt.Errorf("ImageGeneration: %s answered HTTP %d with a body that is not an OpenAI answer; check models.image.base_url", t.service(), rerr.HTTPStatusCode)
	}
	return fmt.Errorf("ImageGeneration: %s: %s; check the network or models.image.base_url", t.service(), t.clean(err.Error()))
}

// clean makes a service's text one safe line without the key.
func (t *Tool) clean(s string) string {
	if k := t.cfg.APIKey; len(k) >= 4 {
		s = strings.ReplaceAll(s, k, "[key]")
	}
	s = sanitize.Line(s)
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}

var errTooLarge = errors.New("answer too large")

// capped is a transport whose response bodies fail past max bytes.
type capped struct {
	next http.RoundTripper
	max  int64
}

func (c capped) RoundTrip(r *http.Request) (*http.Response, error) {
	next := c.next
	if next == nil {
		next = http.DefaultTransport
	}
	resp, err := next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > c.max {
		resp.Body.Close()
		return nil, errTooLarge
	}
	resp.Body = &cappedBody{r: resp.Body, left: c.max}
	return resp, nil
}

type cappedBody struct {
	r    io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.r.Close() }
