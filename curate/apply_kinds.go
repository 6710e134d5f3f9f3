package curate

import (
	"context"
	"fmt"
	"time"

	"memtrace/engine"
)

// applyOne changes what one proposal proposes — the one switch over every
// kind of proposal, which Apply runs for approve and apply alike. It
// returns what changed, the state the change must leave (checked by
// verifyApply), and whether the memory changed: a keep record only
// confirms the memory as it is, under an audit row (before = after).
// wording is the curator's rule text for a promotion ("" for its own).
func applyOne(ctx context.Context, e *engine.Engine, q engine.Queries, p *engine.Proposal, a engine.Actor, wording string, now time.Time) (AppliedProposal, applyExpect, bool, error) {
	ap := AppliedProposal{ProposalID: p.ID, Kind: p.Kind, MemoryID: p.MemoryID}
	ex := applyExpect{proposal: p, memory: p.MemoryID}
	// m is the memory the proposal changes, for every kind but those that
	// write a memory of their own (promote, and the Markdown import's add
	// and move).
	var m *engine.Memory
	if p.Kind != engine.ProposalPromote && p.Kind != ProposalAdd && p.Kind != ProposalMove {
		var err error
		if m, err = q.GetMemory(ctx, p.MemoryID); err != nil {
			return ap, ex, false, fmt.Errorf("proposal %d: %w", p.ID, err)
		}
		ap.From = describeState(m)
		if pv, ok := ParseProposalVerdict(p); ok && isJudgeKind(p.Kind) && (m.Status != engine.StatusActive || m.Type != pv.Type) {
			return ap, ex, false, &BlockedError{ProposalID: p.ID, Err: stale(p, m, "changed since it was judged")}
		}
		if err := CheckApproval(p, m); err != nil {
			return ap, ex, false, err
		}
	}
	switch p.Kind {
	case engine.ProposalPromote:
		ap, err := applyPromotion(ctx, e, q, p, a, wording, now)
		if err != nil {
			return ap, ex, false, err
		}
		// What the HOT-rule write must leave, independently of it.
		ex.memory, ex.status, ex.typ, ex.tier = ap.MemoryID, engine.StatusActive, "rule", engine.TierHot
		if p.TargetType == string(engine.TierWarm) {
			ex.tier = engine.TierWarm
		}
		return ap, ex, true, nil
	case ProposalAdd, ProposalMove:
		ap, err := applyMarkdownProposal(ctx, e, q, p, a, now)
		if err != nil {
			return ap, ex, false, err
		}
		w, err := q.GetMemory(ctx, ap.MemoryID)
		if err != nil {
			return ap, ex, false, err
		}
		ex.memory, ex.status, ex.typ, ex.tier = w.ID, w.Status, w.Type, w.Tier
		return ap, ex, true, nil
	case engine.ProposalKeep:
		// The curator confirms the memory as it is: the decision is an
		// audit row (before = after) under the batch, and the proposal
		// leaves the queue as applied.
		if err := q.UpdateMemory(ctx, m, a, engine.ProposalKeep); err != nil {
			return ap, ex, false, err
		}
		ap.To = ap.From
		ex.status, ex.typ, ex.tier = m.Status, m.Type, m.Tier
		return ap, ex, false, nil
	case engine.ProposalQuarantine:
		m.Quarantine()
	case engine.ProposalRetype:
		if m.OrigType == "" {
			m.OrigType = m.Type
		}
		m.Type = p.TargetType
	case engine.ProposalRestore:
		m.Restore()
		reactivate(m, p.TargetType)
	case engine.ProposalDemote:
		switch engine.Tier(p.TargetType) {
		case engine.TierCold:
			m.Tier, m.Status = engine.TierCold, engine.StatusArchived
		case engine.TierWarm, "":
			m.Tier = engine.TierWarm
		default:
			return ap, ex, false, engine.Errorf(engine.EINVALID, "proposal %d: cannot demote to %q", p.ID, p.TargetType)
		}
	case engine.ProposalArchive:
		m.Tier, m.Status = engine.TierCold, engine.StatusArchived
	default:
		return ap, ex, false, engine.Errorf(engine.EINVALID, "proposal %d: unknown kind %q", p.ID, p.Kind)
	}
	if err := q.UpdateMemory(ctx, m, a, p.Kind); err != nil {
		return ap, ex, false, err
	}
	ap.To = describeState(m)
	ex.status, ex.typ, ex.tier = m.Status, m.Type, m.Tier
	return ap, ex, true, nil
}

// stale is the refusal of a proposal whose memory is no longer in the
// state it was proposed for.
func stale(p *engine.Proposal, m *engine.Memory, what string) error {
	return engine.Errorf(engine.ECONFLICT, "proposal %d: memory %d %s (now %s); reject the proposal or re-run triage; nothing was applied",
		p.ID, m.ID, what, describeState(m))
}

// reactivate takes a memory made active again (engine.Memory.Restore) out
// of COLD, with the target type, or its original type when there is none.
func reactivate(m *engine.Memory, targetType string) {
	if m.Tier == engine.TierCold {
		m.Tier = engine.TierWarm
	}
	if targetType != "" {
		m.Type = targetType
	} else if m.OrigType != "" {
		m.Type = m.OrigType
	}
}

// describeState is a memory's lifecycle state for reports: "warm/active".
func describeState(m *engine.Memory) string {
	s := string(m.Tier) + "/" + string(m.Status)
	if m.Status == engine.StatusQuarantined || m.Type != "" {
		s += " " + m.Type
	}
	return s
}
