package llm

import (
	"context"
	"time"
)

// Ping checks, within d, that the server answers and accepts the key: one
// GET /v1/models, which every OpenAI-compatible server has and which costs
// no tokens. The error is an *Error (ErrUnreachable, ErrAuth, ErrTimeout…).
func (c *Client) Ping(ctx context.Context, d time.Duration) error {
	_, err := c.Models(ctx, d)
	return err
}

// Models lists, within d, the ids of the models the server offers
// (GET /v1/models), so a setup can say that a model is missing before the
// first question does.
func (c *Client) Models(ctx context.Context, d time.Duration) ([]string, error) {
	pctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	k := c.begin("models", nil, nil)
	list, err := k.oa.ListModels(pctx)
	if err != nil {
		return nil, c.newError(pctx, err, k.st)
	}
	ids := make([]string, 0, len(list.Models))
	for _, m := range list.Models {
		ids = append(ids, m.ID)
	}
	return ids, nil
}
