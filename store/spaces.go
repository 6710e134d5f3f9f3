package store

import (
	"context"
	"fmt"
)

// Info is one database's (one space's) counts, as `memtrace spaces` lists
// them.
func (db *DB) Info(ctx context.Context) (SpaceInfo, error) {
	s := SpaceInfo{Space: db.space, DSN: db.path}
	err := db.read(ctx, func(tx *Tx) error {
		return tx.tx.QueryRowContext(ctx, `SELECT
			(SELECT COUNT(*) FROM memories),
			(SELECT COUNT(*) FROM memories WHERE status = 'active'),
			(SELECT COUNT(*) FROM captures),
			(SELECT COUNT(DISTINCT batch) FROM audit WHERE batch <> ''),
			(SELECT COUNT(*) FROM proposals WHERE status = 'pending')`).
			Scan(&s.Memories, &s.Active, &s.Captures, &s.Batches, &s.Proposals)
	})
	if err != nil {
		return s, fmt.Errorf("count %s: %w", db.path, err)
	}
	return s, nil
}
