package curate

import (
	"context"
	"fmt"
	"math"

	"memtrace/engine"
)

// A curator's direct actions on memories — the Memories tab's quarantine,
// restore and importance keys, and memory_forget over MCP. Each is one
// transaction of the engine: every memory it changes gets an audit row
// under the actor and one new batch, so `rollback BATCH` (and the TUI's
// undo) takes it back; a memory it would not change is left alone and,
// when none changes, nothing is written and no batch is taken.

// Audit actions of the direct actions.
const (
	ActionQuarantine = "quarantine"
	ActionRestore    = "restore"
	ActionImportance = "importance"
)

// Changed is what a direct action did: how many of the memories it
// changed, and the batch it wrote them under ("" when none changed).
type Changed struct {
	Count int
	Batch string
}

// Quarantine quarantines the memories ids (engine.Memory.Quarantine) as
// actor a; a.Batch empty takes a new curator batch.
func Quarantine(ctx context.Context, e *engine.Engine, ids []int64, a engine.Actor) (Changed, error) {
	return change(ctx, e, ids, a, ActionQuarantine, (*engine.Memory).Quarantine)
}

// Restore makes the memories ids active again.
func Restore(ctx context.Context, e *engine.Engine, ids []int64, a engine.Actor) (Changed, error) {
	return change(ctx, e, ids, a, ActionRestore, (*engine.Memory).Restore)
}

// AdjustImportance moves the importance of the memories ids by delta,
// rounded to hundredths and held within 0..1.
func AdjustImportance(ctx context.Context, e *engine.Engine, ids []int64, delta float64, a engine.Actor) (Changed, error) {
	return change(ctx, e, ids, a, ActionImportance, func(m *engine.Memory) bool {
		v := math.Max(0, math.Min(1, math.Round((m.Importance+delta)*100)/100))
		if v == m.Importance {
			return false
		}
		m.Importance = v
		return true
	})
}

// change runs fn on each memory of ids in one transaction; fn reports
// whether it changed the memory.
func change(ctx context.Context, e *engine.Engine, ids []int64, a engine.Actor, action string, fn func(m *engine.Memory) bool) (Changed, error) {
	var out Changed
	err := e.Update(ctx, func(q engine.Queries) error {
		out = Changed{}
		batch := a.Batch
		for _, id := range ids {
			m, err := q.GetMemory(ctx, id)
			if err != nil {
				return err
			}
			if !fn(m) {
				continue
			}
			// One action, one batch: its id comes from the database's
			// counter, so it is unique across processes and clocks.
			if batch == "" {
				if batch, err = q.NextBatchID(ctx, engine.BatchCurator); err != nil {
					return err
				}
			}
			if err := q.UpdateMemory(ctx, m, engine.Actor{Name: a.Name, Batch: batch}, action); err != nil {
				return err
			}
			out.Count++
		}
		if out.Count > 0 {
			out.Batch = batch
		}
		return nil
	})
	if err != nil {
		return Changed{}, err
	}
	return out, nil
}

// Forgotten is what Forget did to one memory.
type Forgotten struct {
	Memory  engine.Memory // as it is now
	Changed bool          // false: it was quarantined already
	Batch   string
}

// Forget quarantines the memory with this id (or, when id is 0, this key)
// in one transaction, as actor: the memory is quarantined
// (engine.Memory.Quarantine), an audit row records it under a new forget
// batch, and an applied quarantine proposal carries the reason, so the
// Curate tab lists it and `rollback BATCH` restores it. Nothing is
// deleted; forgetting a quarantined memory changes nothing. A memory that
// does not exist is ENOTFOUND, naming the id or key.
func Forget(ctx context.Context, e *engine.Engine, id int64, key, reason, actor string) (Forgotten, error) {
	var out Forgotten
	now := e.Now()
	err := e.Update(ctx, func(q engine.Queries) error {
		var m *engine.Memory
		var err error
		if id != 0 {
			m, err = q.GetMemory(ctx, id)
		} else {
			m, err = q.GetMemoryByKey(ctx, key)
		}
		if engine.ErrorCode(err) == engine.ENOTFOUND {
			name := fmt.Sprintf("id %d", id)
			if id == 0 {
				name = fmt.Sprintf("key %q", key)
			}
			return engine.Errorf(engine.ENOTFOUND, "no memory with %s", name)
		} else if err != nil {
			return err
		}
		if !m.Quarantine() {
			out = Forgotten{Memory: *m}
			return nil
		}
		batch, err := q.NextBatchID(ctx, engine.BatchForget)
		if err != nil {
			return err
		}
		a := engine.Actor{Name: actor, Batch: batch}
		if err := q.UpdateMemory(ctx, m, a, ActionQuarantine); err != nil {
			return fmt.Errorf("quarantine memory %d: %w", m.ID, err)
		}
		p := &engine.Proposal{
			Kind: engine.ProposalQuarantine, MemoryID: m.ID, Proposer: actor, Reason: reason,
			Confidence: 1, Status: engine.ProposalApplied, DecidedBy: actor, DecidedAt: now,
			Batch: batch, CreatedAt: now,
		}
		if err := q.InsertProposal(ctx, p); err != nil {
			return fmt.Errorf("record the reason: %w", err)
		}
		out = Forgotten{Memory: *m, Changed: true, Batch: batch}
		return nil
	})
	return out, err
}
