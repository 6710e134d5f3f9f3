package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"memtrace/engine"
)

// auditRow is what writeAudit records for one mutation of a memory.
type auditRow struct {
	Batch, Actor, Action string
	MemoryID             int64
	Before, After        *engine.Memory
	// EmbeddingReplaced is set when the mutation changed the vector; the
	// old one is kept so that a rollback can put it back.
	EmbeddingReplaced bool
	BeforeEmbedding   []float32
	BeforeEmbedder    string
}

// auditJSON encodes a memory for the audit log, with its times in UTC so the
// log reads the same whatever zone the caller used.
func auditJSON(m *engine.Memory) (any, error) {
	if m == nil {
		return nil, nil
	}
	c := *m
	c.CreatedAt, c.LastAccessedAt, c.BoostAt = c.CreatedAt.UTC(), c.LastAccessedAt.UTC(), c.BoostAt.UTC()
	b, err := json.Marshal(&c)
	if err != nil {
		return nil, fmt.Errorf("encode memory %d for audit: %w", m.ID, err)
	}
	return string(b), nil
}

func (tx *Tx) writeAudit(ctx context.Context, r auditRow) error {
	before, err := auditJSON(r.Before)
	if err != nil {
		return err
	}
	after, err := auditJSON(r.After)
	if err != nil {
		return err
	}
	var beforeEmbedding, beforeEmbedder any
	if r.EmbeddingReplaced {
		beforeEmbedding, beforeEmbedder = encodeEmbedding(r.BeforeEmbedding), r.BeforeEmbedder
	}
	s, err := tx.stmt(ctx, `INSERT INTO audit (batch, actor, action, memory_id, before, after, before_embedding, before_embedder, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("write audit: %w", err)
	}
	if _, err := s.ExecContext(ctx, r.Batch, r.Actor, r.Action, r.MemoryID, before, after,
		beforeEmbedding, beforeEmbedder, formatTime(tx.now())); err != nil {
		return fmt.Errorf("write audit: %w", err)
	}
	return nil
}

// storedAudit is an audit row as read back, with the saved embedding.
type storedAudit struct {
	engine.AuditEntry
	EmbeddingReplaced bool
	BeforeEmbedding   []float32
	BeforeEmbedder    string
}

const auditColumns = `id, batch, actor, action, memory_id, before, after, before_embedding, before_embedder, at`

func scanAudit(s scanner) (*storedAudit, error) {
	var (
		a                 storedAudit
		before, after     sql.NullString
		embedding         []byte
		embedder          sql.NullString
		at                string
		err               error
		beforeM, afterMem engine.Memory
	)
	if err := s.Scan(&a.ID, &a.Batch, &a.Actor, &a.Action, &a.MemoryID, &before, &after, &embedding, &embedder, &at); err != nil {
		return nil, err
	}
	if before.Valid {
		if err := json.Unmarshal([]byte(before.String), &beforeM); err != nil {
			return nil, fmt.Errorf("audit %d: before: %w", a.ID, err)
		}
		a.Before = &beforeM
	}
	if after.Valid {
		if err := json.Unmarshal([]byte(after.String), &afterMem); err != nil {
			return nil, fmt.Errorf("audit %d: after: %w", a.ID, err)
		}
		a.After = &afterMem
	}
	if embedder.Valid {
		a.EmbeddingReplaced, a.BeforeEmbedder = true, embedder.String
		if a.BeforeEmbedding, err = decodeEmbedding(embedding, false); err != nil {
			return nil, fmt.Errorf("audit %d: %w", a.ID, err)
		}
	}
	if a.At, err = parseTime(at); err != nil {
		return nil, err
	}
	return &a, nil
}

func (tx *Tx) queryAudit(ctx context.Context, query string, args ...any) ([]*storedAudit, error) {
	return queryAll(ctx, tx, "read audit", scanAudit, `SELECT `+auditColumns+` FROM audit `+query, args...)
}

func entries(rows []*storedAudit) []*engine.AuditEntry {
	out := make([]*engine.AuditEntry, len(rows))
	for i, r := range rows {
		e := r.AuditEntry
		out[i] = &e
	}
	return out
}

// AuditForMemory returns the audit history of a memory, oldest first.
func (tx *Tx) AuditForMemory(ctx context.Context, memoryID int64) ([]*engine.AuditEntry, error) {
	rows, err := tx.queryAudit(ctx, `WHERE memory_id = ? ORDER BY id`, memoryID)
	return entries(rows), err
}

// AuditForBatch returns the audit rows of a batch, oldest first.
func (tx *Tx) AuditForBatch(ctx context.Context, batch string) ([]*engine.AuditEntry, error) {
	if batch == "" {
		return nil, engine.Errorf(engine.EINVALID, "batch id is empty")
	}
	rows, err := tx.queryAudit(ctx, `WHERE batch = ? ORDER BY id`, batch)
	return entries(rows), err
}

// Batches lists audited batches, newest first, with the actor of their first
// row, their row count, the time of their first row and whether a rollback
// of them exists.
func (tx *Tx) Batches(ctx context.Context, limit int) ([]engine.BatchInfo, error) {
	rows, err := tx.tx.QueryContext(ctx, `WITH b AS (
			SELECT batch, MIN(id) AS first_id, MAX(id) AS last_id, COUNT(*) AS n, MIN(at) AS at
			FROM audit WHERE batch <> '' GROUP BY batch)
		SELECT b.batch, f.actor, b.n, b.at,
			EXISTS (SELECT 1 FROM audit r WHERE r.batch = 'rollback:' || b.batch)
		FROM b JOIN audit f ON f.id = b.first_id
		ORDER BY b.last_id DESC`+limitClause(limit, 0))
	if err != nil {
		return nil, fmt.Errorf("list batches: %w", err)
	}
	defer rows.Close()
	var out []engine.BatchInfo
	for rows.Next() {
		var b engine.BatchInfo
		var at string
		if err := rows.Scan(&b.Batch, &b.Actor, &b.Rows, &at, &b.RolledBack); err != nil {
			return nil, fmt.Errorf("list batches: %w", err)
		}
		if b.At, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("list batches: %w", err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// rollbackBatch restores every memory the batch changed to its state before
// the batch. It refuses when the batch was already rolled back, or when a
// memory was changed (in the audit log) after the batch by anything else
// that still stands: a later batch that was itself rolled back, together
// with its "rollback:" rows, changed nothing, so undo works as a stack.
//
// A memory the batch created had no state before it; since nothing is
// hard-deleted, it is quarantined instead (orig_type keeps its type).
// Access statistics (last access, count, boost) that recalls changed after
// the batch are telemetry, not curated content, and are kept as they are.
func (tx *Tx) rollbackBatch(ctx context.Context, batch, actor string) (int, error) {
	if batch == "" {
		return 0, engine.Errorf(engine.EINVALID, "batch id is empty")
	}
	if actor == "" {
		actor = "rollback"
	}
	var done bool
	if err := tx.tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM audit WHERE batch = ?)`, "rollback:"+batch).Scan(&done); err != nil {
		return 0, fmt.Errorf("rollback %s: %w", batch, err)
	} else if done {
		return 0, engine.Errorf(engine.ECONFLICT, "batch %s was already rolled back", batch)
	}
	rows, err := tx.queryAudit(ctx, `WHERE batch = ? ORDER BY id`, batch)
	if err != nil {
		return 0, err
	}
	if len(rows) == 0 {
		return 0, engine.Errorf(engine.ENOTFOUND, "batch %s not found in the audit log", batch)
	}

	// Per memory, in the order the batch first touched them: its first row
	// (the state before) and its last row (the state the batch left).
	type span struct{ first, last *storedAudit }
	spans := map[int64]*span{}
	var order []int64
	for _, r := range rows {
		if s, ok := spans[r.MemoryID]; ok {
			s.last = r
			continue
		}
		spans[r.MemoryID] = &span{first: r, last: r}
		order = append(order, r.MemoryID)
	}

	var conflicts []string
	undone := map[string]bool{}
	for _, id := range order {
		c, err := tx.laterChange(ctx, id, spans[id].last.ID, undone)
		if err != nil {
			return 0, fmt.Errorf("rollback %s: %w", batch, err)
		}
		if c != "" {
			conflicts = append(conflicts, fmt.Sprintf("memory %d (%s)", id, c))
		}
	}
	if len(conflicts) > 0 {
		return 0, engine.Errorf(engine.ECONFLICT, "cannot roll back batch %s: changed after it: %s; roll those changes back first",
			batch, strings.Join(conflicts, ", "))
	}

	a := engine.Actor{Name: actor, Batch: "rollback:" + batch}
	for i := len(order) - 1; i >= 0; i-- {
		s := spans[order[i]]
		current, err := tx.GetMemory(ctx, order[i])
		if err != nil {
			return 0, err
		}
		restored := restoredState(s.first, s.last, rows, current)
		if err := tx.writeMemory(ctx, restored); err != nil {
			return 0, err
		}
		row := auditRow{Batch: a.Batch, Actor: a.Name, Action: "rollback", MemoryID: restored.ID, Before: current, After: restored}
		if current.Embedder != restored.Embedder || !sameVector(current.Embedding, restored.Embedding) {
			row.EmbeddingReplaced, row.BeforeEmbedding, row.BeforeEmbedder = true, current.Embedding, current.Embedder
		}
		if err := tx.writeAudit(ctx, row); err != nil {
			return 0, err
		}
	}
	return len(order), nil
}

// restoredState computes what a memory returns to: its state before the
// first row of the batch, with the embedding it had then.
func restoredState(first, last *storedAudit, batchRows []*storedAudit, current *engine.Memory) *engine.Memory {
	if first.Before == nil {
		m := *current
		if m.Status != engine.StatusQuarantined && m.OrigType == "" {
			m.OrigType = m.Type
		}
		m.Status = engine.StatusQuarantined
		return &m
	}
	m := *first.Before
	m.ID = current.ID
	// The embedding: the one saved by the earliest row of the batch that
	// replaced it, else the batch never touched it and the current one stands.
	m.Embedding, m.Embedder = current.Embedding, current.Embedder
	for _, r := range batchRows {
		if r.MemoryID == current.ID && r.EmbeddingReplaced {
			m.Embedding, m.Embedder = r.BeforeEmbedding, r.BeforeEmbedder
			break
		}
	}
	// Telemetry written after the batch by recalls is kept.
	if last.After != nil {
		if !current.LastAccessedAt.Equal(last.After.LastAccessedAt) || current.AccessCount != last.After.AccessCount {
			m.LastAccessedAt, m.AccessCount = current.LastAccessedAt, current.AccessCount
		}
		if current.Boost != last.After.Boost || !current.BoostAt.Equal(last.After.BoostAt) {
			m.Boost, m.BoostAt = current.Boost, current.BoostAt
		}
	}
	return &m
}

// laterChange describes the first audit row after row afterID that changed
// memory id and still stands, or returns "" when there is none. A row
// stands unless its batch was undone, or it belongs to the rollback of a
// batch that was undone (the pair nets to nothing). undone caches
// batchUndone per batch for one rollback.
func (tx *Tx) laterChange(ctx context.Context, id, afterID int64, undone map[string]bool) (string, error) {
	rows, err := tx.tx.QueryContext(ctx, `SELECT batch, actor, action, at FROM audit
		WHERE memory_id = ? AND id > ? ORDER BY id`, id, afterID)
	if err != nil {
		return "", err
	}
	type later struct{ batch, actor, action, at string }
	var all []later
	for rows.Next() {
		var l later
		if err := rows.Scan(&l.batch, &l.actor, &l.action, &l.at); err != nil {
			rows.Close()
			return "", err
		}
		all = append(all, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", err
	}
	for _, l := range all {
		neutral, err := tx.rowUndone(ctx, l.batch, undone)
		if err != nil {
			return "", err
		}
		if neutral {
			continue
		}
		by := l.actor
		if l.batch != "" {
			by += " in batch " + l.batch
		}
		return fmt.Sprintf("%s by %s at %s", l.action, by, l.at), nil
	}
	return "", nil
}

// rowUndone reports whether the rows of batch no longer count: the batch
// was undone, or it is the rollback of a batch that was undone.
func (tx *Tx) rowUndone(ctx context.Context, batch string, undone map[string]bool) (bool, error) {
	if batch == "" {
		return false, nil
	}
	u, err := tx.batchUndone(ctx, batch, undone)
	if err != nil || u {
		return u, err
	}
	if rolled, ok := strings.CutPrefix(batch, "rollback:"); ok {
		return tx.batchUndone(ctx, rolled, undone)
	}
	return false, nil
}

// batchUndone reports whether a batch's changes were taken back: it has a
// rollback, and that rollback was not itself rolled back (a redo). The
// chain rollback:…:batch is as long as the number of undo/redo steps.
func (tx *Tx) batchUndone(ctx context.Context, batch string, undone map[string]bool) (bool, error) {
	if u, ok := undone[batch]; ok {
		return u, nil
	}
	var rolledBack bool
	if err := tx.tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM audit WHERE batch = ?)`, "rollback:"+batch).Scan(&rolledBack); err != nil {
		return false, err
	}
	u := rolledBack
	if rolledBack {
		redone, err := tx.batchUndone(ctx, "rollback:"+batch, undone)
		if err != nil {
			return false, err
		}
		u = !redone
	}
	undone[batch] = u
	return u, nil
}
