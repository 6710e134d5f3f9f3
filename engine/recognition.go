package engine

import (
	"math"
	"time"
)

// Recognition and the temporal ranking: how a specific cue finds what free
// recall has lost, until recognition fades too, and how much age weighs in
// the ranking. See DecayHelp (forgetting.go) for the closed forms and
// recall_cue.go for cue_strength.
const (
	// RecognitionCue is the cue_strength at or above which a memory
	// forgotten in free recall is recognised by the query: a quarter of
	// the query's rare words said in the memory or next to it. A loose
	// question ("요즘 뭐 먹었지") stays below it and forgets.
	RecognitionCue = 0.25
	// RecognitionCueNow is RecognitionCue for a query about now
	// (IntentNow): twice the cue, half the query's rare words.
	RecognitionCueNow = 0.5
	// RecognitionSpan (R): recognition fades R times slower than free
	// recall, so a memory is unrecognisable R times as long after its last
	// access as it drops out of free recall. Recognition outlasting recall
	// by years is the classic finding (Bahrick, Bahrick & Wittlinger 1975:
	// classmates' names recognised decades after they can no longer be
	// recalled); 4 makes an unimportant episode unrecognisable within
	// months and a fact a decade on.
	RecognitionSpan = 4.0
)

// β_intent: how much decay weighs in the ranking of a query that does not
// cue the memory at all (cue_strength 0), by the query's temporal intent
// (QueryIntent). A query about now weighs it fully (the old multiplier); a
// neutral one lets a stale memory lose at most a quarter of its score, so
// age decides between memories the query finds about equally relevant; a
// question about a past event uses age only to break ties between equals.
// Measured, not tuned, on LoCoMo (bench locomo, pipeline R@5/R@10, recall
// a day after the last session): 0.25 → .677/.754, 0.5 → .672/.746 —
// LoCoMo's questions are specific, so any weight costs there; 0.25 is
// the product's choice of how much a vague question should prefer fresh.
const (
	DecayWeightNow     = 1.0
	DecayWeightNeutral = 0.25
	DecayWeightPast    = 0.1
)

// RecognitionDecay is r = 2^(−Δt/(R·H)): decay on the recognition
// half-life, R = RecognitionSpan times the free-recall one. See DecayHelp.
func RecognitionDecay(m Memory, at time.Time, cfg Config) float64 {
	return RecognitionDecayAt(m, at, cfg.withDefaults())
}

func RecognitionDecayAt(m Memory, at time.Time, cfg Config) float64 {
	return curveAt(m, at, cfg, RecognitionSpan)
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
	return horizonAt(m, cfg.withDefaults(), RecognitionSpan)
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
func DecayWeight(intent TemporalIntent, cue float64) float64 {
	return IntentDecayWeight(intent) * (1 - Clamp01(cue))
}

// Retention is the bounded prior a memory ranks with: 1 − β × (1 − decay),
// between 1 − β and 1, with β = DecayWeight. See DecayHelp.
func Retention(decay, weight float64) float64 {
	return 1 - Clamp01(weight)*(1-Clamp01(decay))
}

// Recognised reports whether a memory forgotten in free recall (and still
// recognisable) is recognised by a query cueing it with cue_strength cue.
func Recognised(cue float64) bool { return cue >= RecognitionCue }

// RecognisedBy is Recognised for a query of the given temporal intent: a
// question about now asks for what is current, and a memory that has left
// free recall is not, unless the query cues it twice as strongly
// (RecognitionCueNow).
func RecognisedBy(intent TemporalIntent, cue float64) bool {
	if intent == IntentNow {
		return cue >= RecognitionCueNow
	}
	return Recognised(cue)
}
