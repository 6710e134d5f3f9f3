package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"memtrace/engine"
	"memtrace/internal/wording"
)

// rollbackWork is a computed rollback: per memory the batch touched, the
// state it returns to.
type rollbackWork struct {
	plan  *engine.RollbackPlan
	order []int64 // memories in the order the batch first touched them
	// restored and current, by memory id.
	restored, current map[int64]*engine.Memory
	rows              []*storedAudit
}

// planRollback computes the rollback of batch. It refuses a batch that is
// not in the audit log; a batch that was rolled back or is blocked by a
// later change gets a plan that says so (RolledBack, Blocked).
//
// A later change blocks when it still stands: a later batch that was itself
// rolled back, together with its "rollback:" rows, changed nothing, so undo
// works as a stack.
func (tx *Tx) planRollback(ctx context.Context, batch string) (*rollbackWork, error) {
	if batch == "" {
		return nil, engine.Errorf(engine.EINVALID, "batch id is empty; list batches with `memtrace batches`")
	}
	rows, err := tx.queryAudit(ctx, `WHERE batch = ? ORDER BY id`, batch)
	if err != nil {
		return nil, err
	}
	all, err := tx.FindProposals(ctx, engine.ProposalFilter{Batch: batch})
	if err != nil {
		return nil, err
	}
	var props []*engine.Proposal
	for _, p := range all {
		if p.Status == engine.ProposalApplied {
			props = append(props, p)
		}
	}
	if len(rows) == 0 && len(all) == 0 {
		return nil, engine.Errorf(engine.ENOTFOUND, "batch %s not found in the audit log; list batches with `memtrace batches`", batch)
	}
	kind, _, err := tx.BatchKind(ctx, batch)
	if err != nil {
		return nil, err
	}
	if kind == engine.BatchErase {
		return nil, engine.Errorf(engine.ECONFLICT, "batch %s is an erasure: it cannot be rolled back, the text it removed is gone (its tombstones are in `memtrace show`)", batch)
	}
	w := &rollbackWork{
		plan:     &engine.RollbackPlan{Batch: batch, Kind: kind, Proposals: len(props)},
		restored: map[int64]*engine.Memory{}, current: map[int64]*engine.Memory{},
		rows: rows,
	}
	if len(rows) > 0 {
		w.plan.Actor, w.plan.At = rows[0].Actor, rows[0].At
	} else {
		w.plan.Actor, w.plan.At = all[0].DecidedBy, all[0].DecidedAt
		w.plan.RolledBack = len(props) == 0 // its decisions were rolled back
	}
	for _, p := range props {
		if p.Kind == engine.ProposalKeep {
			w.plan.Effect.Kept++
		}
	}
	if len(rows) > 0 {
		if err := tx.tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM audit WHERE batch = ?)`, "rollback:"+batch).Scan(&w.plan.RolledBack); err != nil {
			return nil, fmt.Errorf("rollback %s: %w", batch, err)
		}
	}
	if w.plan.RolledBack {
		return w, nil
	}

	// Per memory: its first row (the state before) and its last row (the
	// state the batch left).
	type span struct{ first, last *storedAudit }
	spans := map[int64]*span{}
	for _, r := range rows {
		if s, ok := spans[r.MemoryID]; ok {
			s.last = r
			continue
		}
		spans[r.MemoryID] = &span{first: r, last: r}
		w.order = append(w.order, r.MemoryID)
	}
	w.plan.Memories = len(w.order)
	undone := map[string]bool{}
	for _, id := range w.order {
		c, err := tx.laterChange(ctx, id, spans[id].last.ID, undone)
		if err != nil {
			return nil, fmt.Errorf("rollback %s: %w", batch, err)
		}
		if c != "" {
			w.plan.Blocked = append(w.plan.Blocked, fmt.Sprintf("memory %d (%s)", id, c))
		}
	}
	if len(w.plan.Blocked) > 0 {
		return w, nil
	}
	for _, id := range w.order {
		s := spans[id]
		current, err := tx.GetMemory(ctx, id)
		if err != nil {
			return nil, err
		}
		restored := restoredState(s.first, s.last, rows, current)
		w.current[id], w.restored[id] = current, restored
		if k := engine.ClassifyChange(current, restored); k != "" {
			w.plan.Effect.Add(k)
		} else {
			w.plan.Unchanged++
		}
	}
	return w, nil
}

// PlanRollback computes what RollbackBatch would do, writing nothing.
func (tx *Tx) PlanRollback(ctx context.Context, batch string) (*engine.RollbackPlan, error) {
	w, err := tx.planRollback(ctx, batch)
	if err != nil {
		return nil, err
	}
	return w.plan, nil
}

// RollbackBatch restores every memory the batch changed to its state before
// the batch, audited under "rollback:<batch>", and returns how many memories
// the rollback's own audit rows show changed. It refuses when the batch was
// already rolled back, when a memory was changed after the batch by anything
// that still stands, and when the rollback would change nothing.
//
// A memory the batch created had no state before it; since nothing is
// hard-deleted, it is quarantined instead (orig_type keeps its type).
// Access statistics (last access, count, boost) that recalls changed after
// the batch are telemetry, not curated content, and are kept as they are.
func (tx *Tx) RollbackBatch(ctx context.Context, batch, actor string) (int, error) {
	if actor == "" {
		actor = "rollback"
	}
	w, err := tx.planRollback(ctx, batch)
	if err != nil {
		return 0, err
	}
	p := w.plan
	switch {
	case p.RolledBack:
		return 0, engine.Errorf(engine.ECONFLICT, "batch %s was already rolled back; nothing changed", batch)
	case len(p.Blocked) > 0:
		return 0, engine.Errorf(engine.ECONFLICT, "cannot roll back batch %s: changed after it: %s; roll those changes back first",
			batch, strings.Join(p.Blocked, ", "))
	case len(w.order) == 0:
		return 0, nil // proposals only (keep decisions): the caller marks them
	case p.Effect.Changed() == 0 && p.Proposals == 0:
		return 0, engine.Errorf(engine.ECONFLICT, "rolling back batch %s would change nothing: what it did to %s is already undone",
			batch, wording.Memories(p.Memories))
	}
	a := engine.Actor{Name: actor, Batch: "rollback:" + batch}
	if err := tx.recordBatch(ctx, a.Batch, engine.BatchRollback, batch); err != nil {
		return 0, err
	}
	for i := len(w.order) - 1; i >= 0; i-- {
		id := w.order[i]
		current, restored := w.current[id], w.restored[id]
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
	// What the audit proves: the rollback's rows, read back, that changed
	// their memory.
	done, err := tx.queryAudit(ctx, `WHERE batch = ? ORDER BY id`, a.Batch)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range done {
		if engine.ClassifyChange(r.Before, r.After) != "" {
			n++
		}
	}
	return n, nil
}

// restoredState computes what a memory returns to: its state before the
// first row of the batch, with the embedding it had then.
func restoredState(first, last *storedAudit, batchRows []*storedAudit, current *engine.Memory) *engine.Memory {
	if first.Before == nil {
		m := *current
		m.Quarantine()
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
	_, rolled, err := tx.BatchKind(ctx, batch)
	if err != nil || rolled == "" {
		return false, err
	}
	return tx.batchUndone(ctx, rolled, undone)
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

// NextBatchID hands out a batch id from the database's batch counter, which
// only grows, so ids never repeat even when the clock is pinned.
func (tx *Tx) NextBatchID(ctx context.Context, kind string) (string, error) {
	if kind == "" {
		kind = "batch"
	}
	const upsert = `INSERT INTO counters (name, value) VALUES ('batch', 1)
		ON CONFLICT (name) DO UPDATE SET value = counters.value + 1 RETURNING value`
	var n int64
	if p := tx.tx.pipe; p != nil && !tx.batchLoaded {
		if err := p.flush(ctx); err != nil { // the opening's read of the counter
			return "", err
		}
	}
	if p := tx.tx.pipe; p != nil && tx.batchLoaded {
		// The counter as the transaction's opening read it, which no one
		// else can move before the commit (pgpipe.go): the upsert goes with
		// the next statement, and checks the value.
		tx.batchCount++
		n = tx.batchCount
		query := upsert
		if tx.batchRow {
			// The row is there (the opening read it, or an earlier batch of
			// this transaction made it): a plain update, cheaper under the
			// lock than the upsert's speculative insertion; the same row.
			query = `UPDATE counters SET value = value + 1 WHERE name = 'batch' RETURNING value`
		}
		tx.batchRow = true
		p.queue(query, nil, func(rows pgx.Rows) error {
			var got int64
			if !rows.Next() {
				return errors.New("no row")
			}
			if err := rows.Scan(&got); err != nil {
				return err
			}
			if got != n {
				return fmt.Errorf("the batch counter is %d, not %d as read under the lock", got, n)
			}
			return nil
		}, func(err error) error { return fmt.Errorf("batch id: %w", err) })
	} else if err := tx.tx.QueryRowContext(ctx, upsert).Scan(&n); err != nil {
		return "", fmt.Errorf("batch id: %w", err)
	}
	id := engine.FormatBatchID(kind, tx.now(), n)
	if err := tx.recordBatch(ctx, id, kind, ""); err != nil {
		return "", err
	}
	return id, nil
}

// recordBatch records the kind of a batch id the store issues and, for a
// rollback, the batch it undoes (the batches table).
func (tx *Tx) recordBatch(ctx context.Context, batch, kind, rollbackOf string) error {
	const insert = `INSERT INTO batches (batch, kind, rollback_of) VALUES (?, ?, ?)
		ON CONFLICT (batch) DO NOTHING`
	if p := tx.tx.pipe; p != nil {
		p.exec(insert, []any{batch, kind, rollbackOf}, func(err error) error { return fmt.Errorf("record batch %s: %w", batch, err) }, nil)
		return nil
	}
	if _, err := tx.tx.ExecContext(ctx, insert, batch, kind, rollbackOf); err != nil {
		return fmt.Errorf("record batch %s: %w", batch, err)
	}
	return nil
}

// BatchKind returns the kind the store recorded for batch and, for a
// rollback, the batch it undid; "" for an id it did not issue.
func (tx *Tx) BatchKind(ctx context.Context, batch string) (kind, rollbackOf string, err error) {
	err = tx.tx.QueryRowContext(ctx, `SELECT kind, rollback_of FROM batches WHERE batch = ?`, batch).Scan(&kind, &rollbackOf)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", nil
	} else if err != nil {
		return "", "", fmt.Errorf("batch %s: %w", batch, err)
	}
	return kind, rollbackOf, nil
}
