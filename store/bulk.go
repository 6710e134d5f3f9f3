package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"memtrace/engine"
)

// LoadMemories writes new memories (prepared: hashed and embedded, without
// ids) in one transaction, each with its "create" audit row under a — the
// rows InsertMemory leaves, one by one. It sets every m.ID and m.Seq. On
// PostgreSQL the rows go in by COPY (two statements for any number of
// memories instead of two round trips per memory); on SQLite it is
// InsertMemory in one transaction. It is the
// fill of `bench scale` (a million memories over a hundred spaces); a
// capture goes through the capture pipeline.
func (db *DB) LoadMemories(ctx context.Context, ms []*engine.Memory, a engine.Actor) error {
	if err := checkActor(a); err != nil {
		return err
	}
	for _, m := range ms {
		if m.ID != 0 {
			return engine.Errorf(engine.EINVALID, "memory to insert already has id %d", m.ID)
		}
	}
	unset := func() {
		for _, m := range ms {
			m.ID, m.Seq = 0, 0
		}
	}
	if !db.pg {
		err := db.write(ctx, func(tx *Tx) error {
			for _, m := range ms {
				if err := tx.InsertMemory(ctx, m, a); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			unset()
		}
		return err
	}
	if len(ms) == 0 {
		return nil
	}
	conn, err := db.writer.Conn(ctx)
	if err != nil {
		return txError(db.path, "begin transaction", err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return errors.New("not a pgx connection")
		}
		return pgx.BeginFunc(ctx, c.Conn(), func(tx pgx.Tx) error { return db.copyMemories(ctx, tx, ms, a) })
	})
	if err != nil {
		unset()
		return txError(db.path, "load memories", err)
	}
	return nil
}

// copyMemories is LoadMemories' transaction on PostgreSQL: the seq row
// lock every writer takes (postgres.go), ids from the table's identity
// sequence, COPY of the memories and of their audit rows, the new seq and
// the change notification.
func (db *DB) copyMemories(ctx context.Context, tx pgx.Tx, ms []*engine.Memory, a engine.Actor) error {
	var seq int64
	if err := tx.QueryRow(ctx, lockSeqSQL).Scan(&seq); err != nil {
		return fmt.Errorf("lock seq: %w", err)
	}
	// len(ms) ids at once: every writer of memories holds the seq lock,
	// so nobody takes one between nextval and setval.
	var last int64
	if err := tx.QueryRow(ctx, `SELECT setval(pg_get_serial_sequence('memories', 'id'),
		nextval(pg_get_serial_sequence('memories', 'id')) + $1 - 1)`, len(ms)).Scan(&last); err != nil {
		return fmt.Errorf("reserve ids: %w", err)
	}
	for i, m := range ms {
		m.ID, m.Seq = last-int64(len(ms)-1-i), seq+int64(i)+1
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"memories"}, []string{"id", "key", "content", "kind", "type", "orig_type",
		"status", "tier", "scope", "importance", "role", "session", "created_at", "last_accessed_at", "access_count",
		"boost", "boost_at", "hash", "embedding", "embedder", "seq", "superseded_by", "valid_to", "superseded_at"},
		pgx.CopyFromSlice(len(ms), func(i int) ([]any, error) {
			m := ms[i]
			return []any{m.ID, nullString(m.Key), m.Content, string(m.Kind), m.Type, m.OrigType,
				string(m.Status), string(m.Tier), m.Scope, m.Importance, m.Role, m.Session,
				formatTime(m.CreatedAt), formatTime(m.LastAccessedAt), int64(m.AccessCount),
				m.Boost, formatTime(m.BoostAt), m.Hash, encodeEmbedding(m.Embedding), m.Embedder, m.Seq,
				nullID(m.SupersededBy), nullTime(m.ValidTo), nullTime(m.SupersededAt)}, nil
		})); err != nil {
		if pgCode(err) == "23505" {
			return engine.Errorf(engine.ECONFLICT, "a memory to load has a key that already exists (%v)", err)
		}
		return fmt.Errorf("copy memories: %w", err)
	}
	at := formatTime(db.now())
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"audit"}, []string{"batch", "actor", "action", "memory_id", "after", "at", "change_kind"},
		pgx.CopyFromSlice(len(ms), func(i int) ([]any, error) {
			after, err := auditJSON(ms[i])
			if err != nil {
				return nil, err
			}
			return []any{a.Batch, a.Name, "create", ms[i].ID, after, at, engine.ClassifyChange(nil, ms[i])}, nil
		})); err != nil {
		return fmt.Errorf("copy audit: %w", err)
	}
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	var batches []string
	if a.Batch != "" {
		batches = []string{a.Batch}
	}
	newSeq := seq + int64(len(ms))
	payload, err := notificationPayload(newSeq, ids, batches)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `WITH flush AS (UPDATE counters SET value = $1 WHERE name = 'seq') SELECT pg_notify($2, $3)`,
		newSeq, NotifyChannel(db.space), payload); err != nil {
		return fmt.Errorf("write seq and notify: %w", err)
	}
	return nil
}

// Vacuum brings a PostgreSQL space's memories and audit to the state a
// server that has run a while keeps them in — vacuumed, with current
// planner statistics — so that autovacuum does not start on them at once
// (after a bulk load it would, and compete with whatever runs next). On
// SQLite it does nothing.
func (db *DB) Vacuum(ctx context.Context) error {
	if !db.pg {
		return nil
	}
	if _, err := db.writer.ExecContext(ctx, `VACUUM (ANALYZE) memories, audit`); err != nil {
		return txError(db.path, "vacuum", err)
	}
	return nil
}
