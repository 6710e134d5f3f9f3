package store_test

import (
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// change applies f to a copy of memory id as one audited write of batch.
func change(t *testing.T, db *store.DB, id int64, batch, action string, f func(*engine.Memory)) {
	t.Helper()
	m, err := db.GetMemory(t.Context(), id)
	must(t, err)
	f(m)
	must(t, db.UpdateMemory(t.Context(), m, engine.Actor{Name: "curator", Batch: batch}, action))
}

// TestRollbackStack: undo works as a stack. A later batch that was rolled
// back (with its rollback rows) is no conflict for an older batch on the
// same memory; a later batch that was redone, or any later change that
// stands, still is.
func TestRollbackStack(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		quarantine := func(m *engine.Memory) { m.OrigType, m.Status = m.Type, engine.StatusQuarantined }
		raise := func(m *engine.Memory) { m.Importance = 0.9 }

		t.Run("OK", func(t *testing.T) {
			db := b.MustOpenClock(t, newClock().Now)
			ms := seedMemories(t, db, 2)
			before, err := db.DumpMemories(t.Context())
			must(t, err)
			change(t, db, ms[0].ID, "b1", "quarantine", quarantine)
			change(t, db, ms[0].ID, "b2", "importance", raise)
			change(t, db, ms[1].ID, "b2", "importance", raise)

			n, err := db.RollbackBatch(t.Context(), "b2", "curator")
			must(t, err)
			if n != 2 {
				t.Fatalf("b2 restored %d, want 2", n)
			}
			n, err = db.RollbackBatch(t.Context(), "b1", "curator")
			must(t, err)
			if n != 1 {
				t.Fatalf("b1 restored %d, want 1", n)
			}
			after, err := db.DumpMemories(t.Context())
			must(t, err)
			if string(after) != string(before) {
				t.Fatalf("after undoing both batches:\n--- before\n%s\n--- after\n%s", before, after)
			}
		})

		t.Run("ErrLaterChangeAfterUndoneBatch", func(t *testing.T) {
			db := b.MustOpenClock(t, newClock().Now)
			ms := seedMemories(t, db, 1)
			change(t, db, ms[0].ID, "b1", "quarantine", quarantine)
			change(t, db, ms[0].ID, "b2", "importance", raise)
			_, err := db.RollbackBatch(t.Context(), "b2", "curator")
			must(t, err)
			change(t, db, ms[0].ID, "", "retype", func(m *engine.Memory) { m.Type = "habit" })

			_, err = db.RollbackBatch(t.Context(), "b1", "curator")
			wantCode(t, err, engine.ECONFLICT)
			if msg := err.Error(); !strings.Contains(msg, "memory 1 (retype by curator at") || strings.Contains(msg, "b2") {
				t.Fatalf("conflict should name the retype, not the undone batch: %q", msg)
			}
		})

		t.Run("ErrRedoneBatch", func(t *testing.T) {
			db := b.MustOpenClock(t, newClock().Now)
			ms := seedMemories(t, db, 1)
			change(t, db, ms[0].ID, "b1", "quarantine", quarantine)
			change(t, db, ms[0].ID, "b2", "importance", raise)
			_, err := db.RollbackBatch(t.Context(), "b2", "curator")
			must(t, err)
			// Rolling the rollback back re-applies b2: it stands again.
			_, err = db.RollbackBatch(t.Context(), "rollback:b2", "curator")
			must(t, err)
			got, err := db.GetMemory(t.Context(), ms[0].ID)
			must(t, err)
			if got.Importance != 0.9 {
				t.Fatalf("redo of b2 left importance %v", got.Importance)
			}

			_, err = db.RollbackBatch(t.Context(), "b1", "curator")
			wantCode(t, err, engine.ECONFLICT)
			if msg := err.Error(); !strings.Contains(msg, "memory 1 (importance by curator in batch b2 at") {
				t.Fatalf("conflict should name the redone batch b2: %q", msg)
			}

			// Undo the redo, and b1 comes free again.
			_, err = db.RollbackBatch(t.Context(), "rollback:rollback:b2", "curator")
			must(t, err)
			_, err = db.RollbackBatch(t.Context(), "b1", "curator")
			must(t, err)
			got, err = db.GetMemory(t.Context(), ms[0].ID)
			must(t, err)
			if got.Status != engine.StatusActive || got.Importance != ms[0].Importance {
				t.Fatalf("after undoing everything: %+v", got)
			}
		})
	})
}
