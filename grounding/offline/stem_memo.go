package offline

import "sync"

// stemMemo remembers words' Porter stems for one engine: encoding a large
// library asks for the stems of the same few thousand words across
// thousands of texts, on every processor, and stemming is most of a
// word's cost. It stops growing at stemMemoMax words (a long session's
// queries bring new words; those past the bound are stemmed each time).
type stemMemo struct {
	mu sync.RWMutex
	m  map[string]string
}

const stemMemoMax = 1 << 16

// stemOf is stem(w), remembered.
func (lx *lexicon) stemOf(w string) string {
	sm := &lx.stems
	sm.mu.RLock()
	s, ok := sm.m[w]
	sm.mu.RUnlock()
	if ok {
		return s
	}
	s = stem(w)
	sm.mu.Lock()
	if sm.m == nil {
		sm.m = map[string]string{}
	}
	if len(sm.m) < stemMemoMax {
		sm.m[w] = s
	}
	sm.mu.Unlock()
	return s
}
