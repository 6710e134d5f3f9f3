package recall_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"memtrace/internal/testdata/enginetest"

	"memtrace/internal/testdata/benchtest"

	"memtrace/engine"
	"memtrace/recall"
)

// Benchmarks of the full traced recall over synthetic stores, and of the
// scan floor (one brute-force similarity pass over every vector) so the
// ratio recall ÷ scan floor can be reported:
//
//	go test ./engine -run '^$' -bench 'Recall|ScanFloor' -benchtime 200x
//
// Each reports p50_ms and p95_ms (wall) and p50_cpu_ms (the recall's own
// thread CPU time, which a loaded machine does not inflate), cpu_ms/op and
// peakRSS_MB besides ns/op.

// syntheticWords is a bilingual vocabulary: Korean words built from common
// syllables (with particles, so preprocessing has work to do) and English
// words built from common letter pairs.
func syntheticWords(n int) []string {
	syl := []rune("가나다라마바사아자차카타파하고노도로모보소오조초코토포호구누두루무부수우주추")
	pairs := []string{"st", "re", "an", "on", "er", "in", "ti", "ar", "ou", "de", "ma", "pl", "co", "li", "br", "ve"}
	words := make([]string, n)
	for i := range words {
		if i%2 == 0 {
			a, b, c := syl[i%len(syl)], syl[(i/len(syl))%len(syl)], syl[(i/(len(syl)*len(syl)))%len(syl)]
			words[i] = string([]rune{a, b, c})
		} else {
			j := i / 2
			words[i] = pairs[j%16] + pairs[(j/16)%16] + pairs[(j/256)%16] + "s"
		}
	}
	return words
}

// buildSynthetic stores n memories in one transaction and opens an engine
// over them: Zipf-distributed words (s = 1.1 over 20k words), 8–16 words a
// memory, 30% episodes, 100 HOT memories, created over the year before now.
func buildSynthetic(b *testing.B, n int) (*engine.Engine, []string) {
	b.Helper()
	ctx := context.Background()
	now := time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)
	e, db := enginetest.Open(b, "", now)
	words := syntheticWords(20000)
	r := rand.New(rand.NewSource(42))
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(words)-1))
	particles := []string{"", "가", "를", "에서", "은"}
	ms := make([]*engine.Memory, n)
	for i := range ms {
		var sb strings.Builder
		for w := 8 + r.Intn(9); w > 0; w-- {
			word := words[zipf.Uint64()]
			sb.WriteString(word)
			if word[0] >= 0x80 {
				sb.WriteString(particles[r.Intn(len(particles))])
			}
			sb.WriteByte(' ')
		}
		m := &engine.Memory{
			Key: fmt.Sprintf("syn%06d", i), Content: sb.String(), Kind: engine.KindFact, Type: "note",
			Importance: 0.3 + 0.6*r.Float64(), Session: fmt.Sprintf("s%04d", i/50),
			CreatedAt: now.Add(-time.Duration(r.Int63n(int64(365 * 24 * time.Hour)))),
		}
		if r.Intn(10) < 3 {
			m.Kind, m.Type = engine.KindEpisode, "episode"
		}
		if i%(n/100) == 0 {
			m.Tier, m.Type = engine.TierHot, "rule"
		}
		if err := e.PrepareMemory(ctx, m); err != nil {
			b.Fatal(err)
		}
		ms[i] = m
	}
	err := db.Update(ctx, func(q engine.Queries) error {
		for _, m := range ms {
			if err := q.InsertMemory(ctx, m, engine.Actor{Name: "bench"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	e2, err := engine.Open(ctx, engine.Options{Store: db, Now: func() time.Time { return now }})
	if err != nil {
		b.Fatal(err)
	}
	// Queries: three to five content words — ranks 30 to 3000 of the
	// distribution; the head ranks play the part of function words, which
	// real queries lose to the stop list — with particles and stop words
	// around them.
	queries := make([]string, 64)
	for i := range queries {
		var sb strings.Builder
		sb.WriteString("그 ")
		for w := 3 + r.Intn(3); w > 0; w-- {
			sb.WriteString(words[30+zipf.Uint64()%2970])
			sb.WriteString("의 ")
		}
		sb.WriteString("알려줘")
		queries[i] = sb.String()
	}
	return e2, queries
}

// threadCPU is the CPU time of the calling OS thread (Linux): with the
// goroutine locked to its thread it measures one recall's own work, which
// a loaded machine does not inflate the way it inflates wall time.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS is the process's peak resident set size in MB (VmHWM).
func peakRSS() float64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// latencies times fn b.N times and reports p50/p95 wall time, p50 thread
// CPU time, CPU per op (process, GC included) and peak RSS.
func latencies(b *testing.B, fn func(i int)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	wall := make([]time.Duration, 0, b.N)
	cpu := make([]time.Duration, 0, b.N)
	cpu0 := benchtest.ProcessCPU()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, start := threadCPU(), time.Now()
		fn(i)
		wall = append(wall, time.Since(start))
		cpu = append(cpu, threadCPU()-c)
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	slices.Sort(wall)
	slices.Sort(cpu)
	b.ReportMetric(ms(wall[len(wall)/2]), "p50_ms")
	b.ReportMetric(ms(wall[len(wall)*95/100]), "p95_ms")
	b.ReportMetric(ms(cpu[len(cpu)/2]), "p50_cpu_ms")
	b.ReportMetric(ms(benchtest.ProcessCPU()-cpu0)/float64(b.N), "cpu_ms/op")
	b.ReportMetric(peakRSS(), "peakRSS_MB")
}

func benchmarkRecall(b *testing.B, n int) {
	e, queries := buildSynthetic(b, n)
	ctx := context.Background()
	at := e.Now()
	latencies(b, func(i int) {
		tr, err := recall.Recall(ctx, e, engine.Query{Text: queries[i%len(queries)], At: at, ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		if len(tr.Stages) != len(engine.StageNames) {
			b.Fatal("incomplete trace")
		}
	})
}

func BenchmarkRecall10k(b *testing.B)  { benchmarkRecall(b, 10_000) }
func BenchmarkRecall100k(b *testing.B) { benchmarkRecall(b, 100_000) }

// BenchmarkScanFloor100k is one brute-force similarity pass over all 100k
// stored vectors: the floor a recall's latency is compared against.
func BenchmarkScanFloor100k(b *testing.B) {
	e, queries := buildSynthetic(b, 100_000)
	vs, err := e.Embed(context.Background(), queries...)
	if err != nil {
		b.Fatal(err)
	}
	latencies(b, func(i int) {
		if n := e.ScanFloor(vs[i%len(vs)]); n != 100_000 {
			b.Fatalf("scanned %d vectors", n)
		}
	})
}
