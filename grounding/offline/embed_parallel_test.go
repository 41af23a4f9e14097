package offline_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/gear-chat/gear/grounding/offline"
)

// A large batch (a library being indexed) is encoded on every processor;
// each vector is the one the text gets alone.
func TestEmbedBatchEqualsOneByOne(t *testing.T) {
	t.Parallel()
	e := offline.New(offline.Options{})
	var texts []string
	for i := range 150 {
		texts = append(texts, fmt.Sprintf("Retrieve the forecast for station %d and convert %d miles to km; what time is it in Oslo?", i, i*3))
	}
	batch, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		one, err := e.Embed(context.Background(), []string{text})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(one[0], batch[i]) {
			t.Fatalf("text %d: the batch's vector differs from the text's own", i)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, texts); err == nil {
		t.Error("a cancelled batch returned vectors")
	}
}
