package curate

import (
	"context"
	"errors"
	"fmt"

	"memtrace/engine"
)

// BlockedError is a proposal that cannot be applied as it stands — a
// no-op (a retype to the type the memory has, a quarantine of a memory
// already quarantined) or one its memory's state contradicts. Apply
// returns it for the proposal that stopped the batch, a decision
// (DecideProposals, OverrideProposal) for the proposal refused; the
// ProposalID is a field so that a UI can take the curator to it.
type BlockedError struct {
	ProposalID int64
	Err        error
}

func (b *BlockedError) Error() string { return b.Err.Error() }
func (b *BlockedError) Unwrap() error { return b.Err }

// BlockingProposal is the proposal a BlockedError in err's chain names.
func BlockingProposal(err error) (int64, bool) {
	var b *BlockedError
	if errors.As(err, &b) {
		return b.ProposalID, true
	}
	return 0, false
}

// CheckApproval reports whether p, applied now, would change m as it
// proposes: the one rule that decisions (refused at the key) and Apply
// (refused in the batch) share. Kinds that write a memory of their own
// (promote, the Markdown import's add and move) and keep (which confirms
// the memory as it is) always can.
func CheckApproval(p *engine.Proposal, m *engine.Memory) error {
	var err error
	switch p.Kind {
	case engine.ProposalQuarantine:
		if m.Status == engine.StatusQuarantined {
			err = stale(p, m, "is already quarantined")
		}
	case engine.ProposalRetype:
		switch {
		case p.TargetType == "":
			err = engine.Errorf(engine.EINVALID, "proposal %d: retype of memory %d has no new type; choose a type or reject the proposal", p.ID, m.ID)
		case p.TargetType == m.Type:
			err = engine.Errorf(engine.EINVALID, "proposal %d: retype to %s changes nothing: memory %d is already %s; choose another type, keep it as it is, or reject the proposal",
				p.ID, p.TargetType, m.ID, m.Type)
		}
	case engine.ProposalRestore:
		if m.Status == engine.StatusActive {
			err = stale(p, m, "is already active")
		}
	case engine.ProposalDemote:
		if m.Status != engine.StatusActive || engine.TierOf(m) == engine.TierCold || string(engine.TierOf(m)) == p.TargetType {
			err = stale(p, m, "cannot be demoted to "+p.TargetType)
		}
	case engine.ProposalArchive:
		if m.Status != engine.StatusActive {
			err = stale(p, m, "is not active")
		}
	}
	if err != nil {
		return &BlockedError{ProposalID: p.ID, Err: err}
	}
	return nil
}

// checkDecision is CheckApproval for an approval about to be recorded:
// the proposal's memory as the store holds it now.
func checkDecision(ctx context.Context, q engine.Queries, p *engine.Proposal) error {
	if p.MemoryID == 0 || p.Kind == engine.ProposalPromote || p.Kind == ProposalAdd || p.Kind == ProposalMove || p.Kind == engine.ProposalKeep {
		return nil
	}
	m, err := q.GetMemory(ctx, p.MemoryID)
	if err != nil {
		return fmt.Errorf("proposal %d: %w", p.ID, err)
	}
	return CheckApproval(p, m)
}
