package tiers

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"time"

	"memtrace/engine"
	"memtrace/recall"
)

// The heartbeat's lifecycle rules (seed 002 read with seed 003's forgetting
// model). HeartbeatHelp documents them with their numbers; it is what
// `memtrace help heartbeat` prints.
const (
	// RuleHotUnused: a HOT memory unused DemoteAfter (and DemoteAfter since
	// it was last moved into HOT) → demote to WARM.
	RuleHotUnused = "hot_unused"
	// RuleForgotten: a WARM memory whose forecast date (ForgetAt) has passed
	// at the heartbeat's time, unused DemoteAfter and DemoteAfter since it
	// was last moved → archive to COLD.
	RuleForgotten = "forgotten"
	// RuleOverCap: a HOT or WARM file over its line cap → demote the
	// memories the model forgets first until it fits.
	RuleOverCap = "over_cap"
	// RuleVitalReview: a vital memory (Vital) unused ArchiveAfter → a
	// review note (a keep proposal: approving it moves nothing).
	RuleVitalReview = "vital_review"
	// RuleLessonRepeated: a lesson seen PromotionThreshold times → promote.
	RuleLessonRepeated = "lesson_repeated"

	// VitalPreferenceImportance is the importance at or above which a
	// stated preference is vital.
	VitalPreferenceImportance = 0.7
	// DefaultMaxShare is the share of the active memories the age rules may
	// keep waiting for the curator at once (--max-share).
	DefaultMaxShare = 0.10
	// MinShareBudget is the least the share cap allows (a small store still
	// gets a curator's session's worth).
	MinShareBudget = 10
)

// HeartbeatHelp is `memtrace help heartbeat`.
const HeartbeatHelp = `The heartbeat proposes lifecycle moves; a curator approves each one. It
never moves a memory itself, and a second pass proposes nothing new.

Rules (at the heartbeat's time T; "unused" = T − last recall, or creation):

  hot_unused       a HOT memory unused ≥ 30 days, and ≥ 30 days since it was
                   last moved into HOT                    → demote HOT → WARM
  forgotten        a WARM memory whose forecast date (forget_at, see
                   memtrace help decay) is before T, unused ≥ 30 days and
                   ≥ 30 days since it was last moved       → archive → COLD
  over_cap         a HOT (100 lines) or WARM (200 lines) file over its cap
                   → demote the memories the forecast forgets first (vital
                   ones last) until it fits
  vital_review     a vital memory unused ≥ 90 days → a review note (kind
                   keep): approving it confirms the memory, nothing moves
  lesson_repeated  a lesson seen 3 times → promote to a HOT rule

Vital memories are never demoted or archived by non-use: type health or
identity at any importance, and type preference of importance ≥ 0.7.
An archive needs the decay model to have forgotten the memory: non-use
alone archives nothing.

No proposal fights another: a memory with an open proposal gets no second
one of a conflicting kind (a move beside a move, promote, retype, restore
or quarantine; quarantine beside anything; retype beside keep). Applying a
proposal (approve, apply, the Curate tab) withdraws the open ones it makes
moot (status withdrawn, with an audit row under its batch); rolling that
batch back returns them to the status they had. A proposal rejected after
the memory's last use is not proposed again until the memory is used.

Ranking: every proposal carries its evidence (rule, last use, access
count, importance, forecast date, reach) and a score:

  reach  = access_count + association degree (active neighbours with
           cosine ≥ AssocThreshold among the 32 nearest)
  score  = importance × (1 + reach)

The report and the Curate queues show the highest score first. The age
rules (hot_unused, forgotten, vital_review) keep at most --max-share of the
active memories (default 10 %, at least 10) waiting at once, counting the
proposals already pending; the rest are reported as waiting, and the next pass after
the curator decides proposes them. Promotions and over_cap demotions are
required by the rules and not capped.
`

// Vital reports whether m is protected from moves on non-use alone: health
// and identity memories, and preferences of importance ≥
// VitalPreferenceImportance.
func Vital(m *engine.Memory) bool {
	switch m.Type {
	case "health", "identity":
		return true
	case "preference":
		return m.Importance >= VitalPreferenceImportance
	}
	return false
}

// ProposalScore is the rank of a proposal in the report and the Curate
// queues: its evidence's score (importance × (1 + reach)), 0 without one.
func ProposalScore(p *engine.Proposal) float64 {
	if len(p.Verdict) == 0 {
		return 0
	}
	var ev struct {
		Score float64 `json:"score"`
	}
	if err := json.Unmarshal(p.Verdict, &ev); err != nil {
		return 0
	}
	return ev.Score
}

// SortProposalsByScore orders ps by score, highest first (stable: equal
// scores keep their order).
func SortProposalsByScore(ps []*engine.Proposal) {
	sort.SliceStable(ps, func(i, j int) bool { return ProposalScore(ps[i]) > ProposalScore(ps[j]) })
}

// reach is access_count + association degree of m.
func reach(e *engine.Engine, m *engine.Memory) (reach, degree int) {
	degree = len(recall.Associations(e, m.ID))
	return m.AccessCount + degree, degree
}

// lifecycleCandidate is a proposal the age rules would write, before the
// share cap.
type lifecycleCandidate struct {
	p     *engine.Proposal
	score float64
}

// ageProposals applies the age rules (hot_unused, forgotten, vital_review)
// to every active memory without a conflicting open proposal.
func ageProposals(e *engine.Engine, at time.Time, ix proposalIndex) []lifecycleCandidate {
	var out []lifecycleCandidate
	cfg := e.Config()
	e.EachMemory(func(m *engine.Memory) bool {
		if m.Status != engine.StatusActive {
			return true
		}
		unused := engine.UnusedFor(m, at)
		days := int(unused / (24 * time.Hour))
		tier := engine.TierOf(m)
		settled := at.Sub(ix.moved[m.ID]) >= engine.DemoteAfter
		forget := engine.ForgetAt(*m, cfg)
		var p *engine.Proposal
		var rule string
		switch {
		case Vital(m):
			if unused < engine.ArchiveAfter || ix.blocks(m.ID, engine.ProposalKeep) || ix.decidedSince(m, engine.ProposalKeep) {
				return true
			}
			rule = RuleVitalReview
			p = &engine.Proposal{Kind: engine.ProposalKeep, MemoryID: m.ID,
				Reason: fmt.Sprintf("review: %s memory (importance %.2f) unused for %d days; vital, so not moved — confirm it is still true, or edit it",
					m.Type, m.Importance, days)}
		case tier == engine.TierHot && unused >= engine.DemoteAfter && settled:
			if ix.blocks(m.ID, engine.ProposalDemote) || ix.decidedSince(m, engine.ProposalDemote) {
				return true
			}
			rule = RuleHotUnused
			p = &engine.Proposal{Kind: engine.ProposalDemote, MemoryID: m.ID, TargetType: string(engine.TierWarm),
				Reason: fmt.Sprintf("unused for %d days (demote after %d): HOT → WARM", days, int(engine.DemoteAfter.Hours()/24))}
		case tier == engine.TierWarm && forget.Before(at) && unused >= engine.DemoteAfter && settled:
			if ix.blocks(m.ID, engine.ProposalArchive) || ix.decidedSince(m, engine.ProposalArchive) {
				return true
			}
			rule = RuleForgotten
			p = &engine.Proposal{Kind: engine.ProposalArchive, MemoryID: m.ID, TargetType: string(engine.TierCold),
				Reason: fmt.Sprintf("forgotten by the decay model on %s, unused for %d days: WARM → COLD archive", forget.Format("2006-01-02"), days)}
		default:
			return true
		}
		p.Proposer, p.Status, p.Confidence = engine.ProposerHeartbeat, engine.ProposalPending, 1
		ev := evidence(e, p, m, at, rule, nil)
		out = append(out, lifecycleCandidate{p: withLifecycleEvidence(p, ev), score: ev.Score})
		return true
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].p.MemoryID < out[j].p.MemoryID
	})
	return out
}

// evidence is what a curator needs to judge a lifecycle proposal for m.
func evidence(e *engine.Engine, p *engine.Proposal, m *engine.Memory, at time.Time, rule string, s *engine.TierScope) LifecycleEvidence {
	reach, degree := reach(e, m)
	ev := LifecycleEvidence{File: engine.TierFile(m), From: engine.TierOf(m), To: engine.Tier(p.TargetType), LastUse: engine.LastUse(m),
		UnusedDays: int(engine.UnusedFor(m, at) / (24 * time.Hour)), AccessCount: m.AccessCount,
		Rule: rule, Type: m.Type, Importance: m.Importance, ForgetAt: engine.ForgetAt(*m, e.Config()), Vital: Vital(m),
		Degree: degree, Reach: reach, Score: math.Round(m.Importance*float64(1+reach)*1000) / 1000}
	if p.Kind == engine.ProposalKeep {
		ev.To = ev.From
	}
	if s != nil {
		ev.Lines, ev.Cap = s.Lines, s.Cap
	}
	return ev
}

// shareLimit is how many age-rule proposals may wait at once: share of the
// active memories, at least MinShareBudget.
func shareLimit(active int, share float64) int {
	return max(MinShareBudget, int(math.Floor(float64(active)*share)))
}

// shareBudget is how many age-rule proposals may wait at once: share of the
// active memories (at least one when there are any), less those pending.
func shareBudget(active int, share float64, pending int) int {
	if share <= 0 {
		share = DefaultMaxShare
	}
	return max(0, shareLimit(active, share)-pending)
}
