package engine

import (
	"math"
	"testing"
	"time"
)

// The association boost halves every BoostHalfLife after it was set and is
// the stored boost for any time before that.
func TestBoostDecaysOnItsOwnHalfLife(t *testing.T) {
	cfg := DefaultConfig()
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	m := Memory{Boost: 0.8, BoostAt: t0}
	if got := BoostAt(m, t0.Add(cfg.BoostHalfLife), cfg); math.Abs(got-0.4) > 1e-9 {
		t.Errorf("boost after one boost half-life = %v, want 0.4", got)
	}
	if got := BoostAt(m, t0.Add(2*cfg.BoostHalfLife), cfg); math.Abs(got-0.2) > 1e-9 {
		t.Errorf("boost after two boost half-lives = %v, want 0.2", got)
	}
	if got := BoostAt(m, t0.Add(-24*time.Hour), cfg); got != 0.8 {
		t.Errorf("boost before it was set = %v, want 0.8", got)
	}
	if got := BoostAt(Memory{}, t0, cfg); got != 0 {
		t.Errorf("no boost = %v, want 0", got)
	}
}
