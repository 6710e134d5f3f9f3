package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"memtrace/engine"
)

const memoryColumns = `id, key, content, kind, type, orig_type, status, tier, scope,
	importance, role, session, created_at, last_accessed_at, access_count,
	boost, boost_at, hash, embedding, embedder, seq,
	superseded_by, valid_to, superseded_at`

const memoryColumnCount = 24

// InsertMemory writes a new memory, sets m.ID and m.Seq, and audits it as a
// "create" under a.
func (tx *Tx) InsertMemory(ctx context.Context, m *engine.Memory, a engine.Actor) error {
	if m.ID != 0 {
		return engine.Errorf(engine.EINVALID, "memory to insert already has id %d", m.ID)
	}
	return tx.insertMemory(ctx, m, a)
}

// InsertMemoryAt writes a new memory under the id m.ID carries — a memory
// restored from an export (import md into a new database) keeps the id its
// lines and links name. A taken id is ECONFLICT. On PostgreSQL the identity
// sequence is moved past the id so later inserts do not collide with it.
func (tx *Tx) InsertMemoryAt(ctx context.Context, m *engine.Memory, a engine.Actor) error {
	if m.ID <= 0 {
		return engine.Errorf(engine.EINVALID, "memory to restore has no id")
	}
	var taken int
	if err := tx.tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM memories WHERE id = ?`, m.ID).Scan(&taken); err != nil {
		return fmt.Errorf("restore memory %d: %w", m.ID, err)
	}
	if taken > 0 {
		return engine.Errorf(engine.ECONFLICT, "memory id %d is taken", m.ID)
	}
	if err := tx.insertMemory(ctx, m, a); err != nil {
		return err
	}
	if tx.tx.pg {
		tx.idLoaded = false // the sequence moves
		if _, err := tx.tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('memories', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM memories) + 1, nextval(pg_get_serial_sequence('memories', 'id'))), false)`); err != nil {
			return fmt.Errorf("restore memory %d: move the id sequence: %w", m.ID, err)
		}
	}
	return nil
}

// InsertMemoryAhead is InsertMemory for a caller to whom a taken key is a
// failure of the whole transaction (a capture's): on PostgreSQL the insert
// then goes to the server with the transaction's next statement, under the
// id the table will give it — the opening read the id sequence, which no
// one else moves before the commit (pgpipe.go) —, and a taken key (or an
// id other than that) fails the transaction there, ECONFLICT. Elsewhere,
// and when the id is not known, it is InsertMemory.
func (tx *Tx) InsertMemoryAhead(ctx context.Context, m *engine.Memory, a engine.Actor) error {
	p := tx.tx.pipe
	if p == nil || m.ID != 0 || !tx.idLoaded {
		return tx.InsertMemory(ctx, m, a)
	}
	if err := checkActor(a); err != nil {
		return err
	}
	seq, err := tx.nextSeq(ctx)
	if err != nil {
		return err
	}
	insert, args := memoryInsert(m, seq, true)
	id, key := tx.nextID, m.Key
	tx.nextID++
	p.queue(insert+` RETURNING id`, args, func(rows pgx.Rows) error {
		if !rows.Next() {
			return engine.Errorf(engine.ECONFLICT, "a memory with key %q already exists", key)
		}
		var got int64
		if err := rows.Scan(&got); err != nil {
			return err
		}
		if got != id {
			return fmt.Errorf("the table gave id %d, not %d as its sequence read under the lock", got, id)
		}
		return nil
	}, func(err error) error {
		if engine.ErrorCode(err) == engine.ECONFLICT {
			return err
		}
		return fmt.Errorf("insert memory: %w", err)
	})
	m.ID, m.Seq = id, seq
	return tx.writeAudit(ctx, auditRow{Batch: a.Batch, Actor: a.Name, Action: "create", MemoryID: id, After: m})
}

// memoryInsert is the INSERT of m with seq and its arguments; with id
// when m.ID is set. On PostgreSQL (pg) a failed statement aborts the
// whole transaction, so a taken key is an insert that returns no row, not
// a constraint error (the caller may go on in the same transaction after
// ECONFLICT).
func memoryInsert(m *engine.Memory, seq int64, pg bool) (string, []any) {
	onConflict := ""
	if pg {
		onConflict = ` ON CONFLICT (key) DO NOTHING`
	}
	cols, marks := "", ""
	var args []any
	if m.ID != 0 {
		cols, marks, args = "id, ", "?, ", []any{m.ID}
	}
	insert := `INSERT INTO memories (` + cols + `key, content, kind, type, orig_type, status, tier, scope,
		importance, role, session, created_at, last_accessed_at, access_count,
		boost, boost_at, hash, embedding, embedder, seq, superseded_by, valid_to, superseded_at)
		VALUES (` + marks + `?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)` + onConflict
	args = append(args, nullString(m.Key), m.Content, string(m.Kind), m.Type, m.OrigType,
		string(m.Status), string(m.Tier), m.Scope, m.Importance, m.Role, m.Session,
		formatTime(m.CreatedAt), formatTime(m.LastAccessedAt), m.AccessCount,
		m.Boost, formatTime(m.BoostAt), m.Hash, encodeEmbedding(m.Embedding), m.Embedder, seq,
		nullID(m.SupersededBy), nullTime(m.ValidTo), nullTime(m.SupersededAt))
	return insert, args
}

// insertMemory is InsertMemory's write: under m.ID when it is set, else
// under the next id the table gives.
func (tx *Tx) insertMemory(ctx context.Context, m *engine.Memory, a engine.Actor) error {
	if err := checkActor(a); err != nil {
		return err
	}
	seq, err := tx.nextSeq(ctx)
	if err != nil {
		return err
	}
	insert, args := memoryInsert(m, seq, tx.tx.pg)
	var id int64
	if p := tx.tx.pipe; p != nil {
		// With what is queued (the audit row before it, a batch's rows).
		found := false
		err = p.query(ctx, insert+` RETURNING id`, args, func(rows pgx.Rows) error {
			if !rows.Next() {
				return nil
			}
			found = true
			return rows.Scan(&id)
		}, func(err error) error { return fmt.Errorf("insert memory: %w", err) })
		if err != nil {
			return err
		}
		if !found {
			err = sql.ErrNoRows
			tx.idLoaded = false // the conflicting row took an id too
		} else if m.ID == 0 {
			tx.nextID, tx.idLoaded = id+1, true
		}
	} else if tx.tx.pg {
		s, serr := tx.stmt(ctx, insert+` RETURNING id`)
		if serr != nil {
			return fmt.Errorf("insert memory: %w", serr)
		}
		err = s.QueryRowContext(ctx, args...).Scan(&id)
	} else {
		id, err = tx.insertID(ctx, insert, args...)
	}
	if isUnique(err) || errors.Is(err, sql.ErrNoRows) {
		return engine.Errorf(engine.ECONFLICT, "a memory with key %q already exists", m.Key)
	} else if err != nil {
		return fmt.Errorf("insert memory: %w", err)
	}
	m.ID, m.Seq = id, seq
	return tx.writeAudit(ctx, auditRow{Batch: a.Batch, Actor: a.Name, Action: "create", MemoryID: id, After: m})
}

// UpdateMemory writes every field of m over the row with m.ID and audits the
// row before and after under a and action. It sets m.Seq.
func (tx *Tx) UpdateMemory(ctx context.Context, m *engine.Memory, a engine.Actor, action string) error {
	if err := checkActor(a); err != nil {
		return err
	}
	if action == "" {
		action = "update"
	}
	before, err := tx.GetMemory(ctx, m.ID)
	if err != nil {
		return err
	}
	if err := tx.writeMemory(ctx, m); err != nil {
		return err
	}
	row := auditRow{Batch: a.Batch, Actor: a.Name, Action: action, MemoryID: m.ID, Before: before, After: m}
	if before.Embedder != m.Embedder || !sameVector(before.Embedding, m.Embedding) {
		row.EmbeddingReplaced = true
		row.BeforeEmbedding, row.BeforeEmbedder = before.Embedding, before.Embedder
	}
	return tx.writeAudit(ctx, row)
}

// writeMemory overwrites every column of the row with m.ID and bumps seq.
func (tx *Tx) writeMemory(ctx context.Context, m *engine.Memory) error {
	seq, err := tx.nextSeq(ctx)
	if err != nil {
		return err
	}
	s, err := tx.stmt(ctx, `UPDATE memories SET key = ?, content = ?, kind = ?, type = ?, orig_type = ?,
		status = ?, tier = ?, scope = ?, importance = ?, role = ?, session = ?, created_at = ?,
		last_accessed_at = ?, access_count = ?, boost = ?, boost_at = ?, hash = ?,
		embedding = ?, embedder = ?, seq = ?, superseded_by = ?, valid_to = ?, superseded_at = ? WHERE id = ?`)
	if err != nil {
		return fmt.Errorf("update memory %d: %w", m.ID, err)
	}
	res, err := s.ExecContext(ctx, nullString(m.Key), m.Content, string(m.Kind), m.Type, m.OrigType,
		string(m.Status), string(m.Tier), m.Scope, m.Importance, m.Role, m.Session,
		formatTime(m.CreatedAt), formatTime(m.LastAccessedAt), m.AccessCount,
		m.Boost, formatTime(m.BoostAt), m.Hash, encodeEmbedding(m.Embedding), m.Embedder, seq,
		nullID(m.SupersededBy), nullTime(m.ValidTo), nullTime(m.SupersededAt), m.ID)
	if isUnique(err) {
		return engine.Errorf(engine.ECONFLICT, "another memory already has key %q", m.Key)
	} else if err != nil {
		return fmt.Errorf("update memory %d: %w", m.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("update memory %d: %w", m.ID, err)
	} else if n == 0 {
		return engine.Errorf(engine.ENOTFOUND, "memory %d not found", m.ID)
	}
	m.Seq = seq
	return nil
}

// RecordAccess notes that a recall used the memory: last access and count.
// Not audited (telemetry), but it bumps seq so other readers see it.
func (tx *Tx) RecordAccess(ctx context.Context, id int64, at time.Time) error {
	seq, err := tx.nextSeq(ctx)
	if err != nil {
		return err
	}
	s, err := tx.stmt(ctx, `UPDATE memories SET last_accessed_at = ?, access_count = access_count + 1, seq = ? WHERE id = ?`)
	if err != nil {
		return fmt.Errorf("record access: %w", err)
	}
	return affectOne(s.ExecContext(ctx, formatTime(at), seq, id))(id)
}

// SetBoost sets the association boost of a memory as of at. Not audited,
// but it bumps seq.
func (tx *Tx) SetBoost(ctx context.Context, id int64, boost float64, at time.Time) error {
	seq, err := tx.nextSeq(ctx)
	if err != nil {
		return err
	}
	s, err := tx.stmt(ctx, `UPDATE memories SET boost = ?, boost_at = ?, seq = ? WHERE id = ?`)
	if err != nil {
		return fmt.Errorf("set boost: %w", err)
	}
	return affectOne(s.ExecContext(ctx, boost, formatTime(at), seq, id))(id)
}

// affectOne checks that an update of memory id hit a row.
func affectOne(res sql.Result, err error) func(id int64) error {
	return func(id int64) error {
		if err != nil {
			return fmt.Errorf("update memory %d: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("update memory %d: %w", id, err)
		} else if n == 0 {
			return engine.Errorf(engine.ENOTFOUND, "memory %d not found", id)
		}
		return nil
	}
}

// MemoriesChangedSince returns the memories written after seq, in seq order,
// and the highest seq among them (seq itself when none changed).
func (tx *Tx) MemoriesChangedSince(ctx context.Context, seq int64) ([]*engine.Memory, int64, error) {
	if p := tx.tx.pipe; p != nil {
		// With what is queued: a capture's refresh goes with the lock.
		var ms []*engine.Memory
		highest := seq
		err := p.query(ctx, `SELECT `+memoryColumns+` FROM memories WHERE seq > ? ORDER BY seq`, []any{seq}, func(rows pgx.Rows) error {
			for rows.Next() {
				m, err := scanMemory(rows)
				if err != nil {
					return err
				}
				highest = max(highest, m.Seq)
				ms = append(ms, m)
			}
			return nil
		}, func(err error) error { return fmt.Errorf("memories changed: %w", err) })
		if err != nil {
			return nil, seq, err
		}
		return ms, highest, nil
	}
	return memoriesChangedSince(ctx, tx.tx, false, seq) // sqlTx rebinds for PostgreSQL itself
}

// querier runs a query: a transaction, or a pool.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// memoriesChangedSince runs MemoriesChangedSince's query on q (a
// transaction, or on PostgreSQL the pool: one statement, one snapshot);
// rebind: q is a pool of PostgreSQL connections, which needs the query in
// PostgreSQL's spelling.
func memoriesChangedSince(ctx context.Context, q querier, rebind bool, seq int64) ([]*engine.Memory, int64, error) {
	query := `SELECT ` + memoryColumns + ` FROM memories WHERE seq > ? ORDER BY seq`
	if rebind {
		query = pgQuery(query)
	}
	rows, err := q.QueryContext(ctx, query, seq)
	if err != nil {
		return nil, seq, fmt.Errorf("memories changed: %w", err)
	}
	defer rows.Close()
	var ms []*engine.Memory
	highest := seq
	for rows.Next() {
		m, err := scanMemory(rows)
		if err != nil {
			return nil, seq, fmt.Errorf("memories changed: %w", err)
		}
		highest = max(highest, m.Seq)
		ms = append(ms, m)
	}
	if err := rows.Err(); err != nil {
		return nil, seq, fmt.Errorf("memories changed: %w", err)
	}
	return ms, highest, nil
}

// nullTime stores the zero time (unset) as NULL.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return formatTime(t)
}

// parseNullTime reads a time written by nullTime.
func parseNullTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return parseTime(s)
}

func checkActor(a engine.Actor) error {
	if a.Name == "" {
		return engine.Errorf(engine.EINVALID, "a change to a memory needs an actor for the audit log")
	}
	return nil
}

func sameVector(a, b []float32) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func int64sJSON(ids []int64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, id)
	}
	b.WriteByte(']')
	return b.String()
}
