package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
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
	// change_kind is the row's change as ClassifyChange names it, so that
	// Batches counts a batch's effect in SQL.
	const insert = `INSERT INTO audit (batch, actor, action, memory_id, before, after, before_embedding, before_embedder, at, change_kind)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	args := []any{r.Batch, r.Actor, r.Action, r.MemoryID, before, after,
		beforeEmbedding, beforeEmbedder, formatTime(tx.now()), engine.ClassifyChange(r.Before, r.After)}
	if p := tx.tx.pipe; p != nil {
		// Nobody waits for it: it goes with the next statement.
		p.exec(insert, args, func(err error) error { return fmt.Errorf("write audit: %w", err) }, nil)
		tx.changed(r.MemoryID, r.Batch)
		return nil
	}
	s, err := tx.stmt(ctx, insert)
	if err != nil {
		return fmt.Errorf("write audit: %w", err)
	}
	if _, err := s.ExecContext(ctx, args...); err != nil {
		return fmt.Errorf("write audit: %w", err)
	}
	tx.changed(r.MemoryID, r.Batch)
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
		a             storedAudit
		before, after sql.NullString
		embedding     []byte
		embedder      sql.NullString
		at            string
		err           error
	)
	if err := s.Scan(&a.ID, &a.Batch, &a.Actor, &a.Action, &a.MemoryID, &before, &after, &embedding, &embedder, &at); err != nil {
		return nil, err
	}
	if a.Before, err = auditMemory(before); err != nil {
		return nil, fmt.Errorf("audit %d: before: %w", a.ID, err)
	}
	if a.After, err = auditMemory(after); err != nil {
		return nil, fmt.Errorf("audit %d: after: %w", a.ID, err)
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

// FindAudit returns the audit rows f selects, oldest first.
func (tx *Tx) FindAudit(ctx context.Context, f engine.AuditFilter) ([]*engine.AuditEntry, error) {
	where, args := []string{`id > ?`}, []any{f.AfterID}
	if f.Superseded {
		where = append(where, `memory_id IN (SELECT id FROM memories WHERE superseded_by IS NOT NULL)`)
	}
	rows, err := tx.queryAudit(ctx, whereClause(where)+` ORDER BY id`, args...)
	return entries(rows), err
}

// Batches lists audited batches, newest first, with the actor of their first
// row, their row count, the time of their first row, whether a rollback
// of them exists, what they did (one change kind per row) and whether they
// can be rolled back now.
//
// With a limit its reads are proportional to the batches listed, not to
// the audit log: newestBatches walks down the log to the newest batches,
// their counts come from the (batch, id) index, their effects from a GROUP
// BY of the (batch, change_kind, action) index over their rows — no row's
// JSON is decoded. Without one (every batch) it aggregates the whole index.
func (tx *Tx) Batches(ctx context.Context, limit int) ([]engine.BatchInfo, error) {
	where, args := `batch <> ''`, []any(nil)
	if limit > 0 {
		names, err := tx.newestBatches(ctx, limit)
		if err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, nil
		}
		where = `batch IN (?` + strings.Repeat(`, ?`, len(names)-1) + `)`
		for _, n := range names {
			args = append(args, n)
		}
	}
	rows, err := tx.tx.QueryContext(ctx, `WITH b AS (
			SELECT batch, MIN(id) AS first_id, MAX(id) AS last_id, COUNT(*) AS n
			FROM audit WHERE `+where+` GROUP BY batch)
		SELECT b.batch, f.actor, b.n, f.at,
			EXISTS (SELECT 1 FROM audit r WHERE r.batch = 'rollback:' || b.batch),
			COALESCE(k.kind, ''), COALESCE(k.rollback_of, '')
		FROM b JOIN audit f ON f.id = b.first_id LEFT JOIN batches k ON k.batch = b.batch
		ORDER BY b.last_id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("list batches: %w", err)
	}
	var out []engine.BatchInfo
	for rows.Next() {
		var b engine.BatchInfo
		var at string
		if err := rows.Scan(&b.Batch, &b.Actor, &b.Rows, &at, &b.RolledBack, &b.Kind, &b.RollbackOf); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list batches: %w", err)
		}
		if b.At, err = parseTime(at); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list batches: %w", err)
		}
		out = append(out, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list batches: %w", err)
	}
	if err := tx.batchEffects(ctx, out, limit == 0); err != nil {
		return nil, err
	}
	later, err := tx.laterBatches(ctx, out, limit == 0)
	if err != nil {
		return nil, err
	}
	undone := map[string]bool{}
	for i := range out {
		b := &out[i]
		if b.RolledBack {
			b.WhyNot = "already rolled back"
			continue
		}
		if b.Kind == engine.BatchErase {
			b.WhyNot = "an erasure cannot be rolled back"
			continue
		}
		if b.WhyNot, err = tx.blockedBy(ctx, later[b.Batch], undone); err != nil {
			return nil, err
		}
		b.CanRollback = b.WhyNot == ""
	}
	return out, nil
}

// newestBatches names the limit batches whose last rows are the newest,
// newest first: it walks the log down from its newest row, each step to the
// next row of a batch not named yet, so that it reads the rows of the
// batches it lists (and of any interleaved with them), not the whole log.
func (tx *Tx) newestBatches(ctx context.Context, limit int) ([]string, error) {
	var names []string
	args := []any{int64(math.MaxInt64)}
	for len(names) < limit {
		q := `SELECT id, batch FROM audit WHERE id < ? AND batch <> ''`
		if len(names) > 0 {
			q += ` AND batch NOT IN (?` + strings.Repeat(`, ?`, len(names)-1) + `)`
		}
		var (
			id    int64
			batch string
		)
		err := tx.tx.QueryRowContext(ctx, q+` ORDER BY id DESC LIMIT 1`, args...).Scan(&id, &batch)
		if errors.Is(err, sql.ErrNoRows) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("list batches: %w", err)
		}
		names = append(names, batch)
		args[0] = id
		args = append(args, batch)
	}
	return names, nil
}

// effectPage is how many batches one effect query names.
const effectPage = 200

// batchEffects sets the Effect of each batch of bs: its rows counted by
// the change each made (audit.change_kind, written by writeAudit with
// engine.ClassifyChange), keep decisions apart. every says bs holds every
// batch, so one GROUP BY of the whole log serves them all.
func (tx *Tx) batchEffects(ctx context.Context, bs []engine.BatchInfo, every bool) error {
	idx := make(map[string]int, len(bs))
	for i, b := range bs {
		idx[b.Batch] = i
	}
	count := func(where string, args ...any) error {
		rows, err := tx.tx.QueryContext(ctx, `SELECT batch, change_kind, action, COUNT(*) FROM audit
			WHERE `+where+` GROUP BY batch, change_kind, action`, args...)
		if err != nil {
			return fmt.Errorf("list batches: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var batch, kind, action string
			var n int
			if err := rows.Scan(&batch, &kind, &action, &n); err != nil {
				return fmt.Errorf("list batches: %w", err)
			}
			i, ok := idx[batch]
			if !ok {
				continue
			}
			e := &bs[i].Effect
			switch {
			case kind != "":
				for range n {
					e.Add(kind)
				}
			case action == engine.ProposalKeep:
				e.Kept += n
			}
		}
		return rows.Err()
	}
	return forBatchPages(bs, every, "batch", count)
}

// forBatchPages calls fn with a condition on column that selects the
// batches of bs, a page of them at a time (every: all batches at once).
func forBatchPages(bs []engine.BatchInfo, every bool, column string, fn func(where string, args ...any) error) error {
	if every {
		return fn(column + ` <> ''`)
	}
	for from := 0; from < len(bs); from += effectPage {
		page := bs[from:min(from+effectPage, len(bs))]
		args := make([]any, len(page))
		for i, b := range page {
			args[i] = b.Batch
		}
		if err := fn(column+` IN (?`+strings.Repeat(`, ?`, len(page)-1)+`)`, args...); err != nil {
			return err
		}
	}
	return nil
}

// laterBatches lists, for each batch of bs, the other batches (or "",
// one-off changes) that changed one of its memories after it did, the
// earliest first — one query a page of batches.
func (tx *Tx) laterBatches(ctx context.Context, bs []engine.BatchInfo, every bool) (map[string][]string, error) {
	later := map[string][]string{}
	err := forBatchPages(bs, every, "a.batch", func(where string, args ...any) error {
		rows, err := tx.tx.QueryContext(ctx, `SELECT a.batch, l.batch, MIN(l.id) AS first_later FROM audit a
			JOIN audit l ON l.memory_id = a.memory_id AND l.id > a.id
			WHERE `+where+` AND l.batch <> a.batch
			GROUP BY a.batch, l.batch ORDER BY a.batch, first_later`, args...)
		if err != nil {
			return fmt.Errorf("list batches: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var batch, l string
			var first int64
			if err := rows.Scan(&batch, &l, &first); err != nil {
				return fmt.Errorf("list batches: %w", err)
			}
			later[batch] = append(later[batch], l)
		}
		return rows.Err()
	})
	return later, err
}

// blockedBy names a later change that still stands on a memory of the
// batch later lists the later batches of ("" when there is none): what
// makes a rollback of it refuse.
func (tx *Tx) blockedBy(ctx context.Context, later []string, undone map[string]bool) (string, error) {
	for _, l := range later {
		neutral, err := tx.rowUndone(ctx, l, undone)
		if err != nil {
			return "", fmt.Errorf("list batches: %w", err)
		}
		if neutral {
			continue
		}
		if l == "" {
			return "a later one-off change stands; roll it back or change it back first", nil
		}
		return "changed later by batch " + l + "; roll that back first", nil
	}
	return "", nil
}
