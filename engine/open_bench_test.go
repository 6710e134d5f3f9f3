package engine_test

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"

	"memtrace/engine"
)

// BenchmarkEngineOpen100k opens an engine over a 100k-memory database —
// reading every row and rebuilding the vector, lexical (with session
// context) and HOT indexes — and reports, measured in the same run, the
// read floor: one ForEachMemory pass over the same database, which any open
// must pay. Issue 2's target is ≤ 1 s for the open.
//
//	go test ./engine -run '^$' -bench EngineOpen100k -benchtime 5x
//
// Besides p50_ms and p50_cpu_ms (see latencies) it reports read_floor_ms,
// read_floor_cpu_ms, the ratio open ÷ read floor (CPU), and heap_MB: the
// live heap after an open, the engine's resident cost.
func BenchmarkEngineOpen100k(b *testing.B) {
	const n = 100_000
	built, _ := buildSynthetic(b, n)
	// The clock by value: a method value of built would keep the whole
	// engine alive and count it in heap_MB.
	at := built.Now()
	db, now := built.Store(), func() time.Time { return at }
	ctx := context.Background()

	runtime.LockOSThread()
	var wall, cpu []time.Duration
	for range 3 {
		c, start := threadCPU(), time.Now()
		count := 0
		err := db.ForEachMemory(ctx, func(m *engine.Memory) error { count++; return nil })
		if err != nil || count != n {
			b.Fatalf("read floor: %d memories, %v", count, err)
		}
		wall, cpu = append(wall, time.Since(start)), append(cpu, threadCPU()-c)
	}
	runtime.UnlockOSThread()
	built = nil
	runtime.GC()

	var openCPU []time.Duration
	var heap uint64
	latencies(b, func(i int) {
		c := threadCPU()
		e, err := engine.Open(ctx, engine.Options{Store: db, Now: now})
		openCPU = append(openCPU, threadCPU()-c)
		if err != nil {
			b.Fatal(err)
		}
		if e.Len() != n {
			b.Fatalf("opened %d memories, want %d", e.Len(), n)
		}
		if i == 0 {
			b.StopTimer()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heap = ms.HeapAlloc
			b.StartTimer()
		}
		runtime.KeepAlive(e)
	})
	slices.Sort(wall)
	slices.Sort(cpu)
	slices.Sort(openCPU)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(wall[len(wall)/2]), "read_floor_ms")
	b.ReportMetric(ms(cpu[len(cpu)/2]), "read_floor_cpu_ms")
	if f := cpu[len(cpu)/2]; f > 0 {
		b.ReportMetric(float64(openCPU[len(openCPU)/2])/float64(f), "open/floor_cpu")
	}
	b.ReportMetric(float64(heap)/(1<<20), "heap_MB")
}
