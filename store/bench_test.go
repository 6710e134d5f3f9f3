package store_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

const benchDim = 256

// benchMemory is a realistic row: bilingual text, every field set, a
// 256-dimensional vector.
func benchMemory(r *rand.Rand, i int) *engine.Memory {
	content := fmt.Sprintf("memory %d: 사용자는 %d번째 프로젝트에서 충주 사과와 녹차를 좋아한다고 말했다 (prefers tea, item %d)", i, i%97, i)
	vec := make([]float32, benchDim)
	for j := range vec {
		vec[j] = r.Float32()*2 - 1
	}
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	return &engine.Memory{
		Key: "bench-" + strconv.Itoa(i), Content: content, Kind: engine.KindFact, Type: "preference",
		Status: engine.StatusActive, Tier: engine.TierWarm, Scope: engine.ScopeGlobal, Importance: r.Float64(),
		Role: "user", Session: "s" + strconv.Itoa(i%50), CreatedAt: base, LastAccessedAt: base.Add(time.Hour),
		AccessCount: i % 7, Boost: 0.1, BoostAt: base, Hash: engine.ContentHash(content),
		Embedding: vec, Embedder: "hashed-256",
	}
}

func fill(tb testing.TB, db *store.DB, n int) {
	tb.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	const batch = 5000
	for start := 0; start < n; start += batch {
		err := db.Update(context.Background(), func(q engine.Queries) error {
			for i := start; i < min(start+batch, n); i++ {
				if err := q.InsertMemory(context.Background(), benchMemory(r, i), engine.Actor{Name: "bench", Batch: "fill"}); err != nil {
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

// cpuTime is the process's user+system CPU time: on a shared machine it
// says more about the code than wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// vmHWM reads the process's peak resident set size in MB from /proc.
func vmHWM() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkOpenLoad100k opens a 100k-memory database and streams every
// memory into a slice, as the engine does before building its indexes.
// cpu_ms/op is the process CPU time per load (GC included), which a busy
// machine distorts less than ns/op.
func BenchmarkOpenLoad100k(b *testing.B) {
	const n = 100_000
	// With MEMTRACE_BENCH_DB set, the database is built there once and
	// reused, so that a second run's peak RSS is that of the load alone.
	path := os.Getenv("MEMTRACE_BENCH_DB")
	if path == "" {
		path = filepath.Join(b.TempDir(), "load.db")
	}
	if _, err := os.Stat(path); err != nil {
		setup := storetest.MustOpenPath(b, path, nil)
		fill(b, setup, n)
		must(b, setup.Close())
	}
	runtime.GC()
	b.ResetTimer()
	cpu0 := cpuTime()
	var heap uint64
	for b.Loop() {
		db, err := store.Open(context.Background(), path, nil)
		if err != nil {
			b.Fatal(err)
		}
		ms := make([]*engine.Memory, 0, n)
		err = db.ForEachMemory(context.Background(), func(m *engine.Memory) error {
			ms = append(ms, m)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if len(ms) != n || len(ms[n-1].Embedding) != benchDim {
			b.Fatalf("loaded %d memories", len(ms))
		}
		var st runtime.MemStats
		runtime.ReadMemStats(&st)
		heap = max(heap, st.HeapAlloc)
		db.Close()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu_ms/op")
	b.ReportMetric(float64(heap)/(1<<20), "heap_MB")
	b.ReportMetric(vmHWM(), "peakRSS_MB")
}

// BenchmarkInsertBatch inserts memories 1,000 to a transaction, with their
// audit rows, as an ingest does.
func BenchmarkInsertBatch(b *testing.B) {
	db := storetest.MustOpen(b)
	r := rand.New(rand.NewPCG(3, 4))
	const batch = 1000
	next := 0
	ms := make([]*engine.Memory, 0, batch)
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		ms = ms[:0]
		for range batch {
			ms = append(ms, benchMemory(r, next))
			next++
		}
		b.StartTimer()
		c0 := cpuTime()
		err := db.Update(context.Background(), func(q engine.Queries) error {
			for _, m := range ms {
				if err := q.InsertMemory(context.Background(), m, engine.Actor{Name: "bench", Batch: "b"}); err != nil {
					return err
				}
			}
			return nil
		})
		cpu += cpuTime() - c0
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "memories/s")
	b.ReportMetric(float64(b.N*batch)/cpu.Seconds(), "memories/cpu_s")
}
