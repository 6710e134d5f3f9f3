package engine

import "sort"

// Read-only views of the engine's caches that the recall pipeline needs
// beyond the search methods of engine.go.

// idfSum is Σ weight(t) × idf(t) over the query terms: the BM25 score of a
// document of average length that contains each term once. Recall divides
// by it to put BM25 scores on an absolute 0..1 scale. Terms no memory
// contains are left out. df holds the document frequencies the recall's
// lexical search found (docFreq).
func (e *Engine) idfSum(weights map[string]float64, df map[string]int) float64 {
	terms := make([]string, 0, len(weights))
	for t := range weights {
		terms = append(terms, t)
	}
	sort.Strings(terms) // float addition is not associative: fix the order
	e.mu.RLock()
	defer e.mu.RUnlock()
	sum := 0.0
	for _, t := range terms {
		if f := e.docFreq(df, t); f > 0 {
			sum += weights[t] * e.lex.IDFOf(f)
		}
	}
	return sum
}
