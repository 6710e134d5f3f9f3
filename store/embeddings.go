package store

import (
	"context"
	"fmt"

	"memtrace/engine"
)

// SetEmbedding replaces the vector of memory id when its content hash is
// still hash (a memory edited since its text was read keeps its row as it
// is), and reports whether it did. Vectors are derived data — recomputable
// from the content by the embedder named beside them — so the change is not
// audited; it bumps seq so that other processes' caches follow.
func (tx *Tx) SetEmbedding(ctx context.Context, id int64, hash string, vec []float32, embedder string) (bool, error) {
	if embedder == "" || len(vec) == 0 {
		return false, engine.Errorf(engine.EINVALID, "memory %d: a vector needs values and the embedder's name", id)
	}
	seq, err := tx.nextSeq(ctx)
	if err != nil {
		return false, err
	}
	s, err := tx.stmt(ctx, `UPDATE memories SET embedding = ?, embedder = ?, seq = ? WHERE id = ? AND hash = ?`)
	if err != nil {
		return false, fmt.Errorf("set embedding: %w", err)
	}
	res, err := s.ExecContext(ctx, encodeEmbedding(vec), embedder, seq, id, hash)
	if err != nil {
		return false, fmt.Errorf("set embedding of memory %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("set embedding of memory %d: %w", id, err)
	}
	return n == 1, nil
}

// SetEmbedding replaces one memory's vector in its own transaction.
func (db *DB) SetEmbedding(ctx context.Context, id int64, hash string, vec []float32, embedder string) (bool, error) {
	return writeValue(ctx, db, func(tx *Tx) (bool, error) { return tx.SetEmbedding(ctx, id, hash, vec, embedder) })
}
