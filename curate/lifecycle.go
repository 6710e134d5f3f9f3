package curate

import (
	"context"
	"strings"
	"time"

	"memtrace/engine"
)

// ApproveOptions configure an approval.
type ApproveOptions struct {
	// Curator names who decided (default "curator").
	Curator string
	// Wording replaces, per promote proposal id, the rule text the HOT
	// memory gets (the curator's edit).
	Wording map[int64]string
	// Batch is the audit batch id (default "approve-<timestamp>").
	Batch string
}

// AppliedProposal is one proposal an approval applied.
type AppliedProposal struct {
	ProposalID int64  `json:"proposal_id"`
	Kind       string `json:"kind"`
	MemoryID   int64  `json:"memory_id"`
	From       string `json:"from"`
	To         string `json:"to"`
}

// ApproveResult is what an approval changed.
type ApproveResult struct {
	Batch   string            `json:"batch"`
	Applied []AppliedProposal `json:"applied"`
}

// ApproveProposals applies the given proposals (promote, demote, archive,
// quarantine, restore, retype) in ONE transaction: every memory change is
// audited under the batch, every proposal is marked applied with the batch,
// so RollbackApplied undoes all of it. A proposal
// that is not pending (or needs_review, which a curator's approval settles,
// or approved in the Curate tab and not yet applied),
// or whose memory is no longer in the state it was proposed for, fails the
// whole batch and nothing changes.
func ApproveProposals(ctx context.Context, e *engine.Engine, ids []int64, o ApproveOptions) (*ApproveResult, error) {
	if len(ids) == 0 {
		return nil, engine.Errorf(engine.EINVALID, "no proposals to approve; list them with `memtrace proposals`")
	}
	if o.Curator == "" {
		o.Curator = engine.ActorCurator
	}
	now := e.Now()
	res := &ApproveResult{}
	err := e.Update(ctx, func(q engine.Queries) error {
		res.Applied = res.Applied[:0]
		batch := o.Batch
		if batch == "" {
			b, err := q.NextBatchID(ctx, engine.BatchApprove)
			if err != nil {
				return err
			}
			batch = b
		} else if prior, err := q.AuditForBatch(ctx, batch); err != nil {
			return err
		} else if len(prior) > 0 {
			return engine.Errorf(engine.ECONFLICT, "batch %s already exists; choose another batch id", batch)
		}
		res.Batch = batch
		a := engine.Actor{Name: o.Curator, Batch: batch}
		seen := map[int64]bool{}
		for _, id := range ids {
			if seen[id] {
				continue
			}
			seen[id] = true
			p, err := q.GetProposal(ctx, id)
			if err != nil {
				return err
			}
			if p.Status != engine.ProposalPending && p.Status != engine.ProposalReview && p.Status != engine.ProposalApproved {
				return engine.Errorf(engine.ECONFLICT, "proposal %d is %s, not pending; nothing was applied", id, p.Status)
			}
			ap, err := applyProposal(ctx, e, q, p, a, o.Wording[id], now)
			if err != nil {
				return err
			}
			p.Status, p.DecidedBy, p.DecidedAt, p.Batch = engine.ProposalApplied, o.Curator, now, batch
			if ap.MemoryID != 0 && p.MemoryID == 0 {
				p.MemoryID = ap.MemoryID
			}
			if err := q.UpdateProposal(ctx, p); err != nil {
				return err
			}
			if err := withdrawMoot(ctx, q, p, idSet(ids), a, now); err != nil {
				return err
			}
			res.Applied = append(res.Applied, ap)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

func applyProposal(ctx context.Context, e *engine.Engine, q engine.Queries, p *engine.Proposal, a engine.Actor, wording string, now time.Time) (AppliedProposal, error) {
	ap := AppliedProposal{ProposalID: p.ID, Kind: p.Kind, MemoryID: p.MemoryID}
	if p.Kind == engine.ProposalPromote {
		return applyPromotion(ctx, e, q, p, a, wording, now)
	}
	if p.Kind == ProposalAdd || p.Kind == ProposalMove {
		return applyMarkdownProposal(ctx, e, q, p, a, now)
	}
	m, err := q.GetMemory(ctx, p.MemoryID)
	if err != nil {
		return ap, err
	}
	ap.From = describeState(m)
	if pv, ok := ParseProposalVerdict(p); ok && isJudgeKind(p.Kind) && (m.Status != engine.StatusActive || m.Type != pv.Type) {
		return ap, engine.Errorf(engine.ECONFLICT, "proposal %d: memory %d changed since it was judged (now %s); reject the proposal or re-run triage; nothing was applied",
			p.ID, m.ID, ap.From)
	}
	switch p.Kind {
	case engine.ProposalKeep:
		// The curator confirms the memory as it is: the decision is an
		// audit row (before = after) under the batch, and the proposal
		// leaves the queue as applied.
		if err := q.UpdateMemory(ctx, m, a, engine.ProposalKeep); err != nil {
			return ap, err
		}
		ap.To = ap.From
		return ap, nil
	case engine.ProposalDemote:
		if m.Status != engine.StatusActive || string(engine.TierOf(m)) == p.TargetType || engine.TierOf(m) == engine.TierCold {
			return ap, engine.Errorf(engine.ECONFLICT, "proposal %d: memory %d is %s now, cannot demote it to %s; reject the proposal", p.ID, m.ID, ap.From, p.TargetType)
		}
		if p.TargetType == string(engine.TierCold) {
			m.Tier, m.Status = engine.TierCold, engine.StatusArchived
		} else {
			m.Tier = engine.TierWarm
		}
	case engine.ProposalArchive:
		if m.Status != engine.StatusActive {
			return ap, engine.Errorf(engine.ECONFLICT, "proposal %d: memory %d is %s now, cannot archive it; reject the proposal", p.ID, m.ID, ap.From)
		}
		m.Tier, m.Status = engine.TierCold, engine.StatusArchived
	case engine.ProposalQuarantine:
		if m.Status == engine.StatusQuarantined {
			return ap, engine.Errorf(engine.ECONFLICT, "proposal %d: memory %d is already quarantined; reject the proposal", p.ID, m.ID)
		}
		if m.OrigType == "" {
			m.OrigType = m.Type
		}
		m.Status = engine.StatusQuarantined
	case engine.ProposalRestore:
		if m.Status == engine.StatusActive {
			return ap, engine.Errorf(engine.ECONFLICT, "proposal %d: memory %d is already active; reject the proposal", p.ID, m.ID)
		}
		reactivate(m, p.TargetType)
	case engine.ProposalRetype:
		if p.TargetType == "" {
			return ap, engine.Errorf(engine.EINVALID, "proposal %d: retype without a target type", p.ID)
		}
		if m.OrigType == "" {
			m.OrigType = m.Type
		}
		m.Type = p.TargetType
	default:
		return ap, engine.Errorf(engine.EINVALID, "proposal %d: unknown kind %q", p.ID, p.Kind)
	}
	if err := q.UpdateMemory(ctx, m, a, p.Kind); err != nil {
		return ap, err
	}
	ap.To = describeState(m)
	return ap, nil
}

// idSet is ids as a set.
func idSet(ids []int64) map[int64]bool {
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

// describeState is a memory's lifecycle state for reports: "warm/active".
func describeState(m *engine.Memory) string {
	s := string(m.Tier) + "/" + string(m.Status)
	if m.Status == engine.StatusQuarantined || m.Type != "" {
		s += " " + m.Type
	}
	return s
}

// applyPromotion creates (or moves) the HOT memory of a lesson, type rule,
// with the proposed or curator-edited wording, and marks the lesson
// promoted.
func applyPromotion(ctx context.Context, e *engine.Engine, q engine.Queries, p *engine.Proposal, a engine.Actor, wording string, now time.Time) (AppliedProposal, error) {
	ap := AppliedProposal{ProposalID: p.ID, Kind: p.Kind}
	ev, err := engine.ParsePromotion(p)
	if err != nil {
		return ap, err
	}
	text := strings.Join(strings.Fields(wording), " ")
	if text == "" {
		text = ev.RuleWording()
	}
	if text == "" {
		return ap, engine.Errorf(engine.EINVALID, "proposal %d has no wording; approve it with --wording", p.ID)
	}
	tier := engine.TierHot
	if p.TargetType == string(engine.TierWarm) {
		tier = engine.TierWarm
	}
	scope := ev.Scope
	if !engine.ValidScope(scope) {
		scope = engine.ScopeGlobal
	}
	key := engine.LessonMemoryKey(ev.LessonKey)
	m, err := q.GetMemoryByKey(ctx, key)
	switch {
	case err == nil:
		ap.From = describeState(m)
		if m.Content != text {
			m.Content, m.Embedding, m.Embedder = text, nil, ""
		}
		if m.OrigType == "" && m.Type != "rule" {
			m.OrigType = m.Type
		}
		m.Type, m.Tier, m.Scope, m.Status = "rule", tier, scope, engine.StatusActive
		m.LastAccessedAt = now
		if err := e.PrepareMemory(ctx, m); err != nil {
			return ap, err
		}
		if err := q.UpdateMemory(ctx, m, a, engine.ProposalPromote); err != nil {
			return ap, err
		}
	case engine.ErrorCode(err) == engine.ENOTFOUND:
		ap.From = "lesson " + ev.LessonKey
		m = &engine.Memory{Key: key, Content: text, Kind: engine.KindFact, Type: "rule", Tier: tier, Scope: scope,
			Importance: 0.9, Role: "user", CreatedAt: now, LastAccessedAt: now}
		if err := e.PrepareMemory(ctx, m); err != nil {
			return ap, err
		}
		if err := q.InsertMemory(ctx, m, a); err != nil {
			return ap, err
		}
	default:
		return ap, err
	}
	ap.MemoryID, ap.To = m.ID, describeState(m)
	c, err := q.GetCorrection(ctx, ev.LessonKey)
	if err == nil {
		c.Status = engine.CorrectionPromoted
		if err := q.SaveCorrection(ctx, c); err != nil {
			return ap, err
		}
	} else if engine.ErrorCode(err) != engine.ENOTFOUND {
		return ap, err
	}
	return ap, nil
}
