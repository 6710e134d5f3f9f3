package store_test

import (
	"fmt"
	"reflect"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// LoadMemories leaves the rows InsertMemory leaves one by one — the
// memories, a "create" audit row each under the batch, the next seq — on
// both backends, so `bench scale` measures spaces a real write made; a key
// already taken loads nothing.
func TestLoadMemoriesIsInsertMemory(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		ctx := t.Context()
		clock := newClock()
		loaded, inserted := b.MustOpenClock(t, clock.Now), b.MustOpenClock(t, newClock().Now)
		mk := func() []*engine.Memory {
			var ms []*engine.Memory
			for i := range 450 { // more than one notification's ids
				m := newMemory(fmt.Sprintf("msg-%d", i), fmt.Sprintf("기억 %d: the staging server runs on port %d", i, 5000+i))
				if i%3 == 0 {
					m.Key, m.Embedding, m.Embedder = "", nil, ""
				}
				ms = append(ms, m)
			}
			return ms
		}
		a := engine.Actor{Name: "bench", Batch: "synthetic"}
		want := mk()
		must(t, inserted.Update(ctx, func(q engine.Queries) error {
			for _, m := range want {
				if err := q.InsertMemory(ctx, m, a); err != nil {
					return err
				}
			}
			return nil
		}))
		got := mk()
		must(t, loaded.LoadMemories(ctx, got, a))
		for i := range got {
			if got[i].ID != want[i].ID || got[i].Seq != want[i].Seq {
				t.Fatalf("memory %d: id/seq %d/%d, InsertMemory gave %d/%d", i, got[i].ID, got[i].Seq, want[i].ID, want[i].Seq)
			}
		}
		gotRows, _, err := loaded.MemoriesChangedSince(ctx, 0)
		must(t, err)
		wantRows, _, err := inserted.MemoriesChangedSince(ctx, 0)
		must(t, err)
		if !reflect.DeepEqual(gotRows, wantRows) {
			t.Fatalf("loaded rows differ from inserted ones:\n got %+v\nwant %+v", gotRows[0], wantRows[0])
		}
		gotAudit, err := loaded.AuditForBatch(ctx, "synthetic")
		must(t, err)
		wantAudit, err := inserted.AuditForBatch(ctx, "synthetic")
		must(t, err)
		if len(gotAudit) != len(want) || len(wantAudit) != len(want) {
			t.Fatalf("audit rows: loaded %d, inserted %d, want %d", len(gotAudit), len(wantAudit), len(want))
		}
		for i := range gotAudit {
			g, w := *gotAudit[i], *wantAudit[i]
			g.ID, w.ID, g.At = 0, 0, w.At
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("audit %d:\n got %+v\nwant %+v", i, g, w)
			}
		}
		// The next write goes on from the loaded seq and ids.
		next := newMemory("after", "written after the load")
		must(t, loaded.InsertMemory(ctx, next, a))
		if next.ID != want[len(want)-1].ID+1 || next.Seq != want[len(want)-1].Seq+1 {
			t.Errorf("insert after the load: id %d seq %d", next.ID, next.Seq)
		}
		// A taken key: nothing of the load is written.
		dup := []*engine.Memory{newMemory("fresh", "x"), newMemory("msg-1", "y")}
		wantCode(t, loaded.LoadMemories(ctx, dup, a), engine.ECONFLICT)
		if dup[0].ID != 0 {
			t.Errorf("a failed load left id %d on a memory", dup[0].ID)
		}
		if _, err := loaded.GetMemoryByKey(ctx, "fresh"); engine.ErrorCode(err) != engine.ENOTFOUND {
			t.Errorf("a failed load wrote memory \"fresh\": %v", err)
		}
	})
}
