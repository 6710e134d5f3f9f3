package curate

import (
	"context"
	"time"

	"memtrace/engine"
)

// ProposalWithdrawn is the status of a proposal an apply made moot (see
// withdrawMoot); rolling the apply's batch back reopens it.
const ProposalWithdrawn = engine.ProposalWithdrawn

// ActionWithdraw is the audit action of a withdrawal: a row on the
// memory, before = after, under the approval's batch.
const ActionWithdraw = "withdraw"

// withdrawMoot withdraws the open proposals on applied's memory that
// conflict with it (ProposalsConflict) and are not part of this apply
// (keep): each gets status withdrawn, the batch, the proposal that made it
// moot (WithdrawnBy), the status it had (PriorStatus), and an audit row on
// the memory. Its reason stays the proposer's. It returns the ids it
// withdrew.
func withdrawMoot(ctx context.Context, q engine.Queries, applied *engine.Proposal, keep map[int64]bool, a engine.Actor, now time.Time) ([]int64, error) {
	if applied.MemoryID == 0 {
		return nil, nil
	}
	others, err := q.FindProposals(ctx, engine.ProposalFilter{MemoryID: applied.MemoryID})
	if err != nil {
		return nil, err
	}
	var withdrawn []int64
	var m *engine.Memory
	for _, o := range others {
		open := o.Status == engine.ProposalPending || o.Status == engine.ProposalReview || o.Status == engine.ProposalApproved
		if o.ID == applied.ID || keep[o.ID] || !open || o.MemoryID != applied.MemoryID || !ProposalsConflict(o.Kind, applied.Kind) {
			continue
		}
		if o.Status != engine.ProposalApproved {
			o.DecidedBy, o.DecidedAt = a.Name, now // an approval keeps its decider
		}
		o.PriorStatus, o.Status, o.WithdrawnBy, o.Batch = o.Status, ProposalWithdrawn, applied.ID, a.Batch
		if err := q.UpdateProposal(ctx, o); err != nil {
			return nil, err
		}
		if m == nil {
			if m, err = q.GetMemory(ctx, applied.MemoryID); err != nil {
				return nil, err
			}
		}
		if err := q.UpdateMemory(ctx, m, a, ActionWithdraw); err != nil {
			return nil, err
		}
		withdrawn = append(withdrawn, o.ID)
	}
	return withdrawn, nil
}

// reviveWithdrawn returns the proposals batch withdrew to the status they
// had (pending for one withdrawn before memtrace kept it): its rollback
// undid what made them moot.
func reviveWithdrawn(ctx context.Context, q engine.Queries, batch string) error {
	ps, err := q.FindProposals(ctx, engine.ProposalFilter{Batch: batch, Status: ProposalWithdrawn})
	if err != nil {
		return err
	}
	for _, p := range ps {
		prior := p.PriorStatus
		if prior == "" {
			prior = engine.ProposalPending
		}
		p.Status, p.PriorStatus, p.WithdrawnBy, p.Batch = prior, "", 0, ""
		if prior == engine.ProposalPending || prior == engine.ProposalReview {
			p.DecidedBy, p.DecidedAt = "", time.Time{}
		}
		if err := q.UpdateProposal(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// ProposalsConflict reports whether open proposals of kinds a and b on the
// same memory fight each other (see tiers.HeartbeatHelp).
func ProposalsConflict(a, b string) bool {
	if a == b || a == engine.ProposalQuarantine || b == engine.ProposalQuarantine {
		return true
	}
	move := func(k string) bool { return k == engine.ProposalDemote || k == engine.ProposalArchive }
	change := func(k string) bool {
		return k == engine.ProposalPromote || k == engine.ProposalRetype || k == engine.ProposalRestore
	}
	switch {
	case move(a) && (move(b) || change(b)), move(b) && change(a):
		return true
	case (a == engine.ProposalRetype && (b == engine.ProposalKeep || b == engine.ProposalRestore)) || (b == engine.ProposalRetype && (a == engine.ProposalKeep || a == engine.ProposalRestore)):
		return true
	}
	return false
}
