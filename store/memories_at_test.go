package store_test

import (
	"context"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// InsertMemoryAt keeps the id a restored memory carries, refuses a taken
// one, and later plain inserts never collide with it — on both backends
// (PostgreSQL's identity sequence is moved past it).
func TestInsertMemoryAtKeepsIDs(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		ctx := context.Background()
		db := b.MustOpen(t)
		a := engine.Actor{Name: "import", Batch: "b1"}
		first := newMemory("k1", "restored under id 40")
		first.ID = 40
		must(t, db.InsertMemoryAt(ctx, first, a))
		if got, err := db.GetMemory(ctx, 40); err != nil || got.Key != "k1" {
			t.Fatalf("memory 40 = %+v, %v", got, err)
		}
		taken := newMemory("k2", "another memory that wants id 40")
		taken.ID = 40
		if err := db.InsertMemoryAt(ctx, taken, a); engine.ErrorCode(err) != engine.ECONFLICT {
			t.Fatalf("a taken id: err = %v, want ECONFLICT", err)
		}
		next := newMemory("k3", "inserted after the restore")
		must(t, db.InsertMemory(ctx, next, a))
		if next.ID <= 40 {
			t.Fatalf("a plain insert after a restore at 40 got id %d", next.ID)
		}
		low := newMemory("k4", "restored under a lower free id")
		low.ID = 7
		must(t, db.InsertMemoryAt(ctx, low, a))
		again := newMemory("k5", "one more plain insert")
		must(t, db.InsertMemory(ctx, again, a))
		if again.ID <= next.ID {
			t.Fatalf("plain insert got id %d after %d", again.ID, next.ID)
		}
	})
}
