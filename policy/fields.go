// Package policy is the memory policy file: every tunable of engine.Config
// (its Tuning included) as one documented YAML schema, decoded strictly (an unknown key is an
// error naming its line and the valid keys), validated against ranges and
// compared key by key. A database records the policy it runs with (the
// text of Encode under the setting curate.SettingPolicy, written by
// curate.SetPolicy); every engine open on it uses that policy.
package policy

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"memtrace/engine"
)

// Phase says when a tunable acts: capture-time tunables affect new
// captures only (what is stored stays as it was decided); recall-time
// tunables act on every recall, over every memory already stored.
type Phase string

const (
	Capture Phase = "capture"
	Recall  Phase = "recall"
)

// kind is how a field is spelt in the file.
type kind int

const (
	kFloat kind = iota
	kInt
	kDuration
	kEnum
)

// field is one tunable: its key in the file (section.name), its unit and
// range, when it acts, and how it reads and writes engine.Config.
type field struct {
	Key      string
	Kind     kind
	Phase    Phase
	Min, Max float64 // inclusive; durations in hours
	Enum     []string
	Doc      string // what it does and the closed form it enters
	get      func(*engine.Config) any
	set      func(*engine.Config, any)
}

func fl(key string, ph Phase, lo, hi float64, doc string, p func(*engine.Config) *float64) field {
	return field{Key: key, Kind: kFloat, Phase: ph, Min: lo, Max: hi, Doc: doc,
		get: func(c *engine.Config) any { return *p(c) }, set: func(c *engine.Config, v any) { *p(c) = v.(float64) }}
}

func in(key string, ph Phase, lo, hi float64, doc string, p func(*engine.Config) *int) field {
	return field{Key: key, Kind: kInt, Phase: ph, Min: lo, Max: hi, Doc: doc,
		get: func(c *engine.Config) any { return *p(c) }, set: func(c *engine.Config, v any) { *p(c) = v.(int) }}
}

func du(key string, ph Phase, loH, hiH float64, doc string, p func(*engine.Config) *time.Duration) field {
	return field{Key: key, Kind: kDuration, Phase: ph, Min: loH, Max: hiH, Doc: doc,
		get: func(c *engine.Config) any { return *p(c) }, set: func(c *engine.Config, v any) { *p(c) = v.(time.Duration) }}
}

const day = 24.0 // hours

// The minimum of every key is above zero: engine.Config reads a zero as
// "the default".

// fields is the schema, in file order. Every field of engine.Config and
// of its Tuning is here (TestEveryConfigFieldInSchema).
var fields = []field{
	{Key: "capture.detail", Kind: kEnum, Phase: Capture, Enum: []string{engine.DetailHigh, engine.DetailMedium, engine.DetailLow},
		Doc: "judge detail level: high (lenient), medium, low (strict)",
		get: func(c *engine.Config) any { return c.Detail }, set: func(c *engine.Config, v any) { c.Detail = v.(string) }},
	fl("capture.dedupe_similarity", Capture, 0.5, 1, "cosine ≥ this reinforces an existing active memory instead of storing a new one; raised per embedder (help embedder)",
		func(c *engine.Config) *float64 { return &c.DedupeSimilarity }),
	fl("capture.gate_similarity", Capture, 0.01, 1, "minimum calibrated similarity to a declaration type's exemplars; moved per embedder when not between exemplars and plain statements (help embedder)",
		func(c *engine.Config) *float64 { return &c.GateSimilarity }),
	du("forgetting.half_life_fact", Recall, 1, 100*365*day, "h in decay = 2^(−Δt/h) for facts, preferences, rules, lessons",
		func(c *engine.Config) *time.Duration { return &c.HalfLifeFact }),
	du("forgetting.half_life_episode", Recall, 1, 100*365*day, "h in decay = 2^(−Δt/h) for episodes",
		func(c *engine.Config) *time.Duration { return &c.HalfLifeEpisode }),
	fl("forgetting.threshold", Recall, 0.0001, 1, "forgotten when decay × importance < this",
		func(c *engine.Config) *float64 { return &c.ForgetThreshold }),
	fl("association.threshold", Recall, 0.01, 1, "τ: neighbours with cosine ≥ τ of a committed recall gain the boost",
		func(c *engine.Config) *float64 { return &c.AssocThreshold }),
	fl("association.boost", Recall, 0.0001, 10, "boost added per committed recall (written by recall --commit-access)",
		func(c *engine.Config) *float64 { return &c.AssocBoost }),
	du("association.boost_half_life", Recall, 1, 100*365*day, "boost(t) = boost · 2^(−Δt/h)",
		func(c *engine.Config) *time.Duration { return &c.BoostHalfLife }),
	in("recall.k", Recall, 1, 1000, "memories returned at most", func(c *engine.Config) *int { return &c.K }),
	in("recall.budget", Recall, 1, 1_000_000, "token budget of the answer", func(c *engine.Config) *int { return &c.Budget }),
	in("recall.candidate_pool", Recall, 1, 100_000, "lexical and vector top-N each, before fusion",
		func(c *engine.Config) *int { return &c.CandidatePool }),
	fl("recall.mmr_lambda", Recall, 0.0001, 1, "MMR: λ·relevance − (1−λ)·max similarity to those chosen",
		func(c *engine.Config) *float64 { return &c.MMRLambda }),
	in("recall.guaranteed_cap", Recall, 1, 100, "HOT-tier memories the guaranteed channel adds at most",
		func(c *engine.Config) *int { return &c.GuaranteedCap }),
	fl("recall.guaranteed_gate", Recall, 0.0001, 1, "minimum relevance of a guaranteed item",
		func(c *engine.Config) *float64 { return &c.GuaranteedGate }),
	in("recall.trace_keep", Recall, 1, 1_000_000, "stored recall traces kept for the TUI",
		func(c *engine.Config) *int { return &c.TraceKeep }),
	fl("recall.time_cue_boost", Recall, 0.0001, 10, "final_score × (1 + this × time_cue): a memory of a period the query names",
		func(c *engine.Config) *float64 { return &c.Tuning.TimeCueBoost }),
	// engine.Config.Tuning (engine/tuning): memtrace help relevance, help decay.
	fl("rerank.w_lexical_hashed", Recall, 0.0001, 1, "w in relevance_score = w·bm25_norm_score + (1−w)·cosine_score, under an embedder that measures words (hashed)",
		func(c *engine.Config) *float64 { return &c.Tuning.WLexicalLexical }),
	fl("rerank.w_lexical_semantic", Recall, 0.0001, 1, "the same w under an embedder that measures meaning (ollama:MODEL)",
		func(c *engine.Config) *float64 { return &c.Tuning.WLexicalSemantic }),
	fl("rerank.relevance_floor", Recall, 0.0001, 1, "a retrieved item leaves (below_floor) when relevance_score < this",
		func(c *engine.Config) *float64 { return &c.Tuning.RelevanceFloor }),
	fl("gate.min_idf_share", Recall, 0.0001, 1, "lexical evidence: idf_share_score ≥ this (else low_idf_share)",
		func(c *engine.Config) *float64 { return &c.Tuning.MinIDFShare }),
	fl("gate.vector_only_cosine", Recall, 0.0001, 1, "vector evidence: specific_cosine_score ≥ this; a period's memory needs half of it",
		func(c *engine.Config) *float64 { return &c.Tuning.VectorOnlyCosine }),
	fl("retention.beta_now", Recall, 0.0001, 1, "β_intent of a query about now in retention = 1 − β_intent·(1 − cue_strength)·(1 − d(t))",
		func(c *engine.Config) *float64 { return &c.Tuning.BetaNow }),
	fl("retention.beta_neutral", Recall, 0.0001, 1, "β_intent of a query with no temporal intent",
		func(c *engine.Config) *float64 { return &c.Tuning.BetaNeutral }),
	fl("retention.beta_past", Recall, 0.0001, 1, "β_intent of a query about a past event",
		func(c *engine.Config) *float64 { return &c.Tuning.BetaPast }),
	fl("recognition.span", Recall, 1, 100, "R, the horizon factor: r(t) = 2^(−Δt/(R·H)), unrecognisable_at = anchor + R·H·log2(importance/threshold)",
		func(c *engine.Config) *float64 { return &c.Tuning.RecognitionSpan }),
	fl("recognition.cue", Recall, 0.0001, 1, "a forgotten memory is recognised when cue_strength ≥ this",
		func(c *engine.Config) *float64 { return &c.Tuning.RecognitionCue }),
	fl("recognition.cue_now", Recall, 0.0001, 1, "the same for a query about now",
		func(c *engine.Config) *float64 { return &c.Tuning.RecognitionCueNow }),
	fl("expansion.concept", Recall, 0.0001, 1, "weight(partner) = this × weight(term): concept-table partners",
		func(c *engine.Config) *float64 { return &c.Tuning.ConceptWeight }),
	fl("expansion.synonym", Recall, 0.0001, 1, "the same for WordNet synonyms",
		func(c *engine.Config) *float64 { return &c.Tuning.SynonymWeight }),
	fl("expansion.hyponym", Recall, 0.0001, 1, "the same for WordNet hyponyms",
		func(c *engine.Config) *float64 { return &c.Tuning.HyponymWeight }),
	fl("expansion.hyponym2", Recall, 0.0001, 1, "the same for WordNet hyponyms of hyponyms",
		func(c *engine.Config) *float64 { return &c.Tuning.Hyponym2Weight }),
	fl("expansion.two_hop", Recall, 0.0001, 1, "a two-hop entity's BM25 weight; two_hop_score = this × the seed's relevance_score",
		func(c *engine.Config) *float64 { return &c.Tuning.TwoHopWeight }),
}

// Keys returns every key of the schema, in file order.
func Keys() []string {
	ks := make([]string, len(fields))
	for i, f := range fields {
		ks[i] = f.Key
	}
	return ks
}

func lookup(key string) (*field, bool) {
	for i := range fields {
		if fields[i].Key == key {
			return &fields[i], true
		}
	}
	return nil, false
}

// format spells a value as the file does.
func (f *field) format(v any) string {
	switch f.Kind {
	case kFloat:
		return strconv.FormatFloat(v.(float64), 'g', -1, 64)
	case kInt:
		return strconv.Itoa(v.(int))
	case kDuration:
		return FormatDuration(v.(time.Duration))
	}
	return v.(string)
}

// parse reads one value and checks its range.
func (f *field) parse(s string) (any, error) {
	s = strings.TrimSpace(s)
	switch f.Kind {
	case kFloat:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number", f.Key, s)
		}
		return x, f.inRange(x, s)
	case kInt:
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a whole number", f.Key, s)
		}
		return n, f.inRange(float64(n), s)
	case kDuration:
		d, err := ParseDuration(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Key, err)
		}
		return d, f.inRange(d.Hours(), s)
	}
	for _, e := range f.Enum {
		if s == e {
			return s, nil
		}
	}
	return nil, fmt.Errorf("%s: %q is not one of %s", f.Key, s, strings.Join(f.Enum, ", "))
}

func (f *field) inRange(x float64, s string) error {
	if x >= f.Min && x <= f.Max {
		return nil
	}
	lo, hi := strconv.FormatFloat(f.Min, 'g', -1, 64), strconv.FormatFloat(f.Max, 'g', -1, 64)
	if f.Kind == kDuration {
		lo, hi = FormatDuration(timeHours(f.Min)), FormatDuration(timeHours(f.Max))
	}
	return fmt.Errorf("%s: %s is out of range [%s, %s]", f.Key, s, lo, hi)
}

// ParseDuration reads a Go duration ("336h", "90m") or whole or decimal
// days ("30d", "1.5d").
func ParseDuration(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		x, err := strconv.ParseFloat(n, 64)
		if err != nil || x < 0 {
			return 0, fmt.Errorf("%q is not a duration (write 30d, 1.5d or a Go duration such as 336h)", s)
		}
		return time.Duration(x * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration (write 30d, 1.5d or a Go duration such as 336h)", s)
	}
	return d, nil
}

// FormatDuration spells d in whole days when it is whole days ("14d"),
// else as a Go duration.
func FormatDuration(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 {
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	}
	return d.String()
}

func timeHours(h float64) time.Duration { return time.Duration(h * float64(time.Hour)) }
