package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"
)

// HeartbeatOptions configure one heartbeat pass.
type HeartbeatOptions struct {
	// At is the time the pass runs at (zero: the engine's clock). Ages are
	// measured to it, so a pass can be simulated at +30 days.
	At time.Time
	// Reviewer, when set, reviews each new promotion candidate first.
	Reviewer PromotionReviewer
	// DryRun reports what the pass would propose without writing it.
	DryRun bool
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
}

// HeartbeatReport is what a pass found and wrote.
type HeartbeatReport struct {
	At        time.Time           `json:"at"`
	DryRun    bool                `json:"dry_run,omitempty"`
	Proposals []HeartbeatProposal `json:"proposals"`
	// Scopes are the tier files with their line counts against the caps.
	Scopes []TierScope `json:"scopes"`
	// Pending counts the lifecycle proposals already waiting for the
	// curator before this pass, which it did not write again.
	AlreadyPending int `json:"already_pending"`
}

// Heartbeat runs one pass of the lifecycle check (seed 002): corrections
// seen PromotionThreshold times become promote proposals; HOT and WARM
// memories unused ≥ DemoteAfter become demote proposals, any memory unused
// ≥ ArchiveAfter an archive proposal; a HOT or WARM file over its line cap
// gets demote proposals for its least recently used memories. It writes
// proposals only — it never moves a memory — and it is idempotent: a
// memory or lesson with an open proposal, or whose proposal was rejected
// with nothing new since, is not proposed again.
func (e *Engine) Heartbeat(ctx context.Context, o HeartbeatOptions) (*HeartbeatReport, error) {
	at := o.At
	if at.IsZero() {
		at = e.Now()
	}
	at = at.UTC()
	st := e.Store()
	existing, err := st.FindProposals(ctx, ProposalFilter{})
	if err != nil {
		return nil, fmt.Errorf("heartbeat: %w", err)
	}
	open := openProposals(existing)
	rep := &HeartbeatReport{At: at, AlreadyPending: open.pending, DryRun: o.DryRun}

	var props []*Proposal
	promos, err := e.promotionCandidates(ctx, open)
	if err != nil {
		return nil, err
	}
	for _, c := range promos {
		p, err := e.promotionProposal(ctx, c, o.Reviewer)
		if err != nil {
			return nil, err
		}
		props = append(props, p)
	}
	props = append(props, e.ageProposals(at, open)...)
	props = append(props, e.capProposals(at, open)...)

	if len(props) > 0 && !o.DryRun {
		err = e.Update(ctx, func(q Queries) error {
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
		if p.Kind == ProposalPromote {
			if ev, err := ParsePromotion(p); err == nil {
				hp.LessonKey = ev.LessonKey
			}
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
	memOpen map[int64]bool
	// memory id + kind → latest rejection time.
	memRejected map[string]time.Time
	// lesson key → a promote proposal exists that was not rolled back.
	lessons map[string]bool
	// memory id → when an approved move (promote, demote) last put it in
	// its tier: its demotion clock starts again there, so a memory demoted
	// HOT → WARM is not proposed for WARM → COLD at the very next pass.
	moved   map[int64]time.Time
	pending int
}

func memKindKey(id int64, kind string) string { return fmt.Sprintf("%d/%s", id, kind) }

func openProposals(ps []*Proposal) proposalIndex {
	ix := proposalIndex{memOpen: map[int64]bool{}, memRejected: map[string]time.Time{}, lessons: map[string]bool{}, moved: map[int64]time.Time{}}
	for _, p := range ps {
		isOpen := p.Status == ProposalPending || p.Status == ProposalReview || p.Status == ProposalApproved
		if p.Status == ProposalApplied && (p.Kind == ProposalPromote || p.Kind == ProposalDemote) && p.MemoryID != 0 && p.DecidedAt.After(ix.moved[p.MemoryID]) {
			ix.moved[p.MemoryID] = p.DecidedAt
		}
		if p.Kind == ProposalPromote {
			var ev PromotionEvidence
			if json.Unmarshal(p.Verdict, &ev) == nil && ev.LessonKey != "" && p.Status != ProposalRolledBack {
				ix.lessons[ev.LessonKey] = true
			}
			if isOpen {
				ix.pending++
			}
			continue
		}
		if p.Kind != ProposalDemote && p.Kind != ProposalArchive {
			continue
		}
		if isOpen {
			ix.memOpen[p.MemoryID] = true
			ix.pending++
		}
		if p.Status == ProposalRejected {
			k := memKindKey(p.MemoryID, p.Kind)
			if t := p.DecidedAt; t.After(ix.memRejected[k]) || ix.memRejected[k].IsZero() {
				ix.memRejected[k] = t
			}
		}
	}
	return ix
}

// rejectedSince reports whether a proposal of kind for m was rejected after
// m's last use — nothing new has happened since, so it is not proposed again.
func (ix proposalIndex) rejectedSince(m *Memory, kind string) bool {
	t, ok := ix.memRejected[memKindKey(m.ID, kind)]
	return ok && !t.Before(LastUse(m))
}

// promotionCandidates lists the lessons due for a promote proposal: status
// candidate, or still pending with a count at the threshold (a counter that
// did not flip the status), without a proposal already.
func (e *Engine) promotionCandidates(ctx context.Context, ix proposalIndex) ([]*Correction, error) {
	var out []*Correction
	// A promoted lesson whose approval was rolled back (by any rollback
	// command) has no live promote proposal left and is proposed again.
	for _, status := range []string{CorrectionCandidate, CorrectionPending, CorrectionPromoted} {
		cs, err := e.Store().FindCorrections(ctx, status)
		if err != nil {
			return nil, fmt.Errorf("heartbeat: corrections: %w", err)
		}
		for _, c := range cs {
			if c.Count < PromotionThreshold || ix.lessons[c.LessonKey] {
				continue
			}
			ix.lessons[c.LessonKey] = true
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LessonKey < out[j].LessonKey })
	return out, nil
}

// ageProposals proposes demotion and archiving by time since last use.
func (e *Engine) ageProposals(at time.Time, ix proposalIndex) []*Proposal {
	var out []*Proposal
	e.EachMemory(func(m *Memory) bool {
		if m.Status != StatusActive || ix.memOpen[m.ID] {
			return true
		}
		unused := UnusedFor(m, at)
		days := int(unused / (24 * time.Hour))
		tier := TierOf(m)
		switch {
		case unused >= ArchiveAfter:
			if ix.rejectedSince(m, ProposalArchive) {
				return true
			}
			out = append(out, withEvidence(&Proposal{Kind: ProposalArchive, MemoryID: m.ID, TargetType: string(TierCold),
				Proposer: ProposerHeartbeat, Status: ProposalPending, Confidence: 1,
				Reason: fmt.Sprintf("unused for %d days (archive after %d): %s → COLD archive", days, int(ArchiveAfter.Hours()/24), tier)}, m, at, nil))
		case unused >= DemoteAfter && at.Sub(ix.moved[m.ID]) >= DemoteAfter && (tier == TierHot || tier == TierWarm):
			if ix.rejectedSince(m, ProposalDemote) {
				return true
			}
			out = append(out, withEvidence(&Proposal{Kind: ProposalDemote, MemoryID: m.ID, TargetType: string(demoteTarget(tier)),
				Proposer: ProposerHeartbeat, Status: ProposalPending, Confidence: 1,
				Reason: fmt.Sprintf("unused for %d days (demote after %d): %s → %s", days, int(DemoteAfter.Hours()/24), tier, demoteTarget(tier))}, m, at, nil))
		default:
			return true
		}
		ix.memOpen[m.ID] = true
		return true
	})
	return out
}

// LifecycleEvidence is the verdict JSON of a demote or archive proposal:
// what the curator needs to judge it (the Curate tab adds the decay
// forecast from the forgetting math).
type LifecycleEvidence struct {
	File        string    `json:"file"`
	From        Tier      `json:"from"`
	To          Tier      `json:"to"`
	LastUse     time.Time `json:"last_use"`
	UnusedDays  int       `json:"unused_days"`
	AccessCount int       `json:"access_count"`
	Lines       int       `json:"lines,omitempty"` // the file's lines, for a cap proposal
	Cap         int       `json:"cap,omitempty"`
}

// withEvidence attaches the lifecycle evidence of m to p.
func withEvidence(p *Proposal, m *Memory, at time.Time, s *TierScope) *Proposal {
	ev := LifecycleEvidence{File: TierFile(m), From: TierOf(m), To: Tier(p.TargetType), LastUse: LastUse(m),
		UnusedDays: int(UnusedFor(m, at) / (24 * time.Hour)), AccessCount: m.AccessCount}
	if s != nil {
		ev.Lines, ev.Cap = s.Lines, s.Cap
	}
	p.Verdict, _ = json.Marshal(ev) // plain struct: cannot fail
	return p
}

// demoteTarget is one tier down.
func demoteTarget(t Tier) Tier {
	if t == TierHot {
		return TierWarm
	}
	return TierCold
}

// capProposals proposes demoting the least recently used memories of a HOT
// or WARM file over its line cap, as many as bring it back under the cap
// (counting the ones already proposed to leave).
func (e *Engine) capProposals(at time.Time, ix proposalIndex) []*Proposal {
	var out []*Proposal
	scopes := e.TierScopes()
	for si := range scopes {
		s := &scopes[si]
		if !s.Over() || s.Tier == TierCold {
			continue
		}
		excess := s.Lines - s.Cap
		var movable []Memory
		for _, id := range s.Memories {
			if ix.memOpen[id] {
				excess--
				continue
			}
			if m, ok := e.Memory(id); ok && m.Status == StatusActive {
				movable = append(movable, m)
			}
		}
		sort.SliceStable(movable, func(i, j int) bool {
			a, b := LastUse(&movable[i]), LastUse(&movable[j])
			if !a.Equal(b) {
				return a.Before(b)
			}
			return movable[i].ID < movable[j].ID
		})
		for i := 0; i < excess && i < len(movable); i++ {
			m := movable[i]
			out = append(out, withEvidence(&Proposal{Kind: ProposalDemote, MemoryID: m.ID, TargetType: string(demoteTarget(s.Tier)),
				Proposer: ProposerHeartbeat, Status: ProposalPending, Confidence: 1,
				Reason: fmt.Sprintf("%s over cap: %d/%d lines; least recently used (last use %s)", s.File, s.Lines, s.Cap,
					LastUse(&m).Format("2006-01-02"))}, &m, at, s))
			ix.memOpen[m.ID] = true
		}
	}
	return out
}
