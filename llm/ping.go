package llm

import (
	"context"
	"time"
)

// Ping checks, within d, that the server answers and accepts the key: one
// GET /v1/models, which every OpenAI-compatible server has and which costs
// no tokens. The error is an *Error (ErrUnreachable, ErrAuth, ErrTimeout…).
func (c *Client) Ping(ctx context.Context, d time.Duration) error {
	pctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	k := c.begin(pctx, "models", nil)
	if _, err := c.oa.ListModels(k.ctx); err != nil {
		return c.newError(pctx, err, k.st)
	}
	return nil
}
