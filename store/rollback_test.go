package store_test

import (
	"reflect"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// seedMemories inserts n memories outside any batch.
func seedMemories(t *testing.T, db *store.DB, n int) []*engine.Memory {
	t.Helper()
	var ms []*engine.Memory
	for i := range n {
		m := newMemory("seed-"+string(rune('a'+i)), "milestone "+string(rune('a'+i)))
		m.Type = "milestone"
		must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "capture"}))
		ms = append(ms, m)
	}
	return ms
}

func embeddings(t *testing.T, db *store.DB) map[int64][]float32 {
	t.Helper()
	out := map[int64][]float32{}
	must(t, db.ForEachMemory(t.Context(), func(m *engine.Memory) error {
		out[m.ID] = m.Embedding
		return nil
	}))
	return out
}

func TestRollbackBatch(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		t.Run("OK", func(t *testing.T) {
			db := b.MustOpenClock(t, newClock().Now)
			ms := seedMemories(t, db, 4)
			dumpBefore, err := db.DumpMemories(t.Context())
			must(t, err)
			vecBefore := embeddings(t, db)

			// The batch quarantines two memories, retypes one twice and rewrites
			// its text and vector; the fourth is untouched.
			a := engine.Actor{Name: "curator", Batch: "triage-1"}
			must(t, db.Update(t.Context(), func(q engine.Queries) error {
				for _, m := range ms[:2] {
					c := *m
					c.OrigType, c.Type, c.Status = c.Type, "echo", engine.StatusQuarantined
					if err := q.UpdateMemory(t.Context(), &c, a, "quarantine"); err != nil {
						return err
					}
				}
				c := *ms[2]
				c.Type = "habit"
				if err := q.UpdateMemory(t.Context(), &c, a, "retype"); err != nil {
					return err
				}
				c.Type, c.Content, c.Embedding = "achievement", "rewritten", []float32{9, 9, 9, 9}
				return q.UpdateMemory(t.Context(), &c, a, "retype")
			}))
			dumpMid, err := db.DumpMemories(t.Context())
			must(t, err)
			if string(dumpMid) == string(dumpBefore) {
				t.Fatal("the batch changed nothing")
			}

			n, err := db.RollbackBatch(t.Context(), "triage-1", "curator")
			must(t, err)
			if n != 3 {
				t.Fatalf("restored %d memories, want 3", n)
			}
			dumpAfter, err := db.DumpMemories(t.Context())
			must(t, err)
			if string(dumpAfter) != string(dumpBefore) {
				t.Fatalf("dump after rollback differs:\n--- before\n%s\n--- after\n%s", dumpBefore, dumpAfter)
			}
			if got := embeddings(t, db); !reflect.DeepEqual(got, vecBefore) {
				t.Fatalf("embeddings after rollback: %v, want %v", got, vecBefore)
			}
			rows, err := db.AuditForBatch(t.Context(), "rollback:triage-1")
			must(t, err)
			if len(rows) != 3 {
				t.Fatalf("rollback audit rows = %d, want 3", len(rows))
			}
			for _, r := range rows {
				if r.Action != "rollback" || r.Actor != "curator" || r.Before == nil || r.After == nil {
					t.Fatalf("rollback audit row: %+v", r)
				}
			}
			// Reverse order: the memory the batch touched last is restored first.
			if rows[0].MemoryID != ms[2].ID || rows[2].MemoryID != ms[0].ID {
				t.Fatalf("rollback order: %d, %d, %d", rows[0].MemoryID, rows[1].MemoryID, rows[2].MemoryID)
			}

			batches, err := db.Batches(t.Context(), 0)
			must(t, err)
			want := []engine.BatchInfo{
				{Batch: "rollback:triage-1", Kind: engine.BatchRollback, RollbackOf: "triage-1", Actor: "curator", Rows: 3, At: rows[0].At,
					Effect: engine.BatchEffect{Restored: 2, Retyped: 1}, CanRollback: true},
				{Batch: "triage-1", Actor: "curator", Rows: 4, RolledBack: true,
					Effect: engine.BatchEffect{Quarantined: 2, Retyped: 2}, WhyNot: "already rolled back"},
			}
			first, err := db.AuditForBatch(t.Context(), "triage-1")
			must(t, err)
			want[1].At = first[0].At
			if !reflect.DeepEqual(batches, want) {
				t.Fatalf("batches:\n got %+v\nwant %+v", batches, want)
			}
			limited, err := db.Batches(t.Context(), 1)
			must(t, err)
			if len(limited) != 1 || limited[0].Batch != "rollback:triage-1" {
				t.Fatalf("Batches(1) = %+v", limited)
			}

			_, err = db.RollbackBatch(t.Context(), "triage-1", "curator")
			wantCode(t, err, engine.ECONFLICT)
			if err.Error() != "batch triage-1 was already rolled back; nothing changed" {
				t.Fatalf("message = %q", err)
			}
		})

		t.Run("ErrChangedAfterBatch", func(t *testing.T) {
			db := b.MustOpenClock(t, newClock().Now)
			ms := seedMemories(t, db, 2)
			a := engine.Actor{Name: "judge", Batch: "triage-2"}
			for _, m := range ms {
				c := *m
				c.Status = engine.StatusQuarantined
				must(t, db.UpdateMemory(t.Context(), &c, a, "quarantine"))
			}
			// Somebody restores the second memory by hand afterwards.
			later := *ms[1]
			later.Status = engine.StatusActive
			must(t, db.UpdateMemory(t.Context(), &later, engine.Actor{Name: "curator"}, "restore"))
			dump, err := db.DumpMemories(t.Context())
			must(t, err)

			_, err = db.RollbackBatch(t.Context(), "triage-2", "curator")
			wantCode(t, err, engine.ECONFLICT)
			msg := err.Error()
			if !strings.Contains(msg, "memory 2 (restore by curator") || strings.Contains(msg, "memory 1 ") {
				t.Fatalf("conflict message should name memory 2 and who changed it: %q", msg)
			}
			after, err := db.DumpMemories(t.Context())
			must(t, err)
			if string(after) != string(dump) {
				t.Fatal("a refused rollback changed memories")
			}
			batches, err := db.Batches(t.Context(), 0)
			must(t, err)
			if len(batches) != 1 || batches[0].RolledBack {
				t.Fatalf("batches after refused rollback: %+v", batches)
			}
		})

		t.Run("TelemetryAfterBatchKept", func(t *testing.T) {
			db := b.MustOpen(t)
			ms := seedMemories(t, db, 1)
			c := *ms[0]
			c.Tier = engine.TierHot
			must(t, db.UpdateMemory(t.Context(), &c, engine.Actor{Name: "curator", Batch: "promote-1"}, "promote"))
			must(t, db.RecordAccess(t.Context(), c.ID, at(50)))
			must(t, db.SetBoost(t.Context(), c.ID, 0.5, at(51)))
			_, err := db.RollbackBatch(t.Context(), "promote-1", "curator")
			must(t, err)
			got, err := db.GetMemory(t.Context(), c.ID)
			must(t, err)
			if got.Tier != engine.TierWarm || got.AccessCount != ms[0].AccessCount+1 || !got.LastAccessedAt.Equal(at(50)) ||
				got.Boost != 0.5 || !got.BoostAt.Equal(at(51)) {
				t.Fatalf("after rollback: %+v", got)
			}
		})

		t.Run("CreatedMemoriesQuarantined", func(t *testing.T) {
			db := b.MustOpen(t)
			m := newMemory("ingested", "from a bad import")
			m.Type = "milestone"
			must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "capture", Batch: "import-1"}))
			n, err := db.RollbackBatch(t.Context(), "import-1", "curator")
			must(t, err)
			got, err := db.GetMemory(t.Context(), m.ID)
			must(t, err)
			if n != 1 || got.Status != engine.StatusQuarantined || got.OrigType != "milestone" || got.Content != m.Content {
				t.Fatalf("restored %d; memory %+v", n, got)
			}
		})

		t.Run("ErrUnknownBatch", func(t *testing.T) {
			db := b.MustOpen(t)
			_, err := db.RollbackBatch(t.Context(), "nope", "curator")
			wantCode(t, err, engine.ENOTFOUND)
			_, err = db.RollbackBatch(t.Context(), "", "curator")
			wantCode(t, err, engine.EINVALID)
		})
	})
}
