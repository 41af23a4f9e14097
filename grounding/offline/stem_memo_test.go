package offline

import (
	"sync"
	"testing"
)

// stemOf is stem, from any number of goroutines at once, and the memo
// stops growing at its bound.
func TestStemOfIsStem(t *testing.T) {
	t.Parallel()
	lx := newLexicon(nil)
	words := []string{"running", "forecasts", "weather", "generalization", "happily", "caresses", "ponies", "a", ""}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				for _, w := range words {
					if got, want := lx.stemOf(w), stem(w); got != want {
						t.Errorf("stemOf(%q) = %q, want %q", w, got, want)
					}
				}
			}
		}()
	}
	wg.Wait()
	lx.stems.m = make(map[string]string, stemMemoMax)
	for i := range stemMemoMax + 10 {
		lx.stemOf(string(rune('a'+i%26)) + string(rune(0x4e00+i)))
	}
	if n := len(lx.stems.m); n > stemMemoMax {
		t.Errorf("the memo holds %d words, bound %d", n, stemMemoMax)
	}
}
