package engine

import (
	"time"

	"memtrace/engine/tuning"
)

// Config holds the tunables of the pipelines. Zero values are replaced by
// DefaultConfig's.
type Config struct {
	// Capture.
	Detail string // judge detail level: high (lenient), medium, low (strict)
	// DedupeSimilarity is the cosine similarity at or above which a new
	// capture reinforces an existing active memory instead of being stored.
	DedupeSimilarity float64
	// GateSimilarity is the minimum similarity to a declaration type's
	// exemplar centroid (seed 001: 0.50).
	GateSimilarity float64

	// Forgetting (see forgetting.go and `memtrace help decay`).
	HalfLifeFact    time.Duration
	HalfLifeEpisode time.Duration
	ForgetThreshold float64 // forgotten when decay × importance < this
	// Association.
	AssocThreshold float64       // τ: neighbours with similarity ≥ τ gain boost
	AssocBoost     float64       // boost added per committed recall
	BoostHalfLife  time.Duration // the boost decays on its own half-life

	// Recall.
	K              int
	Budget         int
	CandidatePool  int     // lexical and vector top-N each
	MMRLambda      float64 // relevance vs diversity
	GuaranteedCap  int
	GuaranteedGate float64 // minimum relevance for a guaranteed item
	TraceKeep      int     // stored traces kept for the TUI

	// Tuning: the rerank weights, relevance-gate thresholds, retention β's,
	// recognition and expansion weights (engine/tuning).
	Tuning tuning.Tuning
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Detail:           DetailMedium,
		DedupeSimilarity: 0.92,
		GateSimilarity:   0.50,
		HalfLifeFact:     180 * 24 * time.Hour,
		HalfLifeEpisode:  14 * 24 * time.Hour,
		ForgetThreshold:  0.05,
		AssocThreshold:   0.25,
		AssocBoost:       0.5,
		BoostHalfLife:    7 * 24 * time.Hour,
		K:                8,
		Budget:           2000,
		CandidatePool:    50,
		MMRLambda:        0.7,
		GuaranteedCap:    2,
		GuaranteedGate:   0.25,
		TraceKeep:        200,
		Tuning:           tuning.Default(),
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.Detail == "" {
		c.Detail = d.Detail
	}
	for _, p := range []struct{ v, d *float64 }{
		{&c.DedupeSimilarity, &d.DedupeSimilarity}, {&c.GateSimilarity, &d.GateSimilarity},
		{&c.ForgetThreshold, &d.ForgetThreshold}, {&c.AssocThreshold, &d.AssocThreshold},
		{&c.AssocBoost, &d.AssocBoost}, {&c.MMRLambda, &d.MMRLambda}, {&c.GuaranteedGate, &d.GuaranteedGate},
	} {
		if *p.v == 0 {
			*p.v = *p.d
		}
	}
	for _, p := range []struct{ v, d *time.Duration }{
		{&c.HalfLifeFact, &d.HalfLifeFact}, {&c.HalfLifeEpisode, &d.HalfLifeEpisode}, {&c.BoostHalfLife, &d.BoostHalfLife},
	} {
		if *p.v == 0 {
			*p.v = *p.d
		}
	}
	for _, p := range []struct{ v, d *int }{
		{&c.K, &d.K}, {&c.Budget, &d.Budget}, {&c.CandidatePool, &d.CandidatePool},
		{&c.GuaranteedCap, &d.GuaranteedCap}, {&c.TraceKeep, &d.TraceKeep},
	} {
		if *p.v == 0 {
			*p.v = *p.d
		}
	}
	c.Tuning = c.Tuning.WithDefaults()
	return c
}
