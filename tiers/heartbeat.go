package tiers

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"memtrace/curate"
	"memtrace/engine"
)

// HeartbeatOptions configure one heartbeat pass.
type HeartbeatOptions struct {
	// At is the time the pass runs at (zero: the engine's clock). Ages are
	// measured to it, so a pass can be simulated at +30 days.
	At time.Time
	// Reviewer, when set, reviews each new promotion candidate first.
	Reviewer engine.PromotionReviewer
	// DryRun reports what the pass would propose without writing it.
	DryRun bool
	// MaxShare is the share of the active memories the age rules may keep
	// waiting at once (0: DefaultMaxShare). See HeartbeatHelp.
	MaxShare float64
}

// HeartbeatProposal is one proposal a heartbeat wrote (the `heartbeat
// --json` contract: kind, memory_id?, reason; the rest are additions).
type HeartbeatProposal struct {
	ID        int64  `json:"id"`
	Kind      string `json:"kind"`
	MemoryID  int64  `json:"memory_id,omitempty"`
	Reason    string `json:"reason"`
	Target    string `json:"target,omitempty"`
	LessonKey string `json:"lesson_key,omitempty"`
	Status    string `json:"status"`
	// Rule is the rule that fired (see HeartbeatHelp); Evidence what it
	// saw (lifecycle proposals); Score the rank (importance × (1 + reach)).
	Rule     string             `json:"rule,omitempty"`
	Score    float64            `json:"score"`
	Evidence *LifecycleEvidence `json:"evidence,omitempty"`
}

// HeartbeatReport is what a pass found and wrote.
type HeartbeatReport struct {
	At        time.Time           `json:"at"`
	DryRun    bool                `json:"dry_run,omitempty"`
	Proposals []HeartbeatProposal `json:"proposals"`
	// Scopes are the tier files with their line counts against the caps.
	Scopes []engine.TierScope `json:"scopes"`
	// Pending counts the lifecycle proposals already waiting for the
	// curator before this pass, which it did not write again.
	AlreadyPending int `json:"already_pending"`
	// MaxShare and Budget: the age rules may keep Budget proposals waiting
	// (MaxShare of the active memories); Waiting more are due beyond it,
	// WaitingReason says why they were not written.
	MaxShare      float64 `json:"max_share"`
	Budget        int     `json:"budget"`
	Waiting       int     `json:"waiting"`
	WaitingReason string  `json:"waiting_reason,omitempty"`
}

// Heartbeat runs one pass of the lifecycle rules (HeartbeatHelp): lessons
// seen PromotionThreshold times become promote proposals; HOT memories
// unused DemoteAfter demote proposals; WARM memories the decay model has
// forgotten archive proposals; vital memories long unused review notes; a
// HOT or WARM file over its line cap demote proposals. The age rules are
// ranked by score and capped at MaxShare of the store. It writes proposals
// only — it never moves a memory — and it is idempotent: a memory with a
// conflicting open proposal, or whose proposal was rejected with nothing
// new since, is not proposed again.
func Heartbeat(ctx context.Context, e *engine.Engine, o HeartbeatOptions) (*HeartbeatReport, error) {
	at := o.At
	if at.IsZero() {
		at = e.Now()
	}
	at = at.UTC()
	if o.MaxShare < 0 || o.MaxShare > 1 {
		return nil, engine.Errorf(engine.EINVALID, "max share %v is outside 0..1; pass e.g. 0.1 for 10 %%", o.MaxShare)
	}
	share := o.MaxShare
	if share == 0 {
		share = DefaultMaxShare
	}
	st := e.Store()
	existing, err := st.FindProposals(ctx, engine.ProposalFilter{})
	if err != nil {
		return nil, fmt.Errorf("heartbeat: %w", err)
	}
	open := openProposals(existing)
	rep := &HeartbeatReport{At: at, AlreadyPending: open.pending, DryRun: o.DryRun, MaxShare: share}

	var props []*engine.Proposal
	promos, err := promotionCandidates(ctx, e, open)
	if err != nil {
		return nil, err
	}
	for _, c := range promos {
		p, err := PromotionProposal(ctx, e, c, o.Reviewer)
		if err != nil {
			return nil, err
		}
		props = append(props, p)
	}
	aged := ageProposals(e, at, open)
	active := 0
	e.EachMemory(func(m *engine.Memory) bool {
		if m.Status == engine.StatusActive {
			active++
		}
		return true
	})
	rep.Budget = shareBudget(active, share, open.agePending)
	var lifecycle []*engine.Proposal
	for i, c := range aged {
		if i >= rep.Budget {
			rep.Waiting = len(aged) - i
			rep.WaitingReason = fmt.Sprintf("the age rules keep at most %d proposals (%.0f %% of %d active memories) waiting at once and %d already wait; "+
				"decide those (memtrace proposals) and the next pass proposes these", shareLimit(active, share), share*100, active, open.agePending)
			break
		}
		open.add(c.p.MemoryID, c.p.Kind)
		lifecycle = append(lifecycle, c.p)
	}
	lifecycle = append(lifecycle, capProposals(e, at, open)...)
	SortProposalsByScore(lifecycle)
	props = append(props, lifecycle...)

	if len(props) > 0 && !o.DryRun {
		err = e.Update(ctx, func(q engine.Queries) error {
			for _, p := range props {
				p.CreatedAt = at
				if err := q.InsertProposal(ctx, p); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("heartbeat: write proposals: %w", err)
		}
	}
	for _, p := range props {
		hp := HeartbeatProposal{ID: p.ID, Kind: p.Kind, MemoryID: p.MemoryID, Reason: p.Reason, Target: p.TargetType, Status: p.Status}
		if p.Kind == engine.ProposalPromote {
			hp.Rule = RuleLessonRepeated
			if ev, err := engine.ParsePromotion(p); err == nil {
				hp.LessonKey = ev.LessonKey
			}
		} else if ev, ok := ParseLifecycleEvidence(p); ok {
			hp.Rule, hp.Score, hp.Evidence = ev.Rule, ev.Score, &ev
		}
		rep.Proposals = append(rep.Proposals, hp)
	}
	if rep.Proposals == nil {
		rep.Proposals = []HeartbeatProposal{}
	}
	rep.Scopes = e.TierScopes()
	return rep, nil
}

// proposalIndex says which memories and lessons already have a proposal
// that blocks a new one.
type proposalIndex struct {
	// memory id → kinds with an open proposal (pending, needs_review,
	// approved).
	memOpen map[int64]map[string]bool
	// memory id + kind → latest rejection time (for keep, of a heartbeat
	// review note: latest decision, approved or rejected).
	memRejected map[string]time.Time
	// lesson key → a promote proposal exists that was not rolled back.
	lessons map[string]bool
	// memory id → when an approved move (promote, demote) last put it in
	// its tier: its demotion clock starts again there, so a memory demoted
	// HOT → WARM is not proposed for WARM → COLD at the very next pass.
	moved   map[int64]time.Time
	pending int
	// agePending counts the open heartbeat proposals of the age rules (the
	// ones the share cap counts).
	agePending int
}

func memKindKey(id int64, kind string) string { return fmt.Sprintf("%d/%s", id, kind) }

func (ix proposalIndex) add(id int64, kind string) {
	if ix.memOpen[id] == nil {
		ix.memOpen[id] = map[string]bool{}
	}
	ix.memOpen[id][kind] = true
}

// blocks reports whether memory id has an open proposal conflicting with a
// new one of kind.
func (ix proposalIndex) blocks(id int64, kind string) bool {
	for k := range ix.memOpen[id] {
		if curate.ProposalsConflict(k, kind) {
			return true
		}
	}
	return false
}

func openProposals(ps []*engine.Proposal) proposalIndex {
	ix := proposalIndex{memOpen: map[int64]map[string]bool{}, memRejected: map[string]time.Time{}, lessons: map[string]bool{}, moved: map[int64]time.Time{}}
	for _, p := range ps {
		isOpen := p.Status == engine.ProposalPending || p.Status == engine.ProposalReview || p.Status == engine.ProposalApproved
		if p.Status == engine.ProposalApplied && (p.Kind == engine.ProposalPromote || p.Kind == engine.ProposalDemote) && p.MemoryID != 0 && p.DecidedAt.After(ix.moved[p.MemoryID]) {
			ix.moved[p.MemoryID] = p.DecidedAt
		}
		if isOpen && p.MemoryID != 0 {
			ix.add(p.MemoryID, p.Kind)
		}
		if p.Kind == engine.ProposalPromote {
			var ev engine.PromotionEvidence
			if json.Unmarshal(p.Verdict, &ev) == nil && ev.LessonKey != "" && p.Status != engine.ProposalRolledBack {
				ix.lessons[ev.LessonKey] = true
			}
			if isOpen {
				ix.pending++
			}
			continue
		}
		review := p.Kind == engine.ProposalKeep && p.Proposer == engine.ProposerHeartbeat
		if p.Kind != engine.ProposalDemote && p.Kind != engine.ProposalArchive && !review {
			continue
		}
		if isOpen {
			ix.pending++
			if ev, ok := ParseLifecycleEvidence(p); !ok || ev.Rule != RuleOverCap {
				ix.agePending++
			}
		}
		if p.Status == engine.ProposalRejected || (review && p.Status == engine.ProposalApplied) {
			k := memKindKey(p.MemoryID, p.Kind)
			if t := p.DecidedAt; t.After(ix.memRejected[k]) || ix.memRejected[k].IsZero() {
				ix.memRejected[k] = t
			}
		}
	}
	return ix
}

// decidedSince reports whether a proposal of kind for m was rejected (or,
// for a review note, decided) after m's last use — nothing new has
// happened since, so it is not proposed again.
func (ix proposalIndex) decidedSince(m *engine.Memory, kind string) bool {
	t, ok := ix.memRejected[memKindKey(m.ID, kind)]
	return ok && !t.Before(engine.LastUse(m))
}

// promotionCandidates lists the lessons due for a promote proposal: status
// candidate, or still pending with a count at the threshold (a counter that
// did not flip the status), without a proposal already.
func promotionCandidates(ctx context.Context, e *engine.Engine, ix proposalIndex) ([]*engine.Correction, error) {
	var out []*engine.Correction
	// A promoted lesson whose approval was rolled back (by any rollback
	// command) has no live promote proposal left and is proposed again.
	for _, status := range []string{engine.CorrectionCandidate, engine.CorrectionPending, engine.CorrectionPromoted} {
		cs, err := e.Store().FindCorrections(ctx, status)
		if err != nil {
			return nil, fmt.Errorf("heartbeat: corrections: %w", err)
		}
		for _, c := range cs {
			if c.Count < engine.PromotionThreshold || ix.lessons[c.LessonKey] {
				continue
			}
			ix.lessons[c.LessonKey] = true
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LessonKey < out[j].LessonKey })
	return out, nil
}

// LifecycleEvidence is the verdict JSON of a demote, archive or review
// proposal of the heartbeat: what the curator needs to judge it.
type LifecycleEvidence struct {
	File        string      `json:"file"`
	From        engine.Tier `json:"from"`
	To          engine.Tier `json:"to"`
	LastUse     time.Time   `json:"last_use"`
	UnusedDays  int         `json:"unused_days"`
	AccessCount int         `json:"access_count"`
	Lines       int         `json:"lines,omitempty"` // the file's lines, for a cap proposal
	Cap         int         `json:"cap,omitempty"`
	// Rule is the rule that fired (RuleHotUnused, RuleForgotten,
	// RuleOverCap, RuleVitalReview; see HeartbeatHelp).
	Rule       string    `json:"rule,omitempty"`
	Type       string    `json:"type,omitempty"`
	Importance float64   `json:"importance"`
	ForgetAt   time.Time `json:"forget_at,omitzero"`
	Vital      bool      `json:"vital,omitempty"`
	// Degree is the association degree, Reach = access count + degree,
	// Score = importance × (1 + reach): the rank.
	Degree int     `json:"degree"`
	Reach  int     `json:"reach"`
	Score  float64 `json:"score"`
}

// ParseLifecycleEvidence reads the evidence of a heartbeat proposal.
func ParseLifecycleEvidence(p *engine.Proposal) (LifecycleEvidence, bool) {
	var ev LifecycleEvidence
	if p.Proposer != engine.ProposerHeartbeat || p.Kind == engine.ProposalPromote || len(p.Verdict) == 0 || json.Unmarshal(p.Verdict, &ev) != nil || ev.LastUse.IsZero() {
		return ev, false
	}
	return ev, true
}

// withLifecycleEvidence attaches ev to p as its verdict JSON.
func withLifecycleEvidence(p *engine.Proposal, ev LifecycleEvidence) *engine.Proposal {
	p.Verdict, _ = json.Marshal(ev) // plain struct: cannot fail
	return p
}

// demoteTarget is one tier down.
func demoteTarget(t engine.Tier) engine.Tier {
	if t == engine.TierHot {
		return engine.TierWarm
	}
	return engine.TierCold
}

// capProposals proposes demoting the memories of a HOT or WARM file over
// its line cap that the decay model forgets first (vital ones last), as
// many as bring it back under the cap (counting the ones already proposed
// to leave).
func capProposals(e *engine.Engine, at time.Time, ix proposalIndex) []*engine.Proposal {
	var out []*engine.Proposal
	scopes := e.TierScopes()
	for si := range scopes {
		s := &scopes[si]
		if !s.Over() || s.Tier == engine.TierCold {
			continue
		}
		excess := s.Lines - s.Cap
		type cand struct {
			m      engine.Memory
			forget time.Time
		}
		var movable []cand
		for _, id := range s.Memories {
			if ix.memOpen[id][engine.ProposalDemote] || ix.memOpen[id][engine.ProposalArchive] {
				excess--
				continue
			}
			if ix.blocks(id, engine.ProposalDemote) {
				continue
			}
			if m, ok := e.Memory(id); ok && m.Status == engine.StatusActive {
				movable = append(movable, cand{m, engine.ForgetAt(m, e.Config())})
			}
		}
		sort.SliceStable(movable, func(i, j int) bool {
			a, b := &movable[i], &movable[j]
			if va, vb := Vital(&a.m), Vital(&b.m); va != vb {
				return vb
			}
			if !a.forget.Equal(b.forget) {
				return a.forget.Before(b.forget)
			}
			return a.m.ID < b.m.ID
		})
		for i := 0; i < excess && i < len(movable); i++ {
			m := movable[i].m
			p := &engine.Proposal{Kind: engine.ProposalDemote, MemoryID: m.ID, TargetType: string(demoteTarget(s.Tier)),
				Proposer: engine.ProposerHeartbeat, Status: engine.ProposalPending, Confidence: 1,
				Reason: fmt.Sprintf("%s over cap: %d/%d lines; forgotten first by the forecast (%s; last use %s)", s.File, s.Lines, s.Cap,
					movable[i].forget.Format("2006-01-02"), engine.LastUse(&m).Format("2006-01-02"))}
			out = append(out, withLifecycleEvidence(p, evidence(e, p, &m, at, RuleOverCap, s)))
			ix.add(m.ID, engine.ProposalDemote)
		}
	}
	return out
}
