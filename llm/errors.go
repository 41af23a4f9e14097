package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
	"unicode"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/internal/lazyregexp"
)

// ErrorKind is what went wrong, in terms a person can act on. Test for one
// with errors.Is(err, llm.ErrAuth).
type ErrorKind string

func (k ErrorKind) Error() string { return string(k) }

// The kinds of failure.
const (
	ErrAuth           ErrorKind = "API key rejected"
	ErrUnknownModel   ErrorKind = "unknown model"
	ErrUnreachable    ErrorKind = "server unreachable"
	ErrContextTooLong ErrorKind = "context too long"
	ErrRateLimited    ErrorKind = "rate limited"
	ErrTimeout        ErrorKind = "timed out"
	ErrCanceled       ErrorKind = "canceled"
	ErrServer         ErrorKind = "server error"
	ErrBadRequest     ErrorKind = "request rejected"
	ErrBadResponse    ErrorKind = "malformed response"
	ErrUnsupported    ErrorKind = "not supported by this server"
	ErrOffline        ErrorKind = "no model configured"
)

// Error is a failed call. Its message is one line: the role, the server and
// model, what happened, what the server said (with any key removed) and what
// to do. It unwraps to its Kind and to the cause, so errors.Is works with
// both llm.ErrTimeout and context.Canceled.
type Error struct {
	Kind    ErrorKind
	Role    Role
	Server  ServerKind
	BaseURL string
	Model   string
	// Status is the HTTP status, 0 when no response arrived.
	Status int
	// Code is the server's error code (e.g. invalid_api_key), if any.
	Code string
	// RetryAfter is how long the server asked us to wait, if it said.
	RetryAfter time.Duration
	// Detail is what the server said, one line, keys removed.
	Detail string
	// Hint is what to do about it.
	Hint string
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s model", e.Role)
	if e.Model != "" {
		fmt.Fprintf(&b, " %s", e.Model)
	}
	if e.BaseURL != "" {
		fmt.Fprintf(&b, " at %s (%s)", config.RedactText(e.BaseURL), e.Server)
	}
	fmt.Fprintf(&b, ": %s", e.Kind)
	switch {
	case e.Status != 0 && e.Code != "":
		fmt.Fprintf(&b, " (HTTP %d, %s)", e.Status, e.Code)
	case e.Status != 0:
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.Detail != "" {
		fmt.Fprintf(&b, ": %s", e.Detail)
	}
	if e.Hint != "" {
		fmt.Fprintf(&b, " — %s", e.Hint)
	}
	return b.String()
}

// Unwrap gives the kind and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// timeoutError is an attempt that ran past the role's timeout.
type timeoutError struct {
	phase string
	after time.Duration
}

func (e *timeoutError) Error() string {
	return fmt.Sprintf("no answer within %s while %s", e.after, e.phase)
}

// truncatedStreamError is a stream that ended before the server finished.
type truncatedStreamError struct{}

func (truncatedStreamError) Error() string {
	return "the stream ended before the server sent a finish reason"
}

// newError builds an Error for this client from any failure: go-openai's
// API and request errors, the transport's timeouts, network and decoding
// errors.
func (c *Client) newError(ctx context.Context, err error, st *callState) *Error {
	var already *Error
	if errors.As(err, &already) {
		return already
	}
	e := &Error{Role: c.ep.Role, Server: c.server(), BaseURL: c.ep.BaseURL, Model: c.ep.Model, Err: err}
	if st != nil {
		e.RetryAfter = st.retryAfter
	}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	var tmo *timeoutError
	var netErr net.Error
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var limitErr *streamLimitError
	switch {
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		e.Kind, e.Err = ErrCanceled, context.Canceled
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		e.Kind, e.Err = ErrTimeout, context.DeadlineExceeded
		e.Hint = "the caller's deadline passed"
	case errors.Is(err, openai.ErrChatCompletionInvalidModel):
		e.Kind, e.Detail = ErrUnsupported, "go-openai knows "+c.ep.Model+" as a completions-only model"
		e.Hint = "set models." + string(c.ep.Role) + ".api: completions, or choose a chat model"
	case errors.As(err, &tmo):
		e.Kind, e.Detail = ErrTimeout, tmo.Error()
	case errors.As(err, &apiErr):
		// Every field the server wrote is cleaned before it is kept: a
		// server may echo the key in its code or type as well as its message.
		e.Status, e.Detail = apiErr.HTTPStatusCode, c.clean(apiErr.Message)
		code := codeString(apiErr.Code, e.Status)
		if code == "" {
			code = apiErr.Type
		}
		e.Kind = classifyStatus(e.Status, code, apiErr.Message)
		e.Code = c.clean(code)
	case errors.As(err, &reqErr):
		e.Status = reqErr.HTTPStatusCode
		e.Detail = c.clean(bodyMessage(reqErr.Body))
		e.Kind = classifyStatus(e.Status, "", string(reqErr.Body))
		if e.Status < 400 {
			e.Kind = ErrBadResponse
		}
	case errors.As(err, new(*BudgetError)):
		e.Kind, e.Detail = ErrBadResponse, err.Error()
	case errors.As(err, &limitErr):
		e.Kind, e.Detail = ErrBadResponse, limitErr.Error()
		e.Hint = "the server sent far more than an answer holds; check the server and its base URL"
	case errors.Is(err, truncatedStreamError{}):
		e.Kind, e.Detail = ErrBadResponse, err.Error()
	case errors.Is(err, io.ErrUnexpectedEOF):
		e.Kind, e.Detail = ErrBadResponse, "the response ends mid-JSON ("+c.clean(err.Error())+")"
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr), errors.Is(err, openai.ErrTooManyEmptyStreamMessages):
		e.Kind, e.Detail = ErrBadResponse, c.clean(err.Error())
	case errors.As(err, &netErr), isConnRefused(err):
		e.Kind, e.Detail = ErrUnreachable, c.clean(err.Error())
	default:
		e.Kind, e.Detail = ErrBadResponse, c.clean(err.Error())
	}
	if e.Hint == "" {
		e.Hint = c.hint(e)
	}
	if e.Kind != ErrCanceled && e.Kind != ErrTimeout {
		// The cause's own text (an API error's fields, a network error
		// quoting the URL, a decoder error quoting the body) is cleaned
		// too, for whoever prints it.
		cause := e.Err
		if errors.As(cause, &apiErr) || errors.As(cause, &reqErr) {
			cause = nil // the server's own error struct holds its raw fields
		}
		e.Err = &serverError{msg: c.clean(e.Err.Error()), cause: cause}
	}
	return e
}

// serverError is a failure's text after clean: what a server or the network
// said, with keys and URL passwords removed. It unwraps to the cause so
// errors.Is still finds sentinels (io.ErrUnexpectedEOF, net errors).
type serverError struct {
	msg   string
	cause error
}

func (e *serverError) Error() string { return e.msg }
func (e *serverError) Unwrap() error { return e.cause }

// codeString gives the server's error code, leaving out the numeric ones
// that only repeat the status (llama.cpp) or are null (Ollama).
func codeString(code any, status int) string {
	switch v := code.(type) {
	case string:
		return v
	case int:
		if v == 0 || v == status {
			return ""
		}
		return fmt.Sprint(v)
	}
	return ""
}

// bodyMessage finds the message in an error body that is not OpenAI's
// {"error": {...}}: vLLM's {"message": ...}, Ollama's native {"error": "..."},
// FastAPI's {"detail": "..."}; anything else is shown as it is.
func bodyMessage(body []byte) string {
	var v struct {
		Message string `json:"message"`
		Error   any    `json:"error"`
		Detail  any    `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		if v.Message != "" {
			return v.Message
		}
		if s, ok := v.Error.(string); ok && s != "" {
			return s
		}
		if s, ok := v.Detail.(string); ok && s != "" {
			return s
		}
	}
	return string(body)
}

// Phrases servers use: OpenAI, vLLM, Ollama and llama.cpp word these
// differently, so the classification reads both the code and the message.
var (
	modelMissingRE   = lazyregexp.New(`(?i)model.*(not found|does not exist|not exist|unknown|no such|not loaded|try pulling)|(unknown|invalid) model`)
	contextTooLongRE = lazyregexp.New(`(?i)context[_ ]length|maximum context|context size|context window|too many tokens|prompt is too long|exceeds the (available )?context`)
	maskedKeyRE      = lazyregexp.New(`[A-Za-z0-9_\-]*\*{3,}[A-Za-z0-9_\-]*|\b(sk|key|gsk|xai)-[A-Za-z0-9_\-]{6,}`)
)

func classifyStatus(status int, code, message string) ErrorKind {
	switch {
	case code == "invalid_api_key" || status == 401 || status == 403:
		return ErrAuth
	case code == "model_not_found" || (status >= 400 && status < 500 && modelMissingRE().MatchString(message)):
		return ErrUnknownModel
	case code == "context_length_exceeded" || code == "exceed_context_size_error" || status == 413 ||
		contextTooLongRE().MatchString(message):
		return ErrContextTooLong
	case status == 429:
		return ErrRateLimited
	case status >= 500:
		return ErrServer
	case status >= 400:
		return ErrBadRequest
	}
	return ErrBadResponse
}

func isConnRefused(err error) bool {
	s := err.Error()
	return strings.Contains(s, "connection refused") || strings.Contains(s, "no such host")
}

func (c *Client) hint(e *Error) string {
	role := strings.ToUpper(string(c.ep.Role))
	switch e.Kind {
	case ErrAuth:
		if c.ep.APIKey == "" {
			return fmt.Sprintf("this server needs an API key: set OPENAI_API_KEY, GEAR_%s_API_KEY or models.%s.api_key_env", role, c.ep.Role)
		}
		return "check the key from " + c.ep.KeyFrom
	case ErrUnknownModel:
		if e.Server == ServerOllama {
			return fmt.Sprintf("run `ollama pull %s`, or set GEAR_%s_MODEL to a model the server has", c.ep.Model, role)
		}
		return fmt.Sprintf("set GEAR_%s_MODEL or models.%s.model to a model the server has", role, c.ep.Role)
	case ErrUnreachable:
		return fmt.Sprintf("is the server running? check GEAR_%s_BASE_URL, OPENAI_BASE_URL or models.%s.base_url", role, c.ep.Role)
	case ErrContextTooLong:
		return "shorten the input or lower agent.context_tokens"
	case ErrRateLimited:
		if strings.Contains(e.Code, "quota") {
			return "the account's quota is used up: check the plan and billing"
		}
		if e.RetryAfter > 0 {
			return fmt.Sprintf("retry after %s", e.RetryAfter.Round(time.Second))
		}
		return "wait a moment and retry"
	case ErrTimeout:
		return fmt.Sprintf("raise models.%s.timeout (GEAR_%s_TIMEOUT) if the server is just slow", c.ep.Role, role)
	case ErrServer:
		return "the server failed after a retry; try again later"
	case ErrBadRequest:
		if e.Status == 404 {
			return "check the base URL (it usually ends in /v1)"
		}
		return "the server refused the request as sent"
	case ErrBadResponse:
		return "the server's answer is not OpenAI-compatible JSON; check the base URL and server kind"
	}
	return ""
}

// clean makes server text safe for one line of an error: the key (masked or
// not) removed, control characters dropped, whitespace collapsed, length cut.
func (c *Client) clean(s string) string {
	if k := c.ep.APIKey.Reveal(); len(k) >= 4 {
		s = strings.ReplaceAll(s, k, "[key removed]")
	}
	s = config.RedactText(s)
	s = maskedKeyRE().ReplaceAllString(s, "[key removed]")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	const max = 240
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
