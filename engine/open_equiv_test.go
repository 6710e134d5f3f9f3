package engine_test

import (
	"context"
	"fmt"
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

// A cached memory's vector is its row of the vector index — one copy of
// each vector — and stays so when adding memories grows the index.
func TestMemoryVectorIsTheIndexRow(t *testing.T) {
	ctx := context.Background()
	e, db := openEngine(t, "", demoNow)
	for i := range 300 { // the index starts empty: it grows, and moves, many times
		m := &engine.Memory{Key: fmt.Sprintf("k%d", i), Content: fmt.Sprintf("memory number %d about 사과 %d", i, i*7), Kind: engine.KindFact, CreatedAt: demoNow}
		if err := e.AddMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	reopened, err := engine.Open(ctx, engine.Options{Store: db, Now: func() time.Time { return demoNow }})
	if err != nil {
		t.Fatal(err)
	}
	for _, eng := range []*engine.Engine{e, reopened} {
		n := 0
		eng.EachMemory(func(m *engine.Memory) bool {
			row, ok := eng.VectorOf(m.ID)
			if !ok || len(m.Embedding) != len(row) || &m.Embedding[0] != &row[0] {
				t.Errorf("memory %d: its vector is not its index row", m.ID)
				return false
			}
			n++
			return true
		})
		if n != 300 {
			t.Fatalf("checked %d memories", n)
		}
	}
}
