package ui

import (
	"context"
	"strconv"
	"testing"

	"memtrace/engine"
)

// BenchmarkSupersededLinks measures what every Curate reload spends on the
// superseded queue: 100k memories in a real SQLite store, 1,000 of them
// superseded (audited links), none or half of them marked reviewed. The reference
// is the reload's other big read, one page of the Memories list
// (FindMemories with a limit of 200), measured in the same run.
func BenchmarkSupersededLinks(b *testing.B) {
	ctx := context.Background()
	ms := newMemories(100_000)
	s := openStore(b, ms, nil)
	var mark int64
	if err := s.Update(ctx, func(q engine.Queries) error {
		for i := range 1000 {
			old, err := q.GetMemory(ctx, int64(2*i+1))
			if err != nil {
				return err
			}
			old.SupersededBy, old.ValidTo, old.SupersededAt = int64(2*i+2), testNow, testNow
			if err := q.UpdateMemory(ctx, old, engine.Actor{Name: "curator", Batch: "bench"}, "supersede"); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	all, err := loadSupersededLinks(ctx, s)
	if err != nil || len(all.Links) != 1000 {
		b.Fatalf("links = %d, %v", len(all.Links), err)
	}
	mark = all.Links[500].AuditID
	if err := s.SetSetting(ctx, settingSupersededReviewed, strconv.FormatInt(mark, 10)); err != nil {
		b.Fatal(err)
	}
	b.Run("unreviewed", func(b *testing.B) {
		if err := s.SetSetting(ctx, settingSupersededReviewed, "0"); err != nil {
			b.Fatal(err)
		}
		defer func() { _ = s.SetSetting(ctx, settingSupersededReviewed, strconv.FormatInt(mark, 10)) }()
		for i := 0; i < b.N; i++ {
			l, err := loadSupersededLinks(ctx, s)
			if err != nil || len(l.Links) != 1000 {
				b.Fatalf("links = %d, %v", len(l.Links), err)
			}
		}
	})
	b.Run("half-reviewed", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			l, err := loadSupersededLinks(ctx, s)
			if err != nil || len(l.Links) != 500 || l.All != 1000 {
				b.Fatalf("links = %d of %d, %v", len(l.Links), l.All, err)
			}
		}
	})
	b.Run("reference-page", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, _, err := s.FindMemories(ctx, engine.MemoryFilter{Limit: 200}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
