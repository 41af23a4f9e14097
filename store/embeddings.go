package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// CachedEmbeddings returns the cached vectors of texts under model, in the
// order of texts; a text not in the cache has a nil vector.
func (s *Store) CachedEmbeddings(ctx context.Context, model string, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	if len(texts) == 0 {
		return out, nil
	}
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, "SELECT vector FROM embeddings WHERE model = ? AND text_hash = ?")
		if err != nil {
			return err
		}
		defer stmt.Close()
		for i, text := range texts {
			hash := sha256.Sum256([]byte(text))
			var blob []byte
			err := stmt.QueryRowContext(ctx, model, hash[:]).Scan(&blob)
			if errors.Is(err, sql.ErrNoRows) {
				out[i] = nil
				continue
			}
			if err != nil {
				return err
			}
			out[i] = decodeVector(blob)
		}
		return nil
	})
	if err != nil {
		return nil, classify(s.path, "read embeddings", err)
	}
	return out, nil
}

// PutEmbeddings caches vectors[i] as the embedding of texts[i] under model.
func (s *Store) PutEmbeddings(ctx context.Context, model string, texts []string, vectors [][]float32) error {
	if len(texts) != len(vectors) {
		return fmt.Errorf("cache embeddings: %d texts but %d vectors", len(texts), len(vectors))
	}
	if model == "" {
		return errors.New("cache embeddings: empty model name")
	}
	for i, v := range vectors {
		if len(v) == 0 {
			return fmt.Errorf("cache embeddings: vector %d is empty", i)
		}
	}
	now := unixMS(s.now())
	err := s.write(ctx, false, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO embeddings (model, text_hash, dims, vector, created_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (model, text_hash) DO UPDATE SET dims = excluded.dims,
			vector = excluded.vector, created_at = excluded.created_at`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for i, text := range texts {
			hash := sha256.Sum256([]byte(text))
			if _, err := stmt.ExecContext(ctx, model, hash[:], len(vectors[i]), encodeVector(vectors[i]), now); err != nil {
				return err
			}
		}
		return nil
	})
	return classify(s.path, "cache embeddings", err)
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
