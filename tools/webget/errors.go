package webget

import (
	"fmt"
	"net/http"
	"time"
)

// Kind says how a request failed.
type Kind int

const (
	// KindUnreachable: no answer at all (DNS, refused connection, network down).
	KindUnreachable Kind = iota + 1
	// KindTimeout: no complete answer before the deadline.
	KindTimeout
	// KindStatus: an answer with a non-2xx status.
	KindStatus
	// KindTooLarge: a body longer than the size cap.
	KindTooLarge
	// KindMalformed: a body that is not the JSON expected.
	KindMalformed
	// KindCanceled: the caller cancelled the request.
	KindCanceled
	// KindRedirect: a redirect gear does not follow (another host, an
	// internal address, too many).
	KindRedirect
)

// Error is a failed request. Its message is one line: what failed, then
// after a semicolon what the user can do.
type Error struct {
	Service Service
	Kind    Kind
	// Status and Body are the answer's, for KindStatus.
	Status int
	Body   []byte
	// Reason is the service's own explanation from the error body, if any.
	Reason string
	// Attempts is how many times the request was sent.
	Attempts int
	// Timeout is the per-attempt deadline that passed, for KindTimeout.
	Timeout time.Duration
	// Limit is the size cap in bytes, for KindTooLarge.
	Limit int64
	// RetryAfter is the wait the server asked for when it was longer than
	// gear waits.
	RetryAfter time.Duration
	// Err is the underlying error, if any.
	Err error

	callerDeadline bool
}

func (e *Error) Unwrap() error { return e.Err }

// retryable reports whether one more attempt may succeed.
func (e *Error) retryable() bool {
	switch e.Kind {
	case KindTimeout:
		return !e.callerDeadline
	case KindStatus:
		return e.Status >= 500 || e.Status == http.StatusTooManyRequests
	}
	return false
}

func (e *Error) Error() string {
	name := e.Service.Name
	if name == "" {
		name = "the server"
	}
	where := e.Service.URLKey
	if where == "" {
		where = "the base URL"
	}
	checkURL := "check " + where
	switch e.Kind {
	case KindUnreachable:
		return fmt.Sprintf("%s unreachable: %v; check the network or %s", name, e.Err, where)
	case KindTimeout:
		if e.callerDeadline {
			return fmt.Sprintf("%s did not answer in the time allowed (%v); try again", name, e.Err)
		}
		return fmt.Sprintf("%s did not answer within %s%s; check the network, or raise %s", name, describe(e.Timeout), e.tries(), orDefault(e.Service.TimeoutKey, "tools.timeout"))
	case KindStatus:
		return e.statusMessage(name, checkURL)
	case KindTooLarge:
		return fmt.Sprintf("%s sent more than %d bytes; %s, or raise %s", name, e.Limit, checkURL, orDefault(e.Service.SizeKey, "tools.max_response_bytes"))
	case KindMalformed:
		return fmt.Sprintf("%s sent an answer gear cannot read (%v); %s", name, e.Err, checkURL)
	case KindCanceled:
		return fmt.Sprintf("%s request cancelled: %v", name, e.Err)
	case KindRedirect:
		return fmt.Sprintf("%s's redirect was not followed: %v; %s", name, e.Err, checkURL)
	}
	return fmt.Sprintf("%s request failed: %v", name, e.Err)
}

func (e *Error) statusMessage(name, checkURL string) string {
	status := fmt.Sprintf("HTTP %d", e.Status)
	if text := http.StatusText(e.Status); text != "" {
		status += " " + text
	}
	reason := ""
	if e.Reason != "" {
		reason = ": " + e.Reason
	}
	switch {
	case e.RetryAfter > 0:
		return fmt.Sprintf("%s answered %s%s and asks to wait %s; try again later", name, status, reason, e.RetryAfter.Round(time.Second))
	case e.Status >= 500 || e.Status == http.StatusTooManyRequests:
		return fmt.Sprintf("%s answered %s%s%s; the service is having trouble, try again later", name, status, reason, e.tries())
	}
	return fmt.Sprintf("%s refused the request with %s%s; %s", name, status, reason, checkURL)
}

func (e *Error) tries() string {
	if e.Attempts > 1 {
		return fmt.Sprintf(" (%d attempts)", e.Attempts)
	}
	return ""
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
