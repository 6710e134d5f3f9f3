package engine

import (
	"math"
	"time"

	"memtrace/engine/tuning"
)

// Recognition and the temporal ranking: how a specific cue finds what free
// recall has lost, until recognition fades too, and how much age weighs in
// the ranking. See DecayHelp (forgetting.go) for the closed forms and
// recall_cue.go for cue_strength. The defaults below are documented in
// engine/tuning; an engine reads its own from Config.Tuning.
const (
	RecognitionCue    = tuning.RecognitionCue
	RecognitionCueNow = tuning.RecognitionCueNow
	RecognitionSpan   = tuning.RecognitionSpan
)

// β_intent by temporal intent, the defaults of Config.Tuning's BetaNow,
// BetaNeutral and BetaPast (documented in engine/tuning).
const (
	DecayWeightNow     = tuning.DecayWeightNow
	DecayWeightNeutral = tuning.DecayWeightNeutral
	DecayWeightPast    = tuning.DecayWeightPast
)

// RecognitionDecay is r = 2^(−Δt/(R·H)): decay on the recognition
// half-life, R = RecognitionSpan times the free-recall one. See DecayHelp.
func RecognitionDecay(m Memory, at time.Time, cfg Config) float64 {
	return RecognitionDecayAt(m, at, cfg.withDefaults())
}

func RecognitionDecayAt(m Memory, at time.Time, cfg Config) float64 {
	return curveAt(m, at, cfg, cfg.Tuning.RecognitionSpan)
}

// Unrecognisable reports whether m is past its recognition horizon at at:
// r × importance < ForgetThreshold, so not even its own words find it.
func Unrecognisable(m Memory, at time.Time, cfg Config) bool {
	cfg = cfg.withDefaults()
	return BeyondRecognition(m, RecognitionDecayAt(m, at, cfg), cfg)
}

// BeyondRecognition is Unrecognisable given m's recognition decay r.
func BeyondRecognition(m Memory, recognition float64, cfg Config) bool {
	return ForgottenAt(m, recognition, cfg)
}

// UnrecognisableAt is the closed-form recognition horizon: anchor + R ×
// H × log2(importance / ForgetThreshold), R times as far from the last
// access as ForgetAt. Before it a specific cue still finds the memory;
// after it nothing does. A memory whose importance is at or below the
// threshold is unrecognisable from its anchor on. See DecayHelp.
func UnrecognisableAt(m Memory, cfg Config) time.Time {
	cfg = cfg.withDefaults()
	return horizonAt(m, cfg, cfg.Tuning.RecognitionSpan)
}

// saturatingHours converts hours to a Duration, saturating near 292 years
// (nothing memtrace keeps lives longer).
func saturatingHours(hours float64) time.Duration {
	const maxHours = float64(math.MaxInt64/int64(time.Hour)) - 1
	if hours > maxHours {
		hours = maxHours
	}
	return time.Duration(hours * float64(time.Hour))
}

// DecayWeight is β = β_intent × (1 − cue_strength): how much decay weighs
// in the ranking of a memory the query cues with cue_strength cue.
func DecayWeight(intent TemporalIntent, cue float64, cfg Config) float64 {
	return IntentDecayWeight(intent, cfg) * (1 - Clamp01(cue))
}

// Retention is the bounded prior a memory ranks with: 1 − β × (1 − decay),
// between 1 − β and 1, with β = DecayWeight. See DecayHelp.
func Retention(decay, weight float64) float64 {
	return 1 - Clamp01(weight)*(1-Clamp01(decay))
}

// RecognisedBy reports whether a memory forgotten in free recall (and still
// recognisable) is recognised by a query of the given temporal intent
// cueing it with cue_strength cue (≥ RecognitionCue), under cfg: a
// question about now asks for what is current, and a memory that has left
// free recall is not, unless the query cues it twice as strongly
// (RecognitionCueNow).
func RecognisedBy(intent TemporalIntent, cue float64, cfg Config) bool {
	if intent == IntentNow {
		return cue >= cfg.Tuning.RecognitionCueNow
	}
	return cue >= cfg.Tuning.RecognitionCue
}
