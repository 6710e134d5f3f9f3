package engine_test

import (
	"context"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/engine/textnorm"
)

// TestBulkOpenMatchesIncrementalIndex: the index an Open rebuilds in bulk
// scores every query exactly as the index kept current write by write (the
// demo conversation, loaded through Update, with sessions and quarantined
// neighbours), so reopening a database never changes a ranking.
func TestBulkOpenMatchesIncrementalIndex(t *testing.T) {
	ctx := context.Background()
	live, db := openEngine(t, "", demoNow)
	loadDemo(t, live)
	reopened, err := engine.Open(ctx, engine.Options{Store: db, Now: func() time.Time { return demoNow }})
	if err != nil {
		t.Fatal(err)
	}
	if reopened.Len() != live.Len() || live.Len() < 100 {
		t.Fatalf("reopened %d memories, live %d", reopened.Len(), live.Len())
	}
	checked := 0
	live.EachMemory(func(m *engine.Memory) bool {
		toks := textnorm.Tokens(m.Content)
		if len(toks) == 0 {
			return true
		}
		q := map[string]float64{toks[0]: 1, toks[len(toks)-1]: 0.5}
		a, b := live.LexicalSearchWeighted(q, 20), reopened.LexicalSearchWeighted(q, 20)
		if len(a) != len(b) {
			t.Errorf("%s: %d hits live, %d reopened", m.Key, len(a), len(b))
			return false
		}
		for i := range a {
			if a[i] != b[i] {
				t.Errorf("%s: hit %d live %+v, reopened %+v", m.Key, i, a[i], b[i])
				return false
			}
		}
		checked++
		return true
	})
	if checked < 100 {
		t.Errorf("checked %d queries", checked)
	}
	if got, want := reopened.HotIDs(), live.HotIDs(); len(got) != len(want) || len(want) == 0 {
		t.Errorf("HOT ids reopened %v, live %v", got, want)
	}
}
