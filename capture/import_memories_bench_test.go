package capture_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/internal/testdata/benchtest"

	"memtrace/engine"
	"memtrace/importer"
	"memtrace/internal/testdata/storetest"
)

// BenchmarkImportMemories100k imports 100,000 stored memories from the
// generic JSONL into a new database — parse, embed, one audited batch,
// the engine's indexes brought up to date — and reports, measured in the
// same run, the floor of inserting the same rows with InsertMemory alone
// (no parsing, no source rows): import/floor is the ratio. import_cpu_ms
// is the process's CPU time for the import (all threads), which a machine
// shared with other work changes less than the wall time. Issue 21's target
// is ≤ 10 s for the import.
//
//	go test ./engine -run '^$' -bench ImportMemories100k -benchtime 1x
func BenchmarkImportMemories100k(b *testing.B) {
	const n = 100_000
	var src strings.Builder
	for i := range n {
		fmt.Fprintf(&src, `{"id":"m-%d","text":"Memory %d: my colleague number %d prefers %s tea in the %s.","type":"preference","created_at":"2026-01-%02dT09:00:00Z"}`+"\n",
			i, i, i%977, []string{"green", "black", "barley", "oolong"}[i%4], []string{"morning", "evening"}[i%2], 1+i%28)
	}
	at := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { return at }
	ctx := context.Background()
	var importWall, floorWall, importCPU time.Duration
	for b.Loop() {
		db := storetest.MustOpenClock(b, now)
		e, err := engine.Open(ctx, engine.Options{Store: db, Now: now})
		if err != nil {
			b.Fatal(err)
		}
		start, cpu0 := time.Now(), benchtest.ProcessCPU()
		recs, bad, err := importer.ReadStoredJSONL(strings.NewReader(src.String()))
		if err != nil || len(bad) > 0 {
			b.Fatal(err, bad)
		}
		rep, err := capture.ImportMemories(ctx, e, capture.MemoryImportOptions{Source: importer.SourceJSONL, Path: "bench"}, recs, bad)
		importWall += time.Since(start)
		importCPU += benchtest.ProcessCPU() - cpu0
		if err != nil || rep.Stored != n || e.Len() != n {
			b.Fatalf("stored %d of %d (engine holds %d): %v", rep.Stored, n, e.Len(), err)
		}

		// The floor: the same memories, already built, inserted in one
		// transaction through the store alone.
		fdb := storetest.MustOpenClock(b, now)
		ms := make([]*engine.Memory, n)
		for i, r := range recs {
			ms[i] = &engine.Memory{Key: r.SourceID, Content: r.Text, Kind: engine.KindFact, Type: "preference", Status: engine.StatusActive,
				Tier: engine.TierWarm, Scope: engine.ScopeGlobal, Importance: math.Float64frombits(0x3fe6666666666666),
				CreatedAt: r.CreatedAt, LastAccessedAt: r.CreatedAt, Hash: engine.ContentHash(r.Text)}
		}
		start = time.Now()
		err = fdb.Update(ctx, func(q engine.Queries) error {
			for _, m := range ms {
				if err := q.InsertMemory(ctx, m, engine.Actor{Name: "bench", Batch: "floor"}); err != nil {
					return err
				}
			}
			return nil
		})
		floorWall += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(importWall.Milliseconds())/float64(b.N), "import_ms")
	b.ReportMetric(float64(floorWall.Milliseconds())/float64(b.N), "insert_floor_ms")
	b.ReportMetric(float64(importCPU.Milliseconds())/float64(b.N), "import_cpu_ms")
	b.ReportMetric(float64(importWall)/float64(floorWall), "import/floor")
}
