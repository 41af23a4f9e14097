package llm

import (
	"context"
	"fmt"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Embeddings is the vectors for a list of texts, in order, and the Usage
// of the requests that made them.
type Embeddings struct {
	Vectors [][]float32
	Usage   Usage
}

// Embed is the grounding encoder: one vector per text, in order, sent in
// batches of the role's batch_size.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e, err := c.Embeddings(ctx, texts)
	return e.Vectors, err
}

// embedBatchesInFlight bounds the batches of one Embeddings call sent at
// once: a library's texts take one round trip, not one per batch, without
// opening a connection per batch.
const embedBatchesInFlight = 8

// Embeddings embeds texts in batches, sent concurrently, and checks the
// answer: one vector per text, every index once, all of one length. Its
// Usage sums the batches.
func (c *Client) Embeddings(ctx context.Context, texts []string) (Embeddings, error) {
	start := time.Now()
	total := Usage{Role: c.ep.Role, Call: "embeddings", Server: c.server(), Model: c.ep.Model}
	out := make([][]float32, len(texts))
	chars := 0
	for _, t := range texts {
		chars += runes(t)
	}
	type batchResult struct {
		lo       int
		data     []openai.Embedding
		tokens   int
		attempts int
		err      error
		k        *call
	}
	var starts []int
	for lo := 0; lo < len(texts); lo += c.ep.BatchSize {
		starts = append(starts, lo)
	}
	results := make([]batchResult, len(starts))
	slots := make(chan struct{}, embedBatchesInFlight)
	var wg sync.WaitGroup
	for bi, lo := range starts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			batch := texts[lo:min(lo+c.ep.BatchSize, len(texts))]
			// go-openai always sends "user": "", which some servers reject.
			k := c.begin("embeddings", nil, nil, "user")
			resp, err := k.oa.CreateEmbeddings(ctx, openai.EmbeddingRequestStrings{Input: batch,
				Model: openai.EmbeddingModel(c.ep.Model), Dimensions: c.ep.Dimensions})
			results[bi] = batchResult{lo: lo, data: resp.Data, tokens: resp.Usage.PromptTokens, attempts: k.st.attempts, err: err, k: k}
		}()
	}
	wg.Wait()
	dim := 0
	for _, r := range results {
		total.Attempts += r.attempts
		err := r.err
		if err == nil {
			n := min(c.ep.BatchSize, len(texts)-r.lo)
			err = placeVectors(out[r.lo:r.lo+n], r.data, &dim)
		}
		if err != nil {
			total.Latency = time.Since(start)
			return Embeddings{Usage: total}, c.fail(ctx, r.k, err, total)
		}
		total.PromptTokens += r.tokens
	}
	total.Latency = time.Since(start)
	if total.PromptTokens == 0 && len(texts) > 0 {
		total.PromptTokens, total.Estimated = estimateTokens(chars), true
	}
	record(ctx, total)
	return Embeddings{Vectors: out, Usage: total}, nil
}

// placeVectors puts each returned vector at its index, refusing a count,
// index or length that does not fit.
func placeVectors(dst [][]float32, data []openai.Embedding, dim *int) error {
	if len(data) != len(dst) {
		return fmt.Errorf("asked for %d embeddings, got %d", len(dst), len(data))
	}
	for _, d := range data {
		if d.Index < 0 || d.Index >= len(dst) || dst[d.Index] != nil {
			return fmt.Errorf("embedding index %d out of range or repeated", d.Index)
		}
		if len(d.Embedding) == 0 {
			return fmt.Errorf("embedding %d is empty", d.Index)
		}
		if *dim != 0 && len(d.Embedding) != *dim {
			return fmt.Errorf("embedding %d has %d dimensions, the others %d", d.Index, len(d.Embedding), *dim)
		}
		*dim = len(d.Embedding)
		dst[d.Index] = d.Embedding
	}
	return nil
}
