package engine

import (
	"math"
	"time"
)

// DecayHelp explains the forgetting, recognition, ranking and association
// math. It is what `memtrace help decay` prints, word for word, and it is
// the documentation of the functions in this file and recognition.go (a
// test keeps the two from drifting apart).
//
// Forgetting — every memory fades unless it is used.
//
//	half-life   H = H_kind × (1 + 2·importance) × (1 + ln(1 + access_count))
//	            H_kind = HalfLifeFact for facts (default 180 days),
//	                     HalfLifeEpisode for everything else (default 14 days)
//	decay       d(t) = 2^(−Δt / H)   Δt = t − last access (creation if never
//	            accessed); Δt < 0 counts as 0, so d ≤ 1 always
//	forgotten   (drops out of free recall) when d(t) × importance <
//	            ForgetThreshold (default 0.05)
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
// Recognition — a specific cue finds what free recall has lost, for a while.
//
//	forgotten means "drops out of free recall": a query that does not cue
//	the memory specifically stops finding it. A query that does still
//	recognises it (encoding specificity), until recognition fades too.
//	cue_strength = Σ weight·idf of the query terms the memory was encoded with
//	               ÷ Σ weight·idf of all query terms; a term of the memory's
//	               own text counts 1, one said only next to it (a session
//	               neighbour, weighed as the lexical index weighs it) 0.5 at
//	               distance 1 and 0.3 at distance 2. cue_score is the same
//	               share over the memory's own text alone.
//	recognition r(t) = 2^(−Δt / (R·H)), R = RecognitionSpan = 4: recognition
//	            fades four times slower than free recall
//	unrecognisable when r(t) × importance < ForgetThreshold; the horizon is
//	            unrecognisable_at = last access + R × Δt*. An unused episode
//	            of importance 0.2 (H ≈ 20 days) drops out of free recall after
//	            about 40 days and is unrecognisable after about five months;
//	            a fact of importance 0.5 lasts about 3 and 13 years. Past the
//	            horizon not even the memory's own words find it.
//	recognised  when forgotten, not yet unrecognisable, and
//	            cue_strength ≥ RecognitionCue (0.25), or ≥ 0.5 for a question
//	            about now (what has left free recall is not current), or
//	            when it was created in a period the query names, or at 0.6
//	            of that cue when another memory of its session meets it
//	            (context reinstatement: one recognised part of an episode
//	            brings back the rest; note session_recognition); the trace
//	            says "recognised (forgotten in free recall on DATE, …)"
//	The words that express the intent ("요즘", "currently", "last time")
//	say when, not what: they are left out of cue_score and cue_strength.
//	a committed recall of a recognised memory records its access like any
//	survivor's, so it is back in free recall (reconsolidation).
//
// Ranking — age is a bounded prior, weighed by cue and temporal intent.
//
//	intent        what the query asks about in time: now ("these days",
//	              "currently", "요즘", "지금" …) β_intent = 1; a specific past
//	              event ("when did", "last time", "그때", "예전에" …) 0.1;
//	              anything else 0.25
//	decay_weight  β = β_intent × (1 − cue_strength)
//	retention     = 1 − β × (1 − d(t)), between 1 − β and 1
//	time_cue      1 when the memory was created in a period the query names
//	              ("in May 2023", "on 13 October 2023", "2026년 3월", "3월 7일"),
//	              else 0 (a date the memory is outside of does not count
//	              against it)
//	final_score   = relevance_score × retention × (1 + boost)
//	                × (1 + 0.5 × time_cue)
//
// A query that cues a memory fully ranks it by relevance alone, whatever its
// age; a vague question about now ranks by relevance × decay; a vague neutral
// one lets a stale memory lose at most a quarter of its score, so of two equally
// relevant memories the fresher and more important one (H grows with
// importance) comes first.
//
// Association — recalling a memory strengthens its neighbours.
//
//	on a committed recall of m, every active neighbour n with
//	cosine(m, n) ≥ AssocThreshold (τ, default 0.25) gets
//	            boost_n ← boost_n(now) + AssocBoost (default 0.5)
//	boost(t)    = boost × 2^(−(t − boost_at) / BoostHalfLife) (default 7 days)
//	            a neighbour is boosted at most once per recall.
const DecayHelp = `Forgetting — every memory fades unless it is used.

  half-life   H = H_kind × (1 + 2·importance) × (1 + ln(1 + access_count))
              H_kind = HalfLifeFact for facts (default 180 days),
                       HalfLifeEpisode for everything else (default 14 days)
  decay       d(t) = 2^(−Δt / H)   Δt = t − last access (creation if never
              accessed); Δt < 0 counts as 0, so d ≤ 1 always
  forgotten   (drops out of free recall) when d(t) × importance <
              ForgetThreshold (default 0.05)
  forecast    the closed form gives the moment of forgetting:
              Δt* = H × log2(importance / ForgetThreshold)
              forget_at = last access + Δt*; a memory whose importance is
              already ≤ ForgetThreshold is forgotten from its last access on.
              Recall at forget_at − 1 day keeps it; at + 1 day drops it.

Because H grows with importance and with every committed access, a fact of
importance 0.5 lasts years while an episode of the same importance is gone
in about three months; recalling a memory resets Δt and lengthens H.

Recognition — a specific cue finds what free recall has lost, for a while.

  forgotten means "drops out of free recall": a query that does not cue
  the memory specifically stops finding it. A query that does still
  recognises it (encoding specificity), until recognition fades too.
  cue_strength = Σ weight·idf of the query terms the memory was encoded with
                 ÷ Σ weight·idf of all query terms; a term of the memory's
                 own text counts 1, one said only next to it (a session
                 neighbour, weighed as the lexical index weighs it) 0.5 at
                 distance 1 and 0.3 at distance 2. cue_score is the same
                 share over the memory's own text alone.
  recognition r(t) = 2^(−Δt / (R·H)), R = RecognitionSpan = 4: recognition
              fades four times slower than free recall
  unrecognisable when r(t) × importance < ForgetThreshold; the horizon is
              unrecognisable_at = last access + R × Δt*. An unused episode
              of importance 0.2 (H ≈ 20 days) drops out of free recall after
              about 40 days and is unrecognisable after about five months;
              a fact of importance 0.5 lasts about 3 and 13 years. Past the
              horizon not even the memory's own words find it.
  recognised  when forgotten, not yet unrecognisable, and
              cue_strength ≥ RecognitionCue (0.25), or ≥ 0.5 for a question
              about now (what has left free recall is not current), or
              when it was created in a period the query names, or at 0.6
              of that cue when another memory of its session meets it
              (context reinstatement: one recognised part of an episode
              brings back the rest; note session_recognition); the trace
              says "recognised (forgotten in free recall on DATE, …)"
  The words that express the intent ("요즘", "currently", "last time")
  say when, not what: they are left out of cue_score and cue_strength.
  a committed recall of a recognised memory records its access like any
  survivor's, so it is back in free recall (reconsolidation).

Ranking — age is a bounded prior, weighed by cue and temporal intent.

  intent        what the query asks about in time: now ("these days",
                "currently", "요즘", "지금" …) β_intent = 1; a specific past
                event ("when did", "last time", "그때", "예전에" …) 0.1;
                anything else 0.25
  decay_weight  β = β_intent × (1 − cue_strength)
  retention     = 1 − β × (1 − d(t)), between 1 − β and 1
  time_cue      1 when the memory was created in a period the query names
                ("in May 2023", "on 13 October 2023", "2026년 3월", "3월 7일"),
                else 0 (a date the memory is outside of does not count
                against it)
  final_score   = relevance_score × retention × (1 + boost)
                  × (1 + 0.5 × time_cue)

A query that cues a memory fully ranks it by relevance alone, whatever its
age; a vague question about now ranks by relevance × decay; a vague neutral
one lets a stale memory lose at most a quarter of its score, so of two equally
relevant memories the fresher and more important one (H grows with
importance) comes first.

Association — recalling a memory strengthens its neighbours.

  on a committed recall of m, every active neighbour n with
  cosine(m, n) ≥ AssocThreshold (τ, default 0.25) gets
              boost_n ← boost_n(now) + AssocBoost (default 0.5)
  boost(t)    = boost × 2^(−(t − boost_at) / BoostHalfLife) (default 7 days)
              a neighbour is boosted at most once per recall.
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
	return hKind.Hours() * (1 + 2*Clamp01(m.Importance)) * (1 + math.Log1p(access))
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
	return DecayAt(m, at, cfg.withDefaults())
}

func DecayAt(m Memory, at time.Time, cfg Config) float64 {
	return curveAt(m, at, cfg, 1)
}

// curveAt is 2^(−Δt / (span × H)) since the anchor: free recall's decay at
// span 1, recognition's at RecognitionSpan.
func curveAt(m Memory, at time.Time, cfg Config, span float64) float64 {
	dt := at.Sub(anchor(m)).Hours()
	if dt <= 0 {
		return 1
	}
	h := span * halfLifeHours(m, cfg)
	if h <= 0 {
		return 0
	}
	return math.Exp2(-dt / h)
}

// Forgotten reports whether decay × importance < ForgetThreshold at at.
func Forgotten(m Memory, at time.Time, cfg Config) bool {
	cfg = cfg.withDefaults()
	return ForgottenAt(m, DecayAt(m, at, cfg), cfg)
}

func ForgottenAt(m Memory, decay float64, cfg Config) bool {
	return decay*Clamp01(m.Importance) < cfg.ForgetThreshold
}

// ForgetAt is the closed-form forecast of the moment m is forgotten if it
// is not accessed again: anchor + H × log2(importance / ForgetThreshold).
// A memory whose importance is at or below the threshold is forgotten from
// its anchor on. Before the returned time the memory is remembered; after
// it, forgotten. See DecayHelp.
func ForgetAt(m Memory, cfg Config) time.Time {
	return horizonAt(m, cfg.withDefaults(), 1)
}

// horizonAt is when curveAt(span) × importance falls below the threshold:
// anchor + span × H × log2(importance / ForgetThreshold).
func horizonAt(m Memory, cfg Config, span float64) time.Time {
	imp := Clamp01(m.Importance)
	a := anchor(m)
	if imp <= cfg.ForgetThreshold {
		return a
	}
	return a.Add(saturatingHours(span * halfLifeHours(m, cfg) * math.Log2(imp/cfg.ForgetThreshold)))
}

// boostAt is the association boost of m at time at: the stored boost
// halved every BoostHalfLife since m.BoostAt. It is the stored boost for
// any at before m.BoostAt. See DecayHelp.
func BoostAt(m Memory, at time.Time, cfg Config) float64 {
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
// memories compete with; retention is the bounded prior of Retention.
func FinalScore(relevance, retention, boost float64) float64 {
	return relevance * retention * (1 + boost)
}

func Clamp01(x float64) float64 {
	if x < 0 || math.IsNaN(x) {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}
