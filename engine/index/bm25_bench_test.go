package index

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// A search of a context index shaped like the engine's: 10k documents in
// sessions of 20, each counting the turns one and two away (weights 0.5,
// 0.5, 0.25, 0.25), words of a small vocabulary as `memtrace bench
// recall`'s memories, three-term queries (each term in about 6% of the documents):
//
//	go test ./engine/lexical -run '^$' -bench SearchContext -benchtime 2000x
func BenchmarkSearchContext10k(b *testing.B) {
	const n, session = 10_000, 20
	r := rand.New(rand.NewPCG(1, 2))
	ix := NewContextBM25(K1, B, []float64{0.5, 0.5, 0.25, 0.25})
	vocab := make([]string, 60)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%d", i)
	}
	for id := range int64(n) {
		tokens := []string{"talk", "about"}
		for range 4 {
			tokens = append(tokens, vocab[r.IntN(len(vocab))])
		}
		ix.Add(id, tokens)
	}
	for id := range int64(n) {
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
		queries[i] = map[string]float64{vocab[r.IntN(len(vocab))]: 1, vocab[r.IntN(len(vocab))]: 1, vocab[r.IntN(len(vocab))]: 1}
	}
	df := map[string]int{}
	i := 0
	for b.Loop() {
		clear(df)
		ix.SearchWeightedDF(queries[i%len(queries)], 50, df)
		i++
	}
}
