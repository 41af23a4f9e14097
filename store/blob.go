package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
)

// Blobs are derived records that are costly to rebuild and cheap to read:
// a tool library file as read (tools/catalog) and a library's grounding
// index (grounding). They share the embeddings table — a cache of derived
// data, cleared with it — under the model "blob:KIND", keyed by sha256 of
// the caller's key, which names everything the record was derived from
// (a digest of the input, the code's version): a stale record is never
// asked for, only left behind.

// blobModel is the embeddings table's model column for blobs of kind.
func blobModel(kind string) string { return "blob:" + kind }

// MaxBlobBytes bounds a blob: a 4,076-tool library and its index are a few MB.
const MaxBlobBytes = 256 << 20

// CachedBlob returns the blob kept under kind and key; nil, nil when there
// is none. A record too short for its own length is corrupt: it is
// reported as none (the caller rebuilds and overwrites it).
func (s *Store) CachedBlob(ctx context.Context, kind, key string) ([]byte, error) {
	hash := sha256.Sum256([]byte(key))
	var raw []byte
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, "SELECT vector FROM embeddings WHERE model = ? AND text_hash = ?", blobModel(kind), hash[:]).Scan(&raw)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, classify(s.path, "read cache", err)
	}
	if len(raw) < 4 {
		return nil, nil
	}
	n := binary.LittleEndian.Uint32(raw)
	if uint64(n) > uint64(len(raw)-4) {
		return nil, nil
	}
	return raw[4 : 4+n], nil
}

// PutBlob keeps data under kind and key, replacing what was there.
func (s *Store) PutBlob(ctx context.Context, kind, key string, data []byte) error {
	if kind == "" {
		return errors.New("cache: empty record kind")
	}
	if len(data) > MaxBlobBytes {
		return fmt.Errorf("cache: a %s record of %d MB is larger than %d MB", kind, len(data)>>20, MaxBlobBytes>>20)
	}
	// The table holds float32 words: the length, the bytes, padding.
	words := (4 + len(data) + 3) / 4
	raw := make([]byte, 4*words)
	binary.LittleEndian.PutUint32(raw, uint32(len(data)))
	copy(raw[4:], data)
	hash := sha256.Sum256([]byte(key))
	now := unixMS(s.now())
	err := s.write(ctx, false, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO embeddings (model, text_hash, dims, vector, created_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (model, text_hash) DO UPDATE SET dims = excluded.dims,
			vector = excluded.vector, created_at = excluded.created_at`, blobModel(kind), hash[:], words, raw, now)
		return err
	})
	return classify(s.path, "write cache", err)
}
