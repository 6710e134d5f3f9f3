package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// Four writers (two per handle, as the MCP server and the TUI would each
// hold one) and a reader run together for a bounded time; none of them may
// see "database is locked".
func TestConcurrentWriters(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		path := b.Fresh(t)
		dbA := storetest.MustOpenPath(t, path, nil)
		dbB := storetest.MustOpenPath(t, path, nil)
		ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
		defer cancel()

		var wg sync.WaitGroup
		errs := make(chan error, 8)
		written := make([]int, 4)
		for w := range 4 {
			db := dbA
			if w%2 == 1 {
				db = dbB
			}
			wg.Go(func() {
				for i := 0; ctx.Err() == nil; i++ {
					err := db.Update(t.Context(), func(q engine.Queries) error {
						for j := range 5 {
							m := newMemory(fmt.Sprintf("w%d-%d-%d", w, i, j), "concurrent write")
							if err := q.InsertMemory(t.Context(), m, engine.Actor{Name: "writer", Batch: fmt.Sprintf("w%d-%d", w, i)}); err != nil {
								return err
							}
							if err := q.RecordAccess(t.Context(), m.ID, at(j)); err != nil {
								return err
							}
						}
						return nil
					})
					if err != nil {
						errs <- fmt.Errorf("writer %d: %w", w, err)
						return
					}
					written[w] += 5
				}
			})
		}
		reads := 0
		wg.Go(func() {
			var seq int64
			for ctx.Err() == nil {
				changed, high, err := dbB.MemoriesChangedSince(t.Context(), seq)
				if err != nil {
					errs <- fmt.Errorf("reader: %w", err)
					return
				}
				if high < seq {
					errs <- fmt.Errorf("reader: seq went back from %d to %d", seq, high)
					return
				}
				for _, m := range changed {
					if m.AccessCount != 3 {
						errs <- fmt.Errorf("reader saw memory %d half-written (access count %d)", m.ID, m.AccessCount)
						return
					}
				}
				seq = high
				reads++
			}
		})
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		total := 0
		for w, n := range written {
			if n == 0 {
				t.Errorf("writer %d never got the lock", w)
			}
			total += n
		}
		_, count, err := dbA.FindMemories(t.Context(), engine.MemoryFilter{})
		must(t, err)
		if count != total {
			t.Fatalf("%d memories in the database, writers committed %d", count, total)
		}
		if reads == 0 {
			t.Fatal("the reader never completed a read")
		}
		t.Logf("%d memories written by 4 writers on 2 handles, %d reads", total, reads)
	})
}
