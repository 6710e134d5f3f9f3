package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
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

// DropSpace drops the schema of the space a DSN names, with everything in
// it. Only for scratch spaces a command made for itself (a golden set's
// fixture, a benchmark's conversations): memtrace never drops a space it
// was pointed at.
func DropSpace(ctx context.Context, dsn string) error {
	cfg, space, err := pgConfig(dsn)
	if err != nil {
		return err
	}
	pool := openPGPool(cfg, DefaultSpace)
	defer pool.Close()
	if _, err := pool.ExecContext(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{space}.Sanitize()+` CASCADE`); err != nil {
		return pgOpenError(RedactDSN(dsn), err)
	}
	return nil
}
