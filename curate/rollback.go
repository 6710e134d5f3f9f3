package curate

import (
	"context"
	"fmt"

	"memtrace/engine"
)

// RollbackReport is the `memtrace rollback --json` contract: Restored is
// the number of memories the rollback's audit rows show changed. Effect
// says how, by kind; Proposals counts the batch's proposals marked
// rolled_back; Repaired is set when the call only finished a rollback that
// an older memtrace left half done.
type RollbackReport struct {
	Batch     string             `json:"batch"`
	Restored  int                `json:"restored"`
	Effect    engine.BatchEffect `json:"effect"`
	Proposals int                `json:"proposals"`
	// Rejected counts the proposals a rejection batch had rejected that
	// are open again, each in the status it had before.
	Rejected int `json:"rejected,omitempty"`
	// Policy: the database's previous policy was restored (a policy batch).
	Policy   bool `json:"policy,omitempty"`
	Repaired bool `json:"repaired,omitempty"`
}

// RollbackOptions configure Rollback.
type RollbackOptions struct {
	Batch string
	Actor string // "" → curator
	// AfterRestore is called inside the transaction after the memories are
	// restored and before the proposals are marked (crash tests block in it).
	AfterRestore func()
}

// PlanRollback says what rolling back batch would do, writing nothing.
func PlanRollback(ctx context.Context, q engine.Queries, batch string) (*engine.RollbackPlan, error) {
	if batch == "" {
		return nil, engine.Errorf(engine.EINVALID, "which batch? list them with `memtrace batches` or in the Curate tab's history")
	}
	if kind, _, err := q.BatchKind(ctx, batch); err != nil {
		return nil, err
	} else if kind == BatchPolicy {
		return planPolicyRollback(ctx, q, batch)
	}
	if rec, err := readRejectionRecord(ctx, q, batch); err != nil {
		return nil, err
	} else if rec != nil && rec.RolledBack {
		// A rejection changes no memory: after its rollback only its
		// record knows it.
		kind, _, err := q.BatchKind(ctx, batch)
		if err != nil {
			return nil, err
		}
		return &engine.RollbackPlan{Batch: batch, Actor: rec.Actor, At: rec.At, RolledBack: true, Kind: kind}, nil
	}
	plan, err := q.PlanRollback(ctx, batch)
	if err != nil {
		return nil, err
	}
	return plan, withRejected(ctx, q, plan)
}

// withRejected adds to plan the proposals its batch rejected. A rejection
// batch has no audit rows, so the store's plan calls it rolled back (its
// applied proposals, none, are all rolled back) while it still has
// rejections to undo.
func withRejected(ctx context.Context, q engine.Queries, plan *engine.RollbackPlan) error {
	rej, err := rejectedIn(ctx, q, plan.Batch)
	if err != nil {
		return err
	}
	plan.Rejected = len(rej)
	if plan.Rejected > 0 && plan.Memories == 0 && plan.Proposals == 0 {
		plan.RolledBack = false
		if plan.Actor == "" || plan.At.IsZero() {
			plan.Actor, plan.At = rej[0].DecidedBy, rej[0].DecidedAt
		}
	}
	return nil
}

// RollbackApplied is Rollback of batch by actor.
func RollbackApplied(ctx context.Context, st engine.Store, batch, actor string) (*RollbackReport, error) {
	return Rollback(ctx, st, RollbackOptions{Batch: batch, Actor: actor})
}

// Rollback undoes a batch in ONE transaction: Queries.RollbackBatch
// restores every memory it changed (audited under "rollback:<batch>"), the
// batch's applied proposals move to rolled_back and the lessons of its
// promotions return to candidate. A kill at any point leaves all of it or
// none. A rollback that would change nothing is refused (ECONFLICT) and
// writes nothing.
//
// A database written by an older memtrace may hold a rollback that was
// interrupted between its two transactions (memories restored, proposals
// still applied); Rollback of that batch finishes it and says so
// (Repaired). The caller refreshes an engine's caches afterwards.
func Rollback(ctx context.Context, st engine.Store, o RollbackOptions) (*RollbackReport, error) {
	if o.Batch == "" {
		return nil, engine.Errorf(engine.EINVALID, "which batch? list them with `memtrace batches` or in the Curate tab's history")
	}
	if o.Actor == "" {
		o.Actor = engine.ProposerCurator
	}
	rep := &RollbackReport{Batch: o.Batch}
	err := st.Update(ctx, func(q engine.Queries) error {
		*rep = RollbackReport{Batch: o.Batch}
		plan, err := PlanRollback(ctx, q, o.Batch)
		if err != nil {
			return err
		}
		if plan.Kind == BatchPolicy {
			rep.Policy = true
			return rollbackPolicy(ctx, q, o.Batch, o.Actor)
		}
		if plan.Rejected > 0 && plan.Memories == 0 && plan.Proposals == 0 {
			// A rejection: no memory changed, the proposals reopen.
			rej, err := rejectedIn(ctx, q, o.Batch)
			if err != nil {
				return err
			}
			rep.Rejected = len(rej)
			if err := unreject(ctx, q, rej); err != nil {
				return err
			}
			_, err = markRejectionRolledBack(ctx, q, o.Batch, o.Actor)
			return err
		}
		props, err := q.FindProposals(ctx, engine.ProposalFilter{Batch: o.Batch, Status: engine.ProposalApplied})
		if err != nil {
			return err
		}
		if plan.RolledBack {
			if len(props) == 0 {
				return engine.Errorf(engine.ECONFLICT, "batch %s was already rolled back; nothing changed", o.Batch)
			}
			rep.Repaired = true
		} else {
			rep.Effect = plan.Effect
			if rep.Restored, err = q.RollbackBatch(ctx, o.Batch, o.Actor); err != nil {
				return err
			}
		}
		if o.AfterRestore != nil {
			o.AfterRestore()
		}
		rep.Proposals = len(props)
		if err := markRolledBack(ctx, q, props); err != nil {
			return fmt.Errorf("mark the proposals of batch %s rolled back: %w", o.Batch, err)
		}
		if err := reviveWithdrawn(ctx, q, o.Batch); err != nil {
			return fmt.Errorf("revive the proposals batch %s withdrew: %w", o.Batch, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}
