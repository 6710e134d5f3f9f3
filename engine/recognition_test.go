package engine_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
)

// The recognition horizon is the free-recall one stretched by R: the
// closed form, and the step it predicts.
func TestUnrecognisableAtIsRTimesTheFreeRecallSpan(t *testing.T) {
	cfg := engine.DefaultConfig()
	for _, m := range []engine.Memory{
		{Kind: engine.KindEpisode, Importance: 0.2, CreatedAt: t0},
		{Kind: engine.KindEpisode, Importance: 0.4, AccessCount: 2, CreatedAt: t0, LastAccessedAt: t0.Add(30 * day)},
		{Kind: engine.KindFact, Importance: 0.5, CreatedAt: t0},
		{Kind: engine.KindFact, Importance: 0.9, AccessCount: 5, CreatedAt: t0},
	} {
		a := m.CreatedAt
		if m.LastAccessedAt.After(a) {
			a = m.LastAccessedAt
		}
		forget, gone := engine.ForgetAt(m, cfg), engine.UnrecognisableAt(m, cfg)
		want := a.Add(time.Duration(engine.RecognitionSpan * float64(forget.Sub(a))))
		if d := gone.Sub(want); d < -time.Second || d > time.Second {
			t.Errorf("%+v: unrecognisable_at %v, want %v (R × the free-recall span)", m, gone, want)
		}
		if engine.Unrecognisable(m, gone.Add(-day), cfg) || !engine.Unrecognisable(m, gone.Add(day), cfg) {
			t.Errorf("%+v: the step is not at unrecognisable_at %v", m, gone)
		}
		if r := engine.RecognitionDecay(m, gone, cfg); math.Abs(r*m.Importance-cfg.ForgetThreshold) > 1e-6 {
			t.Errorf("%+v: recognition_decay × importance at the horizon = %v, want the threshold", m, r*m.Importance)
		}
	}
	// Low importance: gone from both at once.
	low := engine.Memory{Kind: engine.KindEpisode, Importance: 0.05, CreatedAt: t0}
	if !engine.UnrecognisableAt(low, cfg).Equal(t0) {
		t.Errorf("importance at the threshold: unrecognisable_at %v, want its creation", engine.UnrecognisableAt(low, cfg))
	}
}

// The promise in numbers: an unimportant, unused episode is gone
// from free recall and recognition within months; a fact or a reinforced
// memory lasts years.
func TestRecognitionHorizonsByImportanceAndUse(t *testing.T) {
	cfg := engine.DefaultConfig()
	span := func(m engine.Memory) (free, rec float64) {
		return engine.ForgetAt(m, cfg).Sub(t0).Hours() / 24, engine.UnrecognisableAt(m, cfg).Sub(t0).Hours() / 24
	}
	if free, rec := span(engine.Memory{Kind: engine.KindEpisode, Importance: 0.2, CreatedAt: t0}); free > 45 || rec > 180 || rec <= free {
		t.Errorf("trivial episode: free recall %.0f days, recognition %.0f days; want ≤ 45 and ≤ 180, recognition later", free, rec)
	}
	if _, rec := span(engine.Memory{Kind: engine.KindFact, Importance: 0.5, CreatedAt: t0}); rec < 10*365 {
		t.Errorf("fact of importance 0.5: recognisable %.0f days, want a decade", rec)
	}
	if _, rec := span(engine.Memory{Kind: engine.KindEpisode, Importance: 0.5, AccessCount: 10, CreatedAt: t0}); rec < 2*365 {
		t.Errorf("episode recalled ten times: recognisable %.0f days, want years", rec)
	}
}

func TestRetentionIsABoundedPrior(t *testing.T) {
	for _, tt := range []struct {
		intent engine.TemporalIntent
		cue    float64
		want   float64 // decay_weight
	}{
		{engine.IntentNow, 0, 1}, {engine.IntentNeutral, 0, 0.25}, {engine.IntentPast, 0, 0.1},
		{engine.IntentNow, 1, 0}, {engine.IntentNeutral, 0.5, 0.125}, {engine.IntentNow, 2, 0},
	} {
		w := engine.DecayWeight(tt.intent, tt.cue, engine.DefaultConfig())
		if math.Abs(w-tt.want) > 1e-12 {
			t.Errorf("DecayWeight(%s, %v) = %v, want %v", tt.intent, tt.cue, w, tt.want)
		}
		for _, d := range []float64{0, 0.3, 1} {
			if r := engine.Retention(d, w); r < 1-w-1e-12 || r > 1 || (d == 1 && r != 1) || (d == 0 && math.Abs(r-(1-w)) > 1e-12) {
				t.Errorf("Retention(%v, %v) = %v, want in [1 − β, 1], 1 when fresh", d, w, r)
			}
		}
	}
}

// Specific recall survives time, until the recognition horizon; the demo's
// ramen lunch (m0077) is the example.
func TestRamenLunchIsRecognisedUntilItsHorizon(t *testing.T) {
	e, _ := enginetest.Open(t, "", enginetest.DemoNow)
	enginetest.LoadDemo(t, e)
	m, _ := e.MemoryByKey("m0077")
	forget, gone := engine.ForgetAt(m, e.Config()), engine.UnrecognisableAt(m, e.Config())
	if !forget.Before(enginetest.DemoNow) || !gone.After(enginetest.DemoNow) {
		t.Fatalf("m0077: forget_at %v, unrecognisable_at %v; the test wants it recognisable but out of free recall at %v", forget, gone, enginetest.DemoNow)
	}
	q := enginetest.ReadOnly("ramen lunch")
	q.At = gone.Add(-day)
	tr := enginetest.Recall(t, e, q)
	if it, _ := enginetest.Item(tr, "temporal", "m0077"); !it.Recognised || !slices.Contains(enginetest.SurvivorKeys(tr), "m0077") ||
		!it.UnrecognisableAt.Equal(gone.UTC()) || !it.ForgetAt.Equal(forget.UTC()) {
		t.Errorf("a day before its horizon: recognised %v, survivors %v, horizons %v / %v", it.Recognised, enginetest.SurvivorKeys(tr), it.ForgetAt, it.UnrecognisableAt)
	}
	q.At = gone.Add(day)
	tr = enginetest.Recall(t, e, q)
	if it, _ := enginetest.Item(tr, "temporal", "m0077"); it.DropKind != engine.DropUnrecognisable || slices.Contains(enginetest.SurvivorKeys(tr), "m0077") {
		t.Errorf("a day after its horizon: %q (%s), survivors %v; want unrecognisable", it.Dropped, it.DropKind, enginetest.SurvivorKeys(tr))
	}
	// Its own words do not bring it back either.
	own := enginetest.ReadOnly(m.Content)
	own.At = gone.Add(day)
	if tr := enginetest.Recall(t, e, own); slices.Contains(enginetest.SurvivorKeys(tr), "m0077") {
		t.Errorf("m0077 recalled by its own text past its horizon: %v", enginetest.SurvivorKeys(tr))
	}
	// The medication fact is still there a year on, for its cue.
	q = enginetest.ReadOnly("What medication do I take every morning?")
	q.At = enginetest.DemoNow.AddDate(1, 0, 0)
	if tr := enginetest.Recall(t, e, q); !slices.Contains(enginetest.SurvivorKeys(tr), "m0075") {
		t.Errorf("m0075 (cetirizine) not recalled a year on: %v", enginetest.SurvivorKeys(tr))
	}
}
