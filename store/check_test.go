package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// TestIntegrityCheckCutShortLeavesStoreUsable opens a database whose
// integrity check runs out of time again and again: the interrupted check
// must never fail Open, nor the statements that follow it.
func TestIntegrityCheckCutShortLeavesStoreUsable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gear.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := s.CreateConversation(ctx, NewConversation{Title: "load", Mode: ModeChat})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		if _, err := s.BeginTurn(ctx, conv, fmt.Sprintf("question number %d about the weather in Adelaide and the time in Tokyo", i), ModeChat); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	for _, budget := range []time.Duration{time.Nanosecond, time.Microsecond, 50 * time.Microsecond, 200 * time.Microsecond, time.Millisecond} {
		for i := 0; i < 10; i++ {
			s, err := Open(ctx, path, Options{checkBudget: budget})
			if err != nil {
				t.Fatalf("budget %v, open %d: %v", budget, i, err)
			}
			if _, err := s.BeginTurn(ctx, conv, "one more", ModeChat); err != nil {
				t.Fatalf("budget %v, open %d: write after the check: %v", budget, i, err)
			}
			if _, err := s.Conversations(ctx, 5); err != nil {
				t.Fatalf("budget %v, open %d: read after the check: %v", budget, i, err)
			}
			s.Close()
		}
	}
}
