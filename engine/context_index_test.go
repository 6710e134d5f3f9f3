package engine_test

import (
	"context"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/engine/textnorm"
	"memtrace/internal/testdata/storetest"
)

func addTurn(t *testing.T, e *engine.Engine, key, session, text string, at time.Time) int64 {
	t.Helper()
	m := &engine.Memory{Key: key, Content: text, Session: session, Kind: engine.KindEpisode, CreatedAt: at}
	if err := e.AddMemory(context.Background(), m, engine.Actor{Name: "test"}); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

func rank(e *engine.Engine, query string) map[int64]int {
	out := map[int64]int{}
	for i, h := range e.LexicalSearch(textnorm.Tokens(query), 10) {
		out[h.ID] = i + 1
	}
	return out
}

// A turn that answers a question only together with its neighbours is
// found through them, below the turn that says it outright; a quarantined
// neighbour lends no words, and a memory without a session has no context.
func TestLexicalContextWindow(t *testing.T) {
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{Store: storetest.MustOpen(t)})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	// Inserted out of order: the session is ordered by time, not by id.
	q := addTurn(t, e, "q", "s1", "Did you adopt the dog from the shelter?", t0)
	a := addTurn(t, e, "a", "s1", "Yes! She is called Luna.", t0.Add(2*time.Minute))
	mid := addTurn(t, e, "mid", "s1", "Wow, really?", t0.Add(time.Minute))
	far := addTurn(t, e, "far", "s1", "Anyway, work was long today.", t0.Add(10*time.Minute))
	other := addTurn(t, e, "other", "s2", "Yes, it is called Luna too.", t0.Add(2*time.Minute))
	alone := addTurn(t, e, "alone", "", "Yes, we adopted a cat.", t0)

	r := rank(e, "adopt dog")
	if r[q] != 1 {
		t.Fatalf("the turn saying it outright ranks %d, want 1 (ranks %v)", r[q], r)
	}
	if r[a] == 0 || r[mid] == 0 {
		t.Fatalf("neighbours within ±2 of the question are not found through it: ranks %v", r)
	}
	if r[mid] > r[a] {
		t.Errorf("distance 1 (rank %d) should outrank distance 2 (rank %d)", r[mid], r[a])
	}
	if r[far] != 0 || r[other] != 0 {
		t.Errorf("a turn 3 away or in another session got context: ranks %v", r)
	}
	if r1 := rank(e, "adopt"); r1[alone] == 0 || r1[alone] > r1[mid] {
		t.Errorf("own word beats a neighbour's: 'adopt' ranks %v (alone %d, mid %d)", r1, r1[alone], r1[mid])
	}

	// Quarantining the question takes its words out of its neighbours.
	m, _ := e.Memory(q)
	m.Status, m.OrigType = engine.StatusQuarantined, m.Type
	if err := e.Update(ctx, func(qs engine.Queries) error {
		return qs.UpdateMemory(ctx, &m, engine.Actor{Name: "test"}, "quarantine")
	}); err != nil {
		t.Fatal(err)
	}
	if r := rank(e, "shelter"); r[a] != 0 || r[mid] != 0 || r[q] != 1 {
		t.Errorf("after quarantine, ranks for 'shelter' = %v; want only the quarantined memory itself", r)
	}

	// Reopening builds the same index from the store.
	e2, err := engine.Open(ctx, engine.Options{Store: e.Store()})
	if err != nil {
		t.Fatal(err)
	}
	if r1, r2 := rank(e, "luna adopt"), rank(e2, "luna adopt"); len(r1) != len(r2) || r1[a] != r2[a] || r1[other] != r2[other] {
		t.Errorf("reopened index differs: %v vs %v", r1, r2)
	}
}
