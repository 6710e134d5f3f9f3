//go:build unix

package index

import (
	"syscall"
	"testing"
	"time"
)

// The dense search benchmarks: clustered 768-d vectors (clusters of a
// thousand, a shared offset), the top 50 by the coded search against the
// exact scan of every row in the same run, with process CPU per search
// (the machine is shared: wall time says little) and recall@50 against
// exact.
//
//	go test ./engine/index -run '^$' -bench 'DenseSearch100k' -benchtime 50x
//	go test ./engine/index -run '^$' -bench 'DenseSearch1M' -benchtime 20x   # 3 GB of rows
func BenchmarkDenseSearch100k(b *testing.B) { benchDenseSearch(b, 100_000) }
func BenchmarkDenseSearch1M(b *testing.B)   { benchDenseSearch(b, 1_000_000) }

func benchDenseSearch(b *testing.B, n int) {
	const dim = 768
	vecs := clustered(11, n+64, dim, 1000, 2.0, 0.3)
	ix := NewVectors(dim)
	ix.Reserve(n)
	for i, v := range vecs[:n] {
		ix.Set(int64(i+1), v)
	}
	qs := vecs[n:]
	clear(vecs[:n]) // the index holds the only copy
	b.Run("exact", func(b *testing.B) {
		i := 0
		c0 := cpuNow()
		for b.Loop() {
			ix.SearchExact(qs[i%len(qs)], 50)
			i++
		}
		b.ReportMetric(float64(cpuNow()-c0)/float64(i)/1e6, "cpu-ms/op")
	})
	b.Run("coded", func(b *testing.B) {
		i, sum := 0, 0.0
		var cpu time.Duration
		for b.Loop() {
			q := qs[i%len(qs)]
			c0 := cpuNow()
			got := ix.Search(q, 50)
			cpu += cpuNow() - c0
			b.StopTimer()
			sum += recallAt(got, ix.SearchExact(q, 50))
			b.StartTimer()
			i++
		}
		b.ReportMetric(float64(cpu)/float64(i)/1e6, "cpu-ms/op")
		b.ReportMetric(sum/float64(i), "recall@50")
	})
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
