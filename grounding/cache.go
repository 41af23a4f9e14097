package grounding

import (
	"context"
	"sync"
)

// MemoryCache is an EmbeddingCache in memory, in front of another one
// (or none): grounders over parts of one library — `gear eval --library`
// judges each query among its own candidates, with a grounder per
// candidate set — share every vector computed, and the next cache (the
// store) is asked only for texts memory lacks. Safe for concurrent use.
type MemoryCache struct {
	next EmbeddingCache

	mu      sync.Mutex
	vectors map[[2]string][]float32 // (model, text) -> vector
}

// NewMemoryCache makes a memory cache in front of next (nil for none).
func NewMemoryCache(next EmbeddingCache) *MemoryCache {
	return &MemoryCache{next: next, vectors: map[[2]string][]float32{}}
}

// CachedEmbeddings returns the vectors memory has, asking next for the rest.
func (c *MemoryCache) CachedEmbeddings(ctx context.Context, model string, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var missing []int
	c.mu.Lock()
	for i, t := range texts {
		if v, ok := c.vectors[[2]string{model, t}]; ok {
			out[i] = v
		} else {
			missing = append(missing, i)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 || c.next == nil {
		return out, nil
	}
	ask := make([]string, len(missing))
	for j, i := range missing {
		ask[j] = texts[i]
	}
	got, err := c.next.CachedEmbeddings(ctx, model, ask)
	if err != nil {
		return out, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for j, i := range missing {
		if j < len(got) && len(got[j]) > 0 {
			out[i] = got[j]
			c.vectors[[2]string{model, texts[i]}] = got[j]
		}
	}
	return out, nil
}

// PutEmbeddings keeps the vectors in memory and passes them on to next.
func (c *MemoryCache) PutEmbeddings(ctx context.Context, model string, texts []string, vectors [][]float32) error {
	c.mu.Lock()
	for i, t := range texts {
		if i < len(vectors) {
			c.vectors[[2]string{model, t}] = vectors[i]
		}
	}
	c.mu.Unlock()
	if c.next == nil {
		return nil
	}
	return c.next.PutEmbeddings(ctx, model, texts, vectors)
}
