package store

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
)

func TestBlobRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "gear.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := s.CachedBlob(ctx, "library", "k1"); err != nil || got != nil {
		t.Fatalf("empty store: %v, %v; want nil, nil", got, err)
	}
	for _, data := range [][]byte{{}, {1}, {1, 2, 3}, {1, 2, 3, 4}, bytes.Repeat([]byte{7, 0, 255}, 1000)} {
		if err := s.PutBlob(ctx, "library", "k1", data); err != nil {
			t.Fatal(err)
		}
		got, err := s.CachedBlob(ctx, "library", "k1")
		if err != nil || !bytes.Equal(got, data) || got == nil {
			t.Fatalf("read back %d bytes: %v (%d bytes), want the same", len(data), err, len(got))
		}
	}
	// Kinds and keys are separate records; a blob is not an embedding.
	if got, _ := s.CachedBlob(ctx, "index", "k1"); got != nil {
		t.Errorf("another kind read %d bytes, want none", len(got))
	}
	if got, _ := s.CachedBlob(ctx, "library", "k2"); got != nil {
		t.Errorf("another key read %d bytes, want none", len(got))
	}
	if vs, err := s.CachedEmbeddings(ctx, "library", []string{"k1"}); err != nil || vs[0] != nil {
		t.Errorf("an embedding read a blob: %v, %v", vs, err)
	}
	if err := s.PutBlob(ctx, "", "k", nil); err == nil {
		t.Error("an empty kind was accepted")
	}
}

// TestBlobCorruptIsNone: a record whose length word claims more than it
// holds reads as none, never a slice past its end.
func TestBlobCorruptIsNone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "gear.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.PutBlob(ctx, "library", "k", []byte("abcdefgh")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, "UPDATE embeddings SET vector = X'FFFFFFFF61626364', dims = 2"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.CachedBlob(ctx, "library", "k"); err != nil || got != nil {
		t.Errorf("corrupt record: %q, %v; want nil, nil", got, err)
	}
}
