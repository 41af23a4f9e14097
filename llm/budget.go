package llm

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
)

// ResponseBudget is a number of response-body bytes that several calls
// share: grounding's concurrent requests for one query read at most that
// much between them, instead of each being allowed the client's whole
// per-response limit (k + 1 requests × 64 MiB). Reads are charged as they
// happen, so the bound holds while the requests run at once.
type ResponseBudget struct {
	size int64
	left atomic.Int64
}

// NewResponseBudget makes a budget of size bytes.
func NewResponseBudget(size int64) *ResponseBudget {
	b := &ResponseBudget{size: size}
	b.left.Store(size)
	return b
}

// Left is what remains of the budget.
func (b *ResponseBudget) Left() int64 { return max(0, b.left.Load()) }

// BudgetError is a response cut because the calls sharing its budget had
// read it all.
type BudgetError struct{ Size int64 }

func (e *BudgetError) Error() string {
	return fmt.Sprintf("the responses to this query passed their shared %d-byte budget, so this one was cut", e.Size)
}

// budgetReader charges what it reads to a budget.
type budgetReader struct {
	r io.Reader
	b *ResponseBudget
}

func (br budgetReader) Read(p []byte) (int, error) {
	n, err := br.r.Read(p)
	if n > 0 && br.b.left.Add(-int64(n)) < 0 {
		return n, &BudgetError{Size: br.b.size}
	}
	return n, err
}

// WithSharedBudget is Complete for a set of calls that share one response
// budget of size bytes (grounding asks for one per query): the calls made
// through the returned function together read at most size bytes of
// response bodies, on top of the client's per-response limit. The budget
// is held by the returned function and handed to each call as a value.
func (c *Client) WithSharedBudget(size int64) func(ctx context.Context, prompt string) (string, error) {
	b := NewResponseBudget(size)
	return func(ctx context.Context, prompt string) (string, error) {
		text, _, err := c.complete(ctx, prompt, b)
		return text, err
	}
}
