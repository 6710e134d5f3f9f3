package recall_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/recall"
	"memtrace/store"
)

// heldoutLifeFloor is the ratchet on the held-out life set
// (testdata/heldout/life.yaml, written by someone who never read the
// engine): the pass rate measured after the last change to recall. Raise it
// when a change passes more probes; never lower it to make a change green.
const heldoutLifeFloor = 0.54

// TestHeldoutLifePassRate builds life.jsonl through the capture pipeline
// into a real SQLite file, runs the 50 probes as `golden run` does, logs
// every failing probe with the evaluator's reason, and fails when the pass
// rate drops below heldoutLifeFloor.
func TestHeldoutLifePassRate(t *testing.T) {
	if testing.Short() {
		t.Skip("held-out set: ingests 200 messages")
	}
	ctx := context.Background()
	set, err := golden.Load(filepath.Join("..", "testdata", "heldout", "life.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	open := func(ctx context.Context, path string) (engine.Store, error) {
		return store.Open(ctx, path, time.Now)
	}
	path := filepath.Join(t.TempDir(), "life.db")
	if err := golden.BuildFixture(ctx, set, path, open); err != nil {
		t.Fatal(err)
	}
	eng, closeDB, err := golden.OpenEngine(ctx, path, open)
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	res, err := (&golden.Runner{}).Run(ctx, set, recall.Over(eng), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Probes {
		if p.Pass {
			continue
		}
		why := strings.Join(p.Failures, "; ")
		if p.Error != "" {
			why = p.Error
		}
		t.Logf("FAIL %s %q: %s", p.ID, p.Query, why)
	}
	s := res.Summary
	t.Logf("held-out life: %d/%d probes pass (%.2f), present recall %.2f, strays %d",
		s.Passed, s.Probes, s.PassRate, s.PresentRecall, s.StraySurvivors)
	if s.PassRate < heldoutLifeFloor {
		t.Errorf("held-out life pass rate %.2f < floor %.2f", s.PassRate, heldoutLifeFloor)
	}
}
