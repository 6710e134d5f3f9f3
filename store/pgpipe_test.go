package store_test

import (
	"context"
	"fmt"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// The statements a PostgreSQL write queues for its next round trip
// (pgpipe.go) write what the same calls wrote one by one, on both
// backends: the ids InsertMemoryAhead predicts are those the table gives,
// consecutive batch ids from one transaction, a taken check sent ahead
// that answers as CapturesExist does, and a taken key that fails the whole
// transaction with ECONFLICT and leaves nothing behind.
func TestPipelinedWritesMatchOneByOne(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, be storetest.Backend) {
		ctx := context.Background()
		db, err := store.Open(ctx, be.Fresh(t), newClock().Now)
		must(t, err)
		defer db.Close()
		// The first insert of a fresh table: the sequence has no value yet.
		first := newMemory("k0", "the first memory")
		must(t, db.InsertMemory(ctx, first, engine.Actor{Name: "test"}))
		var batches []string
		var ids []int64
		for round := range 3 {
			must(t, db.Update(ctx, func(q engine.Queries) error {
				tx := q.(*store.Tx)
				key := fmt.Sprintf("c%d", round)
				tx.CapturesExistAhead([]string{key, "m0"})
				for range 2 {
					b, err := q.NextBatchID(ctx, engine.BatchCapture)
					if err != nil {
						return err
					}
					batches = append(batches, b)
				}
				seen, err := q.CapturesExist(ctx, []string{key, "m0"})
				if err != nil {
					return err
				}
				if want := round > 0; seen["m0"] != want || seen[key] {
					t.Errorf("round %d: taken check sent ahead answered %v, want m0 %v", round, seen, want)
				}
				for i := range 2 {
					m := newMemory(fmt.Sprintf("%s-%d", key, i), fmt.Sprintf("memory %d of round %d", i, round))
					if err := tx.InsertMemoryAhead(ctx, m, engine.Actor{Name: "capture", Batch: batches[len(batches)-1]}); err != nil {
						return err
					}
					ids = append(ids, m.ID)
				}
				return q.InsertCapture(ctx, &engine.CaptureRecord{MessageID: "m0", Text: "t", Outcome: "stored", MemoryID: ids[len(ids)-1], Trail: []engine.Decision{}})
			}))
		}
		for i, id := range ids {
			if want := first.ID + int64(i) + 1; id != want {
				t.Errorf("insert %d got id %d, want %d", i, id, want)
			}
			m, err := db.GetMemory(ctx, id)
			must(t, err)
			if m.Key != fmt.Sprintf("c%d-%d", i/2, i%2) {
				t.Errorf("memory %d has key %q", id, m.Key)
			}
		}
		seen := map[string]bool{}
		for _, b := range batches {
			if seen[b] {
				t.Errorf("batch id %s handed out twice: %v", b, batches)
			}
			seen[b] = true
		}
		// A taken key: ECONFLICT, and the transaction's other rows are gone.
		before, _, err := db.FindMemories(ctx, engine.MemoryFilter{})
		must(t, err)
		err = db.Update(ctx, func(q engine.Queries) error {
			tx := q.(*store.Tx)
			if err := tx.InsertMemoryAhead(ctx, newMemory("fresh", "a memory rolled back"), engine.Actor{Name: "capture"}); err != nil {
				return err
			}
			if err := tx.InsertMemoryAhead(ctx, newMemory("c0-0", "a taken key"), engine.Actor{Name: "capture"}); err != nil {
				return err
			}
			return q.InsertCapture(ctx, &engine.CaptureRecord{MessageID: "m-late", Text: "t", Outcome: "stored", Trail: []engine.Decision{}})
		})
		wantCode(t, err, engine.ECONFLICT)
		after, _, err := db.FindMemories(ctx, engine.MemoryFilter{})
		must(t, err)
		if len(after) != len(before) {
			t.Errorf("a failed transaction left %d memories, want %d", len(after), len(before))
		}
		if ok, err := db.CaptureExists(ctx, "m-late"); err != nil || ok {
			t.Errorf("a failed transaction left its capture row (%v, %v)", ok, err)
		}
		// The sequence moved past the rolled-back ids, as one by one: the
		// next memory takes the id after them, also when predicted.
		next := newMemory("next", "after the rollback")
		must(t, db.Update(ctx, func(q engine.Queries) error {
			return q.(*store.Tx).InsertMemoryAhead(ctx, next, engine.Actor{Name: "capture"})
		}))
		if last := ids[len(ids)-1]; next.ID <= last {
			t.Errorf("memory after the rollback got id %d, not past %d", next.ID, last)
		}
		if _, err := db.GetMemory(ctx, next.ID); err != nil {
			t.Error(err)
		}
	})
}
