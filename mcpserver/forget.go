package mcpserver

import (
	"context"
	"fmt"

	"memtrace/engine"
)

// ActionQuarantine is the audit action of a memory forgotten through MCP.
const ActionQuarantine = "quarantine"

// Forget quarantines the memory with this id (or, when id is 0, this key)
// in one transaction: the status becomes quarantined, the original type is
// kept in orig_type, an audit row records the row before and after under
// actor "mcp" and a new batch, and an applied quarantine proposal carries
// the reason (so the Curate tab lists it and `rollback BATCH` restores it).
// Nothing is deleted. Forgetting a quarantined memory changes nothing.
func Forget(ctx context.Context, e *engine.Engine, id int64, key, reason string) (ForgetOut, error) {
	var out ForgetOut
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
			return engine.Errorf(engine.ENOTFOUND, "no memory with %s: memory_recall lists the ids and keys of recalled memories", name)
		} else if err != nil {
			return err
		}
		out = ForgetOut{ID: m.ID, Key: m.Key, Content: m.Content, Status: string(engine.StatusQuarantined)}
		if m.Status == engine.StatusQuarantined {
			return nil
		}
		batch, err := q.NextBatchID(ctx, engine.BatchForget)
		if err != nil {
			return err
		}
		if m.OrigType == "" {
			m.OrigType = m.Type
		}
		m.Status = engine.StatusQuarantined
		a := engine.Actor{Name: Actor, Batch: batch}
		if err := q.UpdateMemory(ctx, m, a, ActionQuarantine); err != nil {
			return fmt.Errorf("quarantine memory %d: %w", m.ID, err)
		}
		p := &engine.Proposal{
			Kind: engine.ProposalQuarantine, MemoryID: m.ID, Proposer: Actor, Reason: reason,
			Confidence: 1, Status: engine.ProposalApplied, DecidedBy: Actor, DecidedAt: now,
			Batch: batch, CreatedAt: now,
		}
		if err := q.InsertProposal(ctx, p); err != nil {
			return fmt.Errorf("record the reason: %w", err)
		}
		out.Changed, out.Batch = true, batch
		return nil
	})
	return out, err
}
