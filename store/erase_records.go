package store

import (
	"context"
	"fmt"
	"path/filepath"

	"memtrace/engine"
)

// The records an erasure leaves: its tombstones, and the files written
// outside the database that may still hold what it removed.

// Tombstones lists the erasures made, oldest first (memoryID 0: all).
func (db *DB) Tombstones(ctx context.Context, memoryID int64) ([]engine.Tombstone, error) {
	return readValue(ctx, db, func(tx *Tx) ([]engine.Tombstone, error) {
		return queryAll(ctx, tx, "read erasures", func(s scanner) (engine.Tombstone, error) {
			var t engine.Tombstone
			var at string
			if err := s.Scan(&t.MemoryID, &t.Key, &t.Batch, &t.Actor, &t.Reason, &t.Salt, &t.TextHash, &at); err != nil {
				return t, err
			}
			var err error
			t.At, err = parseTime(at)
			return t, err
		}, `SELECT memory_id, memory_key, batch, actor, reason, salt, text_hash, at FROM erasures
			WHERE ? = 0 OR memory_id = ? ORDER BY id`, memoryID, memoryID)
	})
}

// RecordArtifact notes a file written outside the database (a backup, an
// export, an --otel file) that may hold memory text.
func (db *DB) RecordArtifact(ctx context.Context, a engine.Artifact) error {
	return db.write(ctx, func(tx *Tx) error { return tx.recordArtifact(ctx, a) })
}

func (tx *Tx) recordArtifact(ctx context.Context, a engine.Artifact) error {
	if a.At.IsZero() {
		a.At = tx.now()
	}
	if abs, err := filepath.Abs(a.Path); err == nil && !tx.tx.pg {
		a.Path = abs
	}
	if a.Kind == engine.ArtifactJudgeCache {
		// A cache is rewritten by an erasure, not listed by date: one row
		// a file is enough.
		var n int
		if err := tx.tx.QueryRowContext(ctx, `SELECT count(*) FROM artifacts WHERE kind = ? AND path = ?`, a.Kind, a.Path).Scan(&n); err != nil {
			return fmt.Errorf("record %s %s: %w", a.Kind, a.Path, err)
		}
		if n > 0 {
			return nil
		}
	}
	if _, err := tx.tx.ExecContext(ctx, `INSERT INTO artifacts (kind, path, at) VALUES (?, ?, ?)`, a.Kind, a.Path, formatTime(a.At)); err != nil {
		return fmt.Errorf("record %s %s: %w", a.Kind, a.Path, err)
	}
	return nil
}

// artifacts lists every recorded artifact, oldest first.
func (tx *Tx) artifacts(ctx context.Context) ([]engine.Artifact, error) {
	return queryAll(ctx, tx, "read artifacts", func(s scanner) (engine.Artifact, error) {
		var a engine.Artifact
		var at string
		if err := s.Scan(&a.Kind, &a.Path, &at); err != nil {
			return a, err
		}
		var err error
		a.At, err = parseTime(at)
		return a, err
	}, `SELECT kind, path, at FROM artifacts ORDER BY id`)
}
