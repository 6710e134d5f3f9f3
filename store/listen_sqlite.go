package store

import (
	"context"
	"time"
)

// dataVersionEvery is how often a SQLite listener asks whether another
// process committed: about once a second, the pace a person watching a
// list expects, for one cheap pragma on a connection already open.
var dataVersionEvery = time.Second

// pollDataVersion is Listen on a SQLite file: SQLite sends no
// notifications, but PRAGMA data_version, asked again on the same
// connection, changes exactly when another connection committed to the
// file (sqlite.org/pragma.html#pragma_data_version). It is asked on the
// writer's one connection, whose own commits leave it unchanged, so only
// other processes' writes call onResync — the caller's catch-up, the same
// one a PostgreSQL listener calls after a reconnection. A failing pragma
// (the file busy, the pool closing) is tried again at the next tick.
func (db *DB) pollDataVersion(ctx context.Context, onResync func()) {
	last, err := db.dataVersion(ctx)
	t := time.NewTicker(dataVersionEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		v, verr := db.dataVersion(ctx)
		if verr != nil {
			continue
		}
		if err != nil || v != last {
			onResync()
		}
		last, err = v, nil
	}
}

// dataVersion is PRAGMA data_version on the writer's connection.
func (db *DB) dataVersion(ctx context.Context) (int64, error) {
	var v int64
	err := db.writer.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v)
	return v, err
}
