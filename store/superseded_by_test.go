package store_test

import (
	"slices"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// MemoryFilter.SupersededBy finds the older facts the given memories
// replaced — what `list --json` and `show` print as supersedes without
// opening the engine — on every backend, in id order, and nothing for a
// memory that replaced none.
func TestFindMemoriesSupersededBy(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		db := b.MustOpenClock(t, newClock().Now)
		ctx := t.Context()
		seoul, tea := newMemory("seoul", "I live in Seoul"), newMemory("tea", "저는 녹차를 좋아해요")
		daegu, busan := newMemory("daegu", "대구로 이사했어요"), newMemory("busan", "I moved to Busan")
		for _, m := range []*engine.Memory{seoul, tea, daegu, busan} {
			must(t, db.InsertMemory(ctx, m, engine.Actor{Name: "capture"}))
		}
		// busan replaced both earlier homes; tea replaced nothing.
		for _, old := range []*engine.Memory{daegu, seoul} {
			old.SupersededBy, old.ValidTo, old.SupersededAt = busan.ID, at(5), at(5)
			must(t, db.UpdateMemory(ctx, old, engine.Actor{Name: "curator", Batch: "curator-x-1"}, "supersede"))
		}
		ms, total, err := db.FindMemories(ctx, engine.MemoryFilter{SupersededBy: []int64{busan.ID, tea.ID}})
		must(t, err)
		var ids []int64
		for _, m := range ms {
			ids = append(ids, m.ID)
			if m.SupersededBy != busan.ID {
				t.Errorf("memory %d superseded by %d, want %d", m.ID, m.SupersededBy, busan.ID)
			}
		}
		if want := []int64{seoul.ID, daegu.ID}; total != 2 || !slices.Equal(ids, want) {
			t.Fatalf("superseded by %d or %d = %v (total %d), want %v", busan.ID, tea.ID, ids, total, want)
		}
		ms, total, err = db.FindMemories(ctx, engine.MemoryFilter{SupersededBy: []int64{tea.ID}})
		must(t, err)
		if total != 0 || len(ms) != 0 {
			t.Fatalf("superseded by %d (replaced nothing) = %d memories", tea.ID, total)
		}
	})
}
