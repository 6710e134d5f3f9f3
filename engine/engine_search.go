package engine

import "memtrace/engine/index"

// LexicalSearch returns the n best BM25 matches for terms over every cached
// memory, whatever its status (the recall pipeline's exclude stage filters).
func (e *Engine) LexicalSearch(terms []string, n int) []Hit {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.lex.Search(terms, n)
}

// LexicalSearchDF is LexicalSearch with a weight per term that records
// every query term's document frequency in df (index.BM25.SearchWeightedDF),
// for the later stages of the same recall (View.DocFreq).
func (e *Engine) LexicalSearchDF(terms map[string]float64, n int, df map[string]int) []Hit {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.lex.SearchWeightedDF(terms, n, df)
}

// docFreq is t's document frequency from a recall's df (LexicalSearchDF), or
// from the index when df lacks it. Caller holds e.mu (read).
func (e *Engine) docFreq(df map[string]int, t string) int {
	if f, ok := df[t]; ok {
		return f
	}
	return e.lex.DocFreq(t)
}

// VectorSearch returns the n memories whose vectors are most similar
// (cosine) to vec.
func (e *Engine) VectorSearch(vec []float32, n int) []Hit {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.vec.Search(vec, n)
}

// ScanFloor runs one brute-force similarity pass over every stored vector —
// the reference a recall's latency is reported against.
func (e *Engine) ScanFloor(vec []float32) int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	n, _ := e.vec.ScanAll(vec)
	return n
}

// Similarity is the cosine similarity of two memories' vectors (0 when
// either is unknown).
func (e *Engine) Similarity(a, b int64) float64 {
	e.mu.RLock()
	defer e.mu.RUnlock()
	va, ok1 := e.vec.Get(a)
	vb, ok2 := e.vec.Get(b)
	if !ok1 || !ok2 {
		return 0
	}
	return index.Cosine(va, vb)
}

// VectorOf returns a memory's vector (shared: do not modify).
func (e *Engine) VectorOf(id int64) ([]float32, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.vec.Get(id)
}
