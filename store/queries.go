package store

import (
	"context"
	"fmt"
	"time"

	"memtrace/engine"
)

// The methods below run one Tx method each in a transaction of its own:
// reads on the reader pool, writes on the writer.

// GetMemory returns the memory with id, or ENOTFOUND.
func (db *DB) GetMemory(ctx context.Context, id int64) (*engine.Memory, error) {
	return readValue(ctx, db, func(tx *Tx) (*engine.Memory, error) { return tx.GetMemory(ctx, id) })
}

// GetMemoryByKey returns the memory with an external key, or ENOTFOUND.
func (db *DB) GetMemoryByKey(ctx context.Context, key string) (*engine.Memory, error) {
	return readValue(ctx, db, func(tx *Tx) (*engine.Memory, error) { return tx.GetMemoryByKey(ctx, key) })
}

// FindMemories returns the memories matching f in id order, and the total.
func (db *DB) FindMemories(ctx context.Context, f engine.MemoryFilter) ([]*engine.Memory, int, error) {
	if db.pg {
		ms, total, err := db.findMemoriesPG(ctx, f)
		return ms, total, txError(db.path, "", err)
	}
	var ms []*engine.Memory
	var total int
	err := db.read(ctx, func(tx *Tx) error {
		var err error
		ms, total, err = tx.FindMemories(ctx, f)
		return err
	})
	return ms, total, err
}

// InsertMemory writes a new memory and its "create" audit row.
func (db *DB) InsertMemory(ctx context.Context, m *engine.Memory, a engine.Actor) error {
	return db.write(ctx, func(tx *Tx) error { return tx.InsertMemory(ctx, m, a) })
}

// InsertMemoryAt is Tx.InsertMemoryAt in a transaction of its own.
func (db *DB) InsertMemoryAt(ctx context.Context, m *engine.Memory, a engine.Actor) error {
	return db.write(ctx, func(tx *Tx) error { return tx.InsertMemoryAt(ctx, m, a) })
}

// UpdateMemory overwrites a memory and audits it before and after.
func (db *DB) UpdateMemory(ctx context.Context, m *engine.Memory, a engine.Actor, action string) error {
	return db.write(ctx, func(tx *Tx) error { return tx.UpdateMemory(ctx, m, a, action) })
}

// RecordAccess notes a recall of the memory (not audited).
func (db *DB) RecordAccess(ctx context.Context, id int64, at time.Time) error {
	return db.write(ctx, func(tx *Tx) error { return tx.RecordAccess(ctx, id, at) })
}

// SetBoost sets a memory's association boost (not audited).
func (db *DB) SetBoost(ctx context.Context, id int64, boost float64, at time.Time) error {
	return db.write(ctx, func(tx *Tx) error { return tx.SetBoost(ctx, id, boost, at) })
}

// MemoriesChangedSince returns memories written after seq and the highest seq.
//
// On PostgreSQL it is one statement outside a transaction: a statement
// reads one snapshot of its own, and BEGIN … COMMIT around it would cost
// two more round trips on the path every change notification takes
// (Listen), which a loaded machine pays in scheduling delay per trip.
func (db *DB) MemoriesChangedSince(ctx context.Context, seq int64) ([]*engine.Memory, int64, error) {
	if db.pg {
		ms, highest, err := memoriesChangedSince(ctx, db.reader, true, seq)
		return ms, highest, txError(db.path, "", err)
	}
	var ms []*engine.Memory
	highest := seq
	err := db.read(ctx, func(tx *Tx) error {
		var err error
		ms, highest, err = tx.MemoriesChangedSince(ctx, seq)
		return err
	})
	return ms, highest, err
}

// ForEachMemory streams every memory (any status) in id order, from one
// consistent snapshot.
func (db *DB) ForEachMemory(ctx context.Context, fn func(*engine.Memory) error) error {
	if db.pg {
		return db.read(ctx, func(tx *Tx) error {
			rows, err := tx.tx.QueryContext(ctx, `SELECT `+memoryColumns+` FROM memories ORDER BY id`)
			if err != nil {
				return fmt.Errorf("load memories: %w", err)
			}
			defer rows.Close()
			for rows.Next() {
				m, err := scanMemory(rows)
				if err != nil {
					return fmt.Errorf("load memories: %w", err)
				}
				if err := fn(m); err != nil {
					return err
				}
			}
			return rows.Err()
		})
	}
	return db.forEachMemoryRaw(ctx, fn)
}

// InsertCapture logs one offered message.
func (db *DB) InsertCapture(ctx context.Context, c *engine.CaptureRecord) error {
	return db.write(ctx, func(tx *Tx) error { return tx.InsertCapture(ctx, c) })
}

// FindCaptures returns the captures matching f in id order, and the total.
func (db *DB) FindCaptures(ctx context.Context, f engine.CaptureFilter) ([]*engine.CaptureRecord, int, error) {
	var cs []*engine.CaptureRecord
	var total int
	err := db.read(ctx, func(tx *Tx) error {
		var err error
		cs, total, err = tx.FindCaptures(ctx, f)
		return err
	})
	return cs, total, err
}

// CaptureReasonCounts counts dropped captures by layer and reason.
func (db *DB) CaptureReasonCounts(ctx context.Context) ([]engine.ReasonCount, error) {
	return readValue(ctx, db, func(tx *Tx) ([]engine.ReasonCount, error) { return tx.CaptureReasonCounts(ctx) })
}

// CaptureExists reports whether a message id was already offered.
//
// On PostgreSQL it is one statement outside a transaction, as
// MemoriesChangedSince: the check every capture of one message makes
// before it decides, one round trip instead of three.
func (db *DB) CaptureExists(ctx context.Context, messageID string) (bool, error) {
	if db.pg {
		if messageID == "" {
			return false, nil
		}
		var ok bool
		if err := db.reader.QueryRowContext(ctx, pgQuery(captureExistsSQL), messageID).Scan(&ok); err != nil {
			return false, txError(db.path, "", fmt.Errorf("capture exists: %w", err))
		}
		return ok, nil
	}
	return readValue(ctx, db, func(tx *Tx) (bool, error) { return tx.CaptureExists(ctx, messageID) })
}

// CapturesExist returns which of the message ids were already offered.
func (db *DB) CapturesExist(ctx context.Context, messageIDs []string) (map[string]bool, error) {
	return readValue(ctx, db, func(tx *Tx) (map[string]bool, error) { return tx.CapturesExist(ctx, messageIDs) })
}

// GetCorrection returns a lesson by key, or ENOTFOUND.
func (db *DB) GetCorrection(ctx context.Context, lessonKey string) (*engine.Correction, error) {
	return readValue(ctx, db, func(tx *Tx) (*engine.Correction, error) { return tx.GetCorrection(ctx, lessonKey) })
}

// SaveCorrection inserts or updates a lesson by key.
func (db *DB) SaveCorrection(ctx context.Context, c *engine.Correction) error {
	return db.write(ctx, func(tx *Tx) error { return tx.SaveCorrection(ctx, c) })
}

// FindCorrections returns the lessons with a status ("" for all).
func (db *DB) FindCorrections(ctx context.Context, status string) ([]*engine.Correction, error) {
	return readValue(ctx, db, func(tx *Tx) ([]*engine.Correction, error) { return tx.FindCorrections(ctx, status) })
}

// GetLesson returns a lesson's head (no occurrences) by key, or ENOTFOUND.
func (db *DB) GetLesson(ctx context.Context, lessonKey string) (*engine.Correction, error) {
	return readValue(ctx, db, func(tx *Tx) (*engine.Correction, error) { return tx.GetLesson(ctx, lessonKey) })
}

// LessonHeads returns every lesson's head in id order.
func (db *DB) LessonHeads(ctx context.Context) ([]*engine.Correction, error) {
	return readValue(ctx, db, func(tx *Tx) ([]*engine.Correction, error) { return tx.LessonHeads(ctx) })
}

// FindSightings returns a lesson's sightings of one message or session.
func (db *DB) FindSightings(ctx context.Context, correctionID int64, messageID, session string) ([]engine.Occurrence, error) {
	return readValue(ctx, db, func(tx *Tx) ([]engine.Occurrence, error) {
		return tx.FindSightings(ctx, correctionID, messageID, session)
	})
}

// AddSighting records one sighting of a lesson.
func (db *DB) AddSighting(ctx context.Context, correctionID int64, o engine.Occurrence) (bool, error) {
	var added bool
	err := db.write(ctx, func(tx *Tx) error {
		var err error
		added, err = tx.AddSighting(ctx, correctionID, o)
		return err
	})
	return added, err
}

// InsertProposal stores a new proposal.
func (db *DB) InsertProposal(ctx context.Context, p *engine.Proposal) error {
	return db.write(ctx, func(tx *Tx) error { return tx.InsertProposal(ctx, p) })
}

// UpdateProposal overwrites a proposal.
func (db *DB) UpdateProposal(ctx context.Context, p *engine.Proposal) error {
	return db.write(ctx, func(tx *Tx) error { return tx.UpdateProposal(ctx, p) })
}

// GetProposal returns a proposal, or ENOTFOUND.
func (db *DB) GetProposal(ctx context.Context, id int64) (*engine.Proposal, error) {
	return readValue(ctx, db, func(tx *Tx) (*engine.Proposal, error) { return tx.GetProposal(ctx, id) })
}

// FindProposals returns the proposals matching f in id order.
func (db *DB) FindProposals(ctx context.Context, f engine.ProposalFilter) ([]*engine.Proposal, error) {
	return readValue(ctx, db, func(tx *Tx) ([]*engine.Proposal, error) { return tx.FindProposals(ctx, f) })
}

// AuditForMemory returns a memory's audit history, oldest first.
func (db *DB) AuditForMemory(ctx context.Context, memoryID int64) ([]*engine.AuditEntry, error) {
	return readValue(ctx, db, func(tx *Tx) ([]*engine.AuditEntry, error) { return tx.AuditForMemory(ctx, memoryID) })
}

// AuditForBatch returns a batch's audit rows, oldest first.
func (db *DB) AuditForBatch(ctx context.Context, batch string) ([]*engine.AuditEntry, error) {
	return readValue(ctx, db, func(tx *Tx) ([]*engine.AuditEntry, error) { return tx.AuditForBatch(ctx, batch) })
}

// FindAudit returns the audit rows f selects, oldest first.
func (db *DB) FindAudit(ctx context.Context, f engine.AuditFilter) ([]*engine.AuditEntry, error) {
	return readValue(ctx, db, func(tx *Tx) ([]*engine.AuditEntry, error) { return tx.FindAudit(ctx, f) })
}

// Batches lists audited batches, newest first.
func (db *DB) Batches(ctx context.Context, limit int) ([]engine.BatchInfo, error) {
	return readValue(ctx, db, func(tx *Tx) ([]engine.BatchInfo, error) { return tx.Batches(ctx, limit) })
}

// RollbackBatch restores every memory the batch changed, in one transaction
// audited under "rollback:<batch>", and returns how many it restored.
func (db *DB) RollbackBatch(ctx context.Context, batch string, actor string) (int, error) {
	return writeValue(ctx, db, func(tx *Tx) (int, error) { return tx.RollbackBatch(ctx, batch, actor) })
}

// PlanRollback computes what RollbackBatch would do, writing nothing.
func (db *DB) PlanRollback(ctx context.Context, batch string) (*engine.RollbackPlan, error) {
	return readValue(ctx, db, func(tx *Tx) (*engine.RollbackPlan, error) { return tx.PlanRollback(ctx, batch) })
}

// BatchKind returns the kind of batch (Tx.BatchKind).
func (db *DB) BatchKind(ctx context.Context, batch string) (string, string, error) {
	var kind, of string
	err := db.read(ctx, func(tx *Tx) error {
		var err error
		kind, of, err = tx.BatchKind(ctx, batch)
		return err
	})
	return kind, of, err
}

// NextBatchID hands out a batch id in a transaction of its own.
func (db *DB) NextBatchID(ctx context.Context, kind string) (string, error) {
	return writeValue(ctx, db, func(tx *Tx) (string, error) { return tx.NextBatchID(ctx, kind) })
}

// SaveTrace stores a trace and keeps only the newest keep.
func (db *DB) SaveTrace(ctx context.Context, t *engine.StoredTrace, keep int) error {
	return db.write(ctx, func(tx *Tx) error { return tx.SaveTrace(ctx, t, keep) })
}

// FindTraces returns stored traces, newest first.
func (db *DB) FindTraces(ctx context.Context, limit int) ([]*engine.StoredTrace, error) {
	return readValue(ctx, db, func(tx *Tx) ([]*engine.StoredTrace, error) { return tx.FindTraces(ctx, limit) })
}

// GetSetting returns a setting, or "" when unset.
func (db *DB) GetSetting(ctx context.Context, key string) (string, error) {
	return readValue(ctx, db, func(tx *Tx) (string, error) { return tx.GetSetting(ctx, key) })
}

// SetSetting stores a setting.
func (db *DB) SetSetting(ctx context.Context, key, value string) error {
	if err := db.write(ctx, func(tx *Tx) error { return tx.SetSetting(ctx, key, value) }); err != nil {
		return err
	}
	if key == engine.SettingClock {
		db.pin(value)
	}
	return nil
}
