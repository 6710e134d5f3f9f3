package inspector

import (
	"sort"
	"time"

	"memtrace/engine"
)

// ForecastEntry is one memory's forgetting forecast at a moment: how fast
// it fades, how much of it is left, and when it will be forgotten if it is
// not recalled again (the closed form of engine.ForgetAt).
type ForecastEntry struct {
	ID          int64         `json:"id"`
	Key         string        `json:"key"`
	Text        string        `json:"text"`
	Kind        engine.Kind   `json:"kind"`
	Type        string        `json:"type"`
	Tier        engine.Tier   `json:"tier"`
	Status      engine.Status `json:"status"`
	Importance  float64       `json:"importance"`
	AccessCount int           `json:"access_count"`
	// HalfLifeDays is H of `memtrace help decay`, in days.
	HalfLifeDays float64 `json:"half_life_days"`
	// Decay is d at the forecast's moment (a score, 1 = fresh).
	Decay float64 `json:"decay"`
	// Strength is decay × importance, which is compared with the threshold.
	Strength float64   `json:"strength"`
	ForgetAt time.Time `json:"forget_at"`
	// InDays is forget_at − at, in days (negative when already forgotten).
	InDays    float64 `json:"in_days"`
	Forgotten bool    `json:"forgotten"`
	// RecognitionDecay is 2^(−Δt/(R·H)) at the forecast's moment; the
	// memory is unrecognisable (no cue finds it) when it × importance falls
	// under the threshold, at UnrecognisableAt (engine.UnrecognisableAt).
	RecognitionDecay float64   `json:"recognition_decay"`
	UnrecognisableAt time.Time `json:"unrecognisable_at"`
	// UnrecognisableInDays is unrecognisable_at − at, in days.
	UnrecognisableInDays float64 `json:"unrecognisable_in_days"`
	Unrecognisable       bool    `json:"unrecognisable"`
}

// Forecast lists the next n memories to be forgotten after at: the active
// memories that exist at at and are still remembered then, in the order
// they will be forgotten (ties by id). n ≤ 0 lists them all.
func Forecast(e *engine.Engine, at time.Time, n int) []ForecastEntry {
	at = at.UTC()
	cfg := e.Config()
	var out []ForecastEntry
	e.EachMemory(func(m *engine.Memory) bool {
		if m.Status != engine.StatusActive || m.CreatedAt.After(at) {
			return true
		}
		if f := entry(*m, at, cfg); !f.Forgotten {
			out = append(out, f)
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool {
		if !out[i].ForgetAt.Equal(out[j].ForgetAt) {
			return out[i].ForgetAt.Before(out[j].ForgetAt)
		}
		return out[i].ID < out[j].ID
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// ForecastOf is the forecast of one memory at at, whatever its status (the
// Memories detail shows it for every memory).
func ForecastOf(e *engine.Engine, id int64, at time.Time) (ForecastEntry, bool) {
	m, ok := e.Memory(id)
	if !ok {
		return ForecastEntry{}, false
	}
	return entry(m, at.UTC(), e.Config()), true
}

func entry(m engine.Memory, at time.Time, cfg engine.Config) ForecastEntry {
	d := engine.Decay(m, at, cfg)
	forgetAt := engine.ForgetAt(m, cfg)
	goneAt := engine.UnrecognisableAt(m, cfg)
	return ForecastEntry{
		ID: m.ID, Key: m.Key, Text: m.Content, Kind: m.Kind, Type: m.Type, Tier: m.Tier, Status: m.Status,
		Importance: m.Importance, AccessCount: m.AccessCount,
		HalfLifeDays: round6(engine.HalfLife(m, cfg).Hours() / 24),
		Decay:        round6(d),
		Strength:     round6(d * clamp01(m.Importance)),
		ForgetAt:     forgetAt.UTC(),
		InDays:       round6(forgetAt.Sub(at).Hours() / 24),
		Forgotten:    engine.Forgotten(m, at, cfg),

		RecognitionDecay:     round6(engine.RecognitionDecay(m, at, cfg)),
		UnrecognisableAt:     goneAt.UTC(),
		UnrecognisableInDays: round6(goneAt.Sub(at).Hours() / 24),
		Unrecognisable:       engine.Unrecognisable(m, at, cfg),
	}
}

func clamp01(x float64) float64 {
	if x < 0 || x != x {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// round6 keeps numbers readable and stable in JSON, as the trace does.
func round6(x float64) float64 {
	const p = 1e6
	if x >= 0 {
		return float64(int64(x*p+0.5)) / p
	}
	return -float64(int64(-x*p+0.5)) / p
}
