package capture

import (
	"context"
	"testing"

	"memtrace/engine"
)

// Under the hashed embedder the calibration keeps the configured
// thresholds (the capture decides as it did), and every restatement of
// the set scores above the threshold's margin over the near misses.
func TestCalibrationHashedKeepsConfigured(t *testing.T) {
	ctx := context.Background()
	emb := engine.NewHashed(engine.HashedDim)
	d, err := CalibrateDedupe(ctx, emb, 0.92)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hashed dedupe: duplicates %.3f, distinct %.3f → threshold %.2f", d.Duplicates, d.Distinct, d.Threshold)
	if d.Threshold != 0.92 {
		t.Errorf("hashed dedupe threshold %.3f, want the configured 0.92", d.Threshold)
	}
	cs, err := GateCalibration(ctx, emb)
	if err != nil {
		t.Fatal(err)
	}
	separating := 0
	for _, c := range cs {
		t.Logf("hashed gate %s/%s: exemplars p10 %.3f, plain p90 %.3f, separates %v, threshold %.3f", c.Type, c.Script, c.Exemplars10, c.Plain, c.Separates, c.Threshold)
		if c.Threshold != 0.50 || c.Configured != 0.50 {
			t.Errorf("hashed gate %s/%s threshold %.3f, want the configured 0.50", c.Type, c.Script, c.Threshold)
		}
		if c.Separates {
			separating++
		}
	}
	if separating == 0 || separating == len(cs) {
		t.Errorf("%d of %d hashed centroids separate: the test covers one rule branch only", separating, len(cs))
	}
}
