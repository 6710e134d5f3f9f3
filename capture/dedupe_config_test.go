package capture_test

import (
	"context"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// TestDedupeSimilarityFollowsTheConfig: capture.dedupe_similarity decides
// whether a near repeat (the same statement with one word more, a cosine
// between 0.92 and 1 on the hashed embedder) reinforces the first memory
// or becomes a memory of its own. The demo set's policy test cannot show
// this key since the demo's statements were split: no two of its
// memories lie between the calibrated threshold and 1.
func TestDedupeSimilarityFollowsTheConfig(t *testing.T) {
	first := "My sister Jiyeon lives in Daejeon and works as a nurse at the university hospital there."
	again := "My sister Jiyeon lives in Daejeon and works as a night nurse at the university hospital there."
	run := func(sim float64) string {
		t.Helper()
		ctx := context.Background()
		db := storetest.MustOpenClock(t, func() time.Time { return testNow })
		cfg := engine.DefaultConfig()
		cfg.DedupeSimilarity = sim
		e, err := engine.Open(ctx, engine.Options{Store: db, Config: cfg, Now: func() time.Time { return testNow }})
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		if r, err := capture.Capture(ctx, e, engine.Message{ID: "d1", Session: "s1", Role: "user", Text: first, At: at}); err != nil || r.Outcome != engine.OutcomeStored {
			t.Fatalf("first capture: %+v %v", r, err)
		}
		r, err := capture.Capture(ctx, e, engine.Message{ID: "d2", Session: "s2", Role: "user", Text: again, At: at.Add(48 * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		return r.Outcome
	}
	if got := run(engine.DefaultConfig().DedupeSimilarity); got != engine.OutcomeReinforced {
		t.Errorf("at the default %.2f the near repeat is %s, want reinforced", engine.DefaultConfig().DedupeSimilarity, got)
	}
	if got := run(0.995); got != engine.OutcomeStored {
		t.Errorf("at 0.995 the near repeat is %s, want stored as a memory of its own", got)
	}
}
