package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// A write whose context ends before the commit is rolled back by
// database/sql; the commit's error says that, as the context's error, not
// "transaction has already been committed or rolled back".
func TestUpdateCancelledBeforeCommit(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		db := b.MustOpen(t)
		ctx, cancel := context.WithCancel(t.Context())
		err := db.Update(ctx, func(q engine.Queries) error {
			if err := q.InsertMemory(ctx, newMemory("k1", "a memory written under a context that ends"), engine.Actor{Name: "capture", Batch: "b1"}); err != nil {
				return err
			}
			cancel()
			return nil
		})
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "nothing of it was written") {
			t.Fatalf("Update: %v, want context.Canceled and that nothing was written", err)
		}
		ms, _, err := db.FindMemories(t.Context(), engine.MemoryFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != 0 {
			t.Fatalf("%d memories after the cancelled write, want 0", len(ms))
		}
	})
}
