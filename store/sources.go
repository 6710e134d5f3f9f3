package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"memtrace/engine"
)

// SaveMemorySource records where an imported memory came from (insert or
// replace by memory id).
func (tx *Tx) SaveMemorySource(ctx context.Context, s *engine.MemorySource) error {
	if s.MemoryID == 0 || s.Source == "" {
		return engine.Errorf(engine.EINVALID, "a memory source needs a memory id and a source")
	}
	meta := string(s.Metadata)
	if meta == "" {
		meta = "{}"
	}
	st, err := tx.stmt(ctx, `INSERT INTO memory_sources (memory_id, source, source_id, position, metadata, imported_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (memory_id) DO UPDATE SET source = excluded.source, source_id = excluded.source_id,
			position = excluded.position, metadata = excluded.metadata, imported_at = excluded.imported_at`)
	if err != nil {
		return fmt.Errorf("save memory source: %w", err)
	}
	if _, err := st.ExecContext(ctx, s.MemoryID, s.Source, s.SourceID, s.Position, meta, formatTime(s.ImportedAt)); err != nil {
		return fmt.Errorf("save source of memory %d: %w", s.MemoryID, err)
	}
	return nil
}

// GetMemorySource returns where memory id was imported from, or ENOTFOUND
// for a memory that was captured rather than imported.
func (tx *Tx) GetMemorySource(ctx context.Context, id int64) (*engine.MemorySource, error) {
	s := &engine.MemorySource{MemoryID: id}
	var meta, at string
	err := tx.tx.QueryRowContext(ctx, `SELECT source, source_id, position, metadata, imported_at
		FROM memory_sources WHERE memory_id = ?`, id).Scan(&s.Source, &s.SourceID, &s.Position, &meta, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, engine.Errorf(engine.ENOTFOUND, "memory %d was not imported from another store", id)
	} else if err != nil {
		return nil, fmt.Errorf("get source of memory %d: %w", id, err)
	}
	s.Metadata = []byte(meta)
	if s.ImportedAt, err = parseTime(at); err != nil {
		return nil, fmt.Errorf("source of memory %d: %w", id, err)
	}
	return s, nil
}

// SaveMemorySource records where an imported memory came from.
func (db *DB) SaveMemorySource(ctx context.Context, s *engine.MemorySource) error {
	return db.write(ctx, func(tx *Tx) error { return tx.SaveMemorySource(ctx, s) })
}

// GetMemorySource returns where memory id was imported from, or ENOTFOUND.
func (db *DB) GetMemorySource(ctx context.Context, id int64) (*engine.MemorySource, error) {
	return readValue(ctx, db, func(tx *Tx) (*engine.MemorySource, error) { return tx.GetMemorySource(ctx, id) })
}
