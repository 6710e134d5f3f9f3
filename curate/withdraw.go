package curate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"memtrace/engine"
)

// ProposalWithdrawn is the status of a proposal an approval made moot (see
// withdrawMoot); rolling the approval's batch back makes it pending again.
const ProposalWithdrawn = "withdrawn"

// ActionWithdraw is the audit action of a withdrawal: a row on the
// memory, before = after, under the approval's batch.
const ActionWithdraw = "withdraw"

// withdrawMoot withdraws the open proposals on applied's memory that
// conflict with it (ProposalsConflict) and are not part of this approval
// (keep): each gets status withdrawn, the batch, a reason naming the
// proposal that made it moot, and an audit row on the memory. It returns
// the ids it withdrew.
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
		o.Status, o.DecidedBy, o.DecidedAt, o.Batch = ProposalWithdrawn, a.Name, now, a.Batch
		o.Reason = strings.TrimSpace(fmt.Sprintf("%s; withdrawn: moot after proposal %d (%s) was applied in batch %s", o.Reason, applied.ID, applied.Kind, a.Batch))
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

// reviveWithdrawn makes the proposals batch withdrew pending again (its
// rollback undid what made them moot).
func reviveWithdrawn(ctx context.Context, q engine.Queries, batch string) error {
	ps, err := q.FindProposals(ctx, engine.ProposalFilter{Batch: batch, Status: ProposalWithdrawn})
	if err != nil {
		return err
	}
	for _, p := range ps {
		p.Status, p.DecidedBy, p.DecidedAt, p.Batch = engine.ProposalPending, "", time.Time{}, ""
		if i := strings.LastIndex(p.Reason, "; withdrawn: "); i >= 0 {
			p.Reason = p.Reason[:i]
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
