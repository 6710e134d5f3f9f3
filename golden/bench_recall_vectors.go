package golden

import (
	"runtime"
	"slices"
	"time"

	"memtrace/engine"
)

// The vector side of the recall benchmark: CPU per traced recall, the
// vector search against an exact scan of every vector (CPU of each, and
// the share of the exact top 50 the search finds: recall@50 against
// exact), and bytes per memory. With `bench recall --dense DIM` the store
// holds DenseEmbedder vectors, so the vector search goes through the
// index's sign codes (engine/index/vector_codes.go) rather than the pair
// postings of the hashed embedder's sparse vectors.

// vectorBench is what the figures need of an engine beyond BenchEngine
// (recall.Pipeline has it); an engine without it reports them as 0.
type vectorBench interface {
	VectorSearch(vec []float32, n int) []engine.Hit
	View() engine.View
}

// exactVectors is View.ExactVectors under its own view.
func exactVectors(vb vectorBench, q []float32, n int) ([]engine.Hit, int) {
	v := vb.View()
	defer v.Close()
	return v.ExactVectors(q, n)
}

// recallAtK is the k of recall@k against exact.
const recallAtK = 50

// vectorSample collects one size's per-query figures.
type vectorSample struct {
	cpu, search, exact []float64 // ms
	recall             float64   // summed over queries
	queries            int
	bytes              int // the vector index's, at the last query
}

// cpuMS runs fn and returns the process CPU it took, in ms (0 where it
// cannot be read).
func cpuMS(fn func()) float64 {
	c0, _ := processCPU()
	fn()
	return cpuSince(c0)
}

// cpuSince is the process CPU used since c0 (processCPU), in ms.
func cpuSince(c0 time.Duration) float64 {
	c1, ok := processCPU()
	if !ok {
		return 0
	}
	return float64((c1 - c0).Microseconds()) / 1000
}

// measureVectors times the vector search of qvec and the exact scan, and
// adds the search's recall@50 against exact.
func (s *vectorSample) measureVectors(e BenchEngine, qvec []float32) {
	vb, ok := e.(vectorBench)
	if !ok {
		return
	}
	var got, exact []engine.Hit
	s.search = append(s.search, cpuMS(func() { got = vb.VectorSearch(qvec, recallAtK) }))
	s.exact = append(s.exact, cpuMS(func() { exact, s.bytes = exactVectors(vb, qvec, recallAtK) }))
	s.queries++
	if len(exact) == 0 {
		s.recall++
		return
	}
	found := 0
	for _, h := range exact {
		if slices.ContainsFunc(got, func(g engine.Hit) bool { return g.ID == h.ID }) {
			found++
		}
	}
	s.recall += float64(found) / float64(len(exact))
}

// fill writes the sample's figures into run, with bytes per memory of e,
// a store of n memories (kept alive until the heap is read: the caller
// uses it no more, and a collection would free its cache).
func (s *vectorSample) fill(run *RecallRun, e BenchEngine, n int, dim int) {
	run.Dim = dim
	run.CPUP50MS, run.CPUP95MS = round4(percentile(s.cpu, 0.50)), round4(percentile(s.cpu, 0.95))
	run.VectorCPUMS, run.ExactCPUMS = round4(percentile(s.search, 0.50)), round4(percentile(s.exact, 0.50))
	if run.ExactCPUMS > 0 {
		run.VectorRatio = round4(run.VectorCPUMS / run.ExactCPUMS)
	}
	if s.queries > 0 {
		run.RecallAt50 = round4(s.recall / float64(s.queries))
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(e)
	if n > 0 {
		run.HeapBytesPerMemory = int(ms.HeapAlloc) / n
		run.VectorBytesPerMemory = s.bytes / n
	}
}
