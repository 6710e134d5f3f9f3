package engine

import (
	"math"
	"time"
)

// DecayHelp explains the forgetting and association math. It is what
// `memtrace help decay` prints, word for word, and it is the documentation
// of the functions in this file (a test keeps the two from drifting apart).
//
// Forgetting — every memory fades unless it is used.
//
//	half-life   H = H_kind × (1 + 2·importance) × (1 + ln(1 + access_count))
//	            H_kind = HalfLifeFact for facts (default 180 days),
//	                     HalfLifeEpisode for everything else (default 14 days)
//	decay       d(t) = 2^(−Δt / H)   Δt = t − last access (creation if never
//	            accessed); Δt < 0 counts as 0, so d ≤ 1 always
//	forgotten   when d(t) × importance < ForgetThreshold (default 0.05)
//	forecast    the closed form gives the moment of forgetting:
//	            Δt* = H × log2(importance / ForgetThreshold)
//	            forget_at = last access + Δt*; a memory whose importance is
//	            already ≤ ForgetThreshold is forgotten from its last access on.
//	            Recall at forget_at − 1 day keeps it; at + 1 day drops it.
//
// Because H grows with importance and with every committed access, a fact of
// importance 0.5 lasts years while an episode of the same importance is gone
// in about three months; recalling a memory resets Δt and lengthens H.
//
// Association — recalling a memory strengthens its neighbours.
//
//	on a committed recall of m, every active neighbour n with
//	cosine(m, n) ≥ AssocThreshold (τ, default 0.25) gets
//	            boost_n ← boost_n(now) + AssocBoost (default 0.5)
//	boost(t)    = boost × 2^(−(t − boost_at) / BoostHalfLife) (default 7 days)
//	            a neighbour is boosted at most once per recall.
//
// Recognition — a specific cue finds what free recall has lost.
//
//	forgotten means "drops out of free recall": forget_at is when a query
//	that does not cue the memory specifically stops finding it. A query
//	that does still recognises it (encoding specificity):
//	cue_score   = Σ weight·idf of the query terms in the memory's OWN text
//	              ÷ Σ weight·idf of all query terms (its session context
//	              does not count)
//	recognised  when forgotten and cue_score ≥ RecognitionCue (0.25); the
//	            trace says "recognised (forgotten in free recall on DATE)"
//	retention   = max(decay, min(0.6, ρ·cue_score²)), ρ = 8: a cue carrying
//	              ≥ 27% of the query's idf mass restores the memory to 0.6
//	              of a fresh one's strength — recognised, but known to be old
//	a committed recall of a recognised memory records its access like any
//	survivor's, so it is back in free recall (reconsolidation).
//
// Ranking — the score a recalled memory competes with:
//
//	final_score = relevance_score × retention × (1 + boost)
const DecayHelp = `Forgetting — every memory fades unless it is used.

  half-life   H = H_kind × (1 + 2·importance) × (1 + ln(1 + access_count))
              H_kind = HalfLifeFact for facts (default 180 days),
                       HalfLifeEpisode for everything else (default 14 days)
  decay       d(t) = 2^(−Δt / H)   Δt = t − last access (creation if never
              accessed); Δt < 0 counts as 0, so d ≤ 1 always
  forgotten   when d(t) × importance < ForgetThreshold (default 0.05)
  forecast    the closed form gives the moment of forgetting:
              Δt* = H × log2(importance / ForgetThreshold)
              forget_at = last access + Δt*; a memory whose importance is
              already ≤ ForgetThreshold is forgotten from its last access on.
              Recall at forget_at − 1 day keeps it; at + 1 day drops it.

Because H grows with importance and with every committed access, a fact of
importance 0.5 lasts years while an episode of the same importance is gone
in about three months; recalling a memory resets Δt and lengthens H.

Association — recalling a memory strengthens its neighbours.

  on a committed recall of m, every active neighbour n with
  cosine(m, n) ≥ AssocThreshold (τ, default 0.25) gets
              boost_n ← boost_n(now) + AssocBoost (default 0.5)
  boost(t)    = boost × 2^(−(t − boost_at) / BoostHalfLife) (default 7 days)
              a neighbour is boosted at most once per recall.

Recognition — a specific cue finds what free recall has lost.

  forgotten means "drops out of free recall": forget_at is when a query
  that does not cue the memory specifically stops finding it. A query
  that does still recognises it (encoding specificity):
  cue_score   = Σ weight·idf of the query terms in the memory's OWN text
                ÷ Σ weight·idf of all query terms (its session context
                does not count)
  recognised  when forgotten and cue_score ≥ RecognitionCue (0.25); the
              trace says "recognised (forgotten in free recall on DATE)"
  retention   = max(decay, min(0.6, ρ·cue_score²)), ρ = 8: a cue carrying
                ≥ 27% of the query's idf mass restores the memory to 0.6
                of a fresh one's strength — recognised, but known to be old
  a committed recall of a recognised memory records its access like any
  survivor's, so it is back in free recall (reconsolidation).

Ranking — the score a recalled memory competes with:

  final_score = relevance_score × retention × (1 + boost)
`

// HalfLife is H = H_kind × (1 + 2·importance) × (1 + ln(1 + access_count)).
// See DecayHelp.
func HalfLife(m Memory, cfg Config) time.Duration {
	return time.Duration(halfLifeHours(m, cfg.withDefaults()) * float64(time.Hour))
}

// halfLifeHours is HalfLife in hours for a config that already has its
// defaults (the recall hot path calls it once per candidate).
func halfLifeHours(m Memory, cfg Config) float64 {
	hKind := cfg.HalfLifeEpisode
	if m.Kind == KindFact {
		hKind = cfg.HalfLifeFact
	}
	access := math.Max(0, float64(m.AccessCount))
	return hKind.Hours() * (1 + 2*clamp01(m.Importance)) * (1 + math.Log1p(access))
}

// anchor is the moment decay counts from: the last access, or the creation
// when the memory was never accessed (or the access time is older).
func anchor(m Memory) time.Time {
	if m.LastAccessedAt.After(m.CreatedAt) {
		return m.LastAccessedAt
	}
	return m.CreatedAt
}

// Decay is d = 2^(−Δt/H), Δt from the last access (or creation) to at.
// It is 1 at the anchor and for any at before it. See DecayHelp.
func Decay(m Memory, at time.Time, cfg Config) float64 {
	return decayAt(m, at, cfg.withDefaults())
}

func decayAt(m Memory, at time.Time, cfg Config) float64 {
	dt := at.Sub(anchor(m)).Hours()
	if dt <= 0 {
		return 1
	}
	h := halfLifeHours(m, cfg)
	if h <= 0 {
		return 0
	}
	return math.Exp2(-dt / h)
}

// Forgotten reports whether decay × importance < ForgetThreshold at at.
func Forgotten(m Memory, at time.Time, cfg Config) bool {
	cfg = cfg.withDefaults()
	return forgottenAt(m, decayAt(m, at, cfg), cfg)
}

func forgottenAt(m Memory, decay float64, cfg Config) bool {
	return decay*clamp01(m.Importance) < cfg.ForgetThreshold
}

// ForgetAt is the closed-form forecast of the moment m is forgotten if it
// is not accessed again: anchor + H × log2(importance / ForgetThreshold).
// A memory whose importance is at or below the threshold is forgotten from
// its anchor on. Before the returned time the memory is remembered; after
// it, forgotten. See DecayHelp.
func ForgetAt(m Memory, cfg Config) time.Time {
	cfg = cfg.withDefaults()
	imp := clamp01(m.Importance)
	a := anchor(m)
	if imp <= cfg.ForgetThreshold {
		return a
	}
	hours := halfLifeHours(m, cfg) * math.Log2(imp/cfg.ForgetThreshold)
	// Durations saturate near 292 years; nothing memtrace keeps lives longer.
	const maxHours = float64(math.MaxInt64/int64(time.Hour)) - 1
	if hours > maxHours {
		hours = maxHours
	}
	return a.Add(time.Duration(hours * float64(time.Hour)))
}

// boostAt is the association boost of m at time at: the stored boost
// halved every BoostHalfLife since m.BoostAt. It is the stored boost for
// any at before m.BoostAt. See DecayHelp.
func boostAt(m Memory, at time.Time, cfg Config) float64 {
	if m.Boost <= 0 {
		return 0
	}
	dt := at.Sub(m.BoostAt).Hours()
	if dt <= 0 || m.BoostAt.IsZero() {
		return m.Boost
	}
	return m.Boost * math.Exp2(-dt/cfg.BoostHalfLife.Hours())
}

// FinalScore is relevance × retention × (1 + boost), the score recalled
// memories compete with; retention is decay, or more for a memory the
// query recognises (see Retention).
func FinalScore(relevance, retention, boost float64) float64 {
	return relevance * retention * (1 + boost)
}

func clamp01(x float64) float64 {
	if x < 0 || math.IsNaN(x) {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// Recognition: how a specific cue brings back a forgotten memory. See
// DecayHelp and recall_cue.go.
const (
	// RecognitionCue is the cue_score at or above which a memory forgotten
	// in free recall is recognised by the query. Measured on LoCoMo (turns
	// as episodes, asked a day after the last session; pipeline R@5/10/25/50):
	// 0.10 → .619/.691/.770/.801, 0.20 → .618/.688/.755/.779,
	// 0.25 → .616/.682/.737/.754, 0.30 → .610/.670/.722/.735,
	// 0.50 → .552/.599/.642/.648; without recognition .288/.371/.440/.447.
	// 0.25 keeps "a quarter of the query's rare words" as the meaning of a
	// specific cue, so a loose question ("요즘 뭐 먹었지") still forgets.
	RecognitionCue = 0.25
	// RecognitionStrength (ρ): retention = max(decay, min(ceiling, ρ·cue²)).
	// With 8 a cue of 0.35 restores full strength (ρ = 1, 2, 4 gave LoCoMo
	// R@10 .625, .645, .660 at a 0.30 threshold against .670 for 8).
	RecognitionStrength = 8.0
	// RecognitionCeiling caps what recognition restores: a recognised
	// memory ranks at most at 0.6 of a fresh one of equal relevance, so an
	// old memory never passes for a current one (seed 003: stale facts
	// answered as fresh are the failure forgetting prevents) and the split
	// view shows it falling. LoCoMo pipeline R@5/R@10 by ceiling: 1.0 →
	// .616/.682, 0.8 → .613/.680, 0.6 → .591/.672, 0.5 → .564/.664 (DRAGON
	// .567/.662); 0.6 is the lowest that stays above DRAGON at both.
	RecognitionCeiling = 0.6
)

// Retention is the weight a memory ranks with in recall:
// max(decay, min(RecognitionCeiling, ρ·cue_score²)). Without a specific cue it is the decay; a
// specific cue lifts it, the more so the more of the query the memory
// itself says. See DecayHelp.
func Retention(decay, cue float64) float64 {
	cue = clamp01(cue)
	return max(decay, min(RecognitionCeiling, RecognitionStrength*cue*cue))
}

// Recognised reports whether a memory forgotten in free recall is
// recognised by a query cueing it with cue_score cue.
func Recognised(cue float64) bool { return cue >= RecognitionCue }
