package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// BenchmarkBatches100k measures what opening the Curate tab spends on its
// batch history: 100k memories written by 100 ingest batches of 1,000,
// with 5 curator batches of 10 retypes after every 10 ingest batches (so
// the older ingest batches cannot be rolled back), 150 batches in all.
// "history-50" is the Curate tab's read (the newest 50), "history-all" the
// CLI's `batches --limit 0`. The reference of the same run is one page of
// the Memories list (FindMemories with a limit of 200). cpu_ms/op is this
// process's CPU time per op.
//
// On PostgreSQL (MEMTRACE_TEST_PG set) the same database is built there.
func BenchmarkBatches100k(b *testing.B) {
	for _, be := range storetest.Backends {
		b.Run(be.Name, func(b *testing.B) {
			if be.Name == "postgres" {
				storetest.PGBase(b) // skips loudly without a server
			}
			db := be.Open(b, nil)
			fillBatches(b, db)
			ctx := context.Background()
			b.Run("reference-page", func(b *testing.B) {
				cpu0 := cpuTime()
				for b.Loop() {
					if _, _, err := db.FindMemories(ctx, engine.MemoryFilter{Limit: 200}); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu0)
			})
			for _, bc := range []struct {
				name         string
				limit, wants int
			}{{"history-50", 50, 50}, {"history-all", 0, 150}} {
				b.Run(bc.name, func(b *testing.B) {
					cpu0 := cpuTime()
					for b.Loop() {
						bs, err := db.Batches(ctx, bc.limit)
						if err != nil || len(bs) != bc.wants {
							b.Fatalf("batches = %d, %v", len(bs), err)
						}
					}
					reportCPU(b, cpu0)
				})
			}
		})
	}
}

// reportCPU reports the process CPU time per op since cpu0 (on a shared
// machine it says more than wall time; on PostgreSQL it leaves out the
// server's share).
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu_ms/op")
}

// fillBatches writes the 150 batches BenchmarkBatches100k reads.
func fillBatches(tb testing.TB, db *store.DB) {
	tb.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	const per = 1000
	for i := range 100 {
		err := db.Update(ctx, func(q engine.Queries) error {
			a := engine.Actor{Name: "capture", Batch: fmt.Sprintf("ingest-%03d", i)}
			for j := range per {
				if err := q.InsertMemory(ctx, benchMemory(r, i*per+j), a); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
		if i%10 != 9 {
			continue
		}
		for c := range 5 {
			err := db.Update(ctx, func(q engine.Queries) error {
				a := engine.Actor{Name: "curator", Batch: fmt.Sprintf("curate-%03d-%d", i, c)}
				for range 10 {
					m, err := q.GetMemory(ctx, int64(1+r.IntN((i+1)*per)))
					if err != nil {
						return err
					}
					m.Type = map[bool]string{true: "rule", false: "note"}[m.Type == "note"]
					if err := q.UpdateMemory(ctx, m, a, "retype"); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				tb.Fatal(err)
			}
		}
	}
}
