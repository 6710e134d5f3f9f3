package index

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// A search of a context index shaped like the engine's: documents in
// sessions of 20, each counting the turns one and two away (weights 0.5,
// 0.5, 0.25, 0.25), words of a small vocabulary as `memtrace bench
// recall`'s memories, three-term queries of 30 of its words (each in about
// 6% of the documents; at 1M their spread lists, 280k entries each, fit
// the budget). At 1M, "kept" searches through the spread lists the first
// searches keep (bm25_spread.go), "spreading" spreads every term as a
// search without them does; cpu-ms/op is the process's CPU a search:
//
//	go test ./engine/index -run '^$' -bench SearchContext -benchtime 2000x
//	go test ./engine/index -run '^$' -bench SearchContext1M -benchtime 100x
func BenchmarkSearchContext10k(b *testing.B) {
	ix, queries := contextBenchIndex(10_000)
	df := map[string]int{}
	i := 0
	for b.Loop() {
		clear(df)
		ix.SearchWeightedDF(queries[i%len(queries)], 50, df)
		i++
	}
}

func BenchmarkSearchContext1M(b *testing.B) {
	ix, queries := contextBenchIndex(1_000_000)
	b.Run("kept", func(b *testing.B) {
		for _, q := range queries {
			ix.SearchWeighted(q, 50) // keep the lists
		}
		i := 0
		c0 := cpuNow()
		for b.Loop() {
			ix.SearchWeighted(queries[i%len(queries)], 50)
			i++
		}
		b.ReportMetric(float64(cpuNow()-c0)/float64(i)/1e6, "cpu-ms/op")
	})
	b.Run("spreading", func(b *testing.B) {
		i := 0
		c0 := cpuNow()
		for b.Loop() {
			spreadingSearch(ix, queries[i%len(queries)], 50)
			i++
		}
		b.ReportMetric(float64(cpuNow()-c0)/float64(i)/1e6, "cpu-ms/op")
	})
}

func contextBenchIndex(n int64) (*BM25, []map[string]float64) {
	const session = 20
	r := rand.New(rand.NewPCG(1, 2))
	ix := NewContextBM25(K1, B, []float64{0.5, 0.5, 0.25, 0.25})
	vocab := make([]string, 60)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%d", i)
	}
	for id := range n {
		tokens := []string{"talk", "about"}
		for range 4 {
			tokens = append(tokens, vocab[r.IntN(len(vocab))])
		}
		ix.Add(id, tokens)
	}
	for id := range n {
		w := []int64{id - 1, id + 1, id - 2, id + 2}
		for k, x := range w {
			if x < 0 || x >= n || x/session != id/session {
				w[k] = None
			}
		}
		ix.SetContext(id, w, true)
	}
	ix.RelengthAll()
	queries := make([]map[string]float64, 64)
	for i := range queries {
		queries[i] = map[string]float64{vocab[r.IntN(30)]: 1, vocab[r.IntN(30)]: 1, vocab[r.IntN(30)]: 1}
	}
	return ix, queries
}
