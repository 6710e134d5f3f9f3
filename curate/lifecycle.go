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

// ApproveProposals is `memtrace approve ID…`: Apply of the given
// proposals (each pending, needs_review — which a curator's approval
// settles — or approved in the Curate tab and not yet applied), decided by
// o.Curator, in one transaction and one batch that RollbackApplied undoes.
func ApproveProposals(ctx context.Context, e *engine.Engine, ids []int64, o ApproveOptions) (*ApproveResult, error) {
	if len(ids) == 0 {
		return nil, engine.Errorf(engine.EINVALID, "no proposals to approve; list them with `memtrace proposals`")
	}
	rep, err := Apply(ctx, e, ApplyOptions{IDs: ids, Actor: o.Curator, Batch: o.Batch, Wording: o.Wording})
	if err != nil {
		return nil, err
	}
	return &ApproveResult{Batch: rep.Batch, Applied: rep.Proposals}, nil
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
