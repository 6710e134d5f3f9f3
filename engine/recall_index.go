package engine

// Read-only views of the engine's caches that the recall pipeline needs
// beyond the search methods of engine.go.

// hotIDs returns the ids of active HOT-tier memories, in id order: the
// candidates of the guaranteed channel. HOT is capped at about a hundred
// lines, so the list is short; finding it is one pass over the cache.
func (e *Engine) hotIDs() []int64 {
	var ids []int64
	e.EachMemory(func(m *Memory) bool {
		if m.Tier == TierHot && m.Status == StatusActive {
			ids = append(ids, m.ID)
		}
		return true
	})
	return ids
}

// idfSum is Σ idf(t) over the distinct terms: the BM25 score of a document
// of average length that contains each term once. Recall divides by it to
// put BM25 scores on an absolute 0..1 scale.
func (e *Engine) idfSum(terms []string) float64 {
	e.mu.RLock()
	defer e.mu.RUnlock()
	seen := make(map[string]bool, len(terms))
	sum := 0.0
	for _, t := range terms {
		if seen[t] {
			continue
		}
		seen[t] = true
		if e.lex.DocFreq(t) > 0 {
			sum += e.lex.IDF(t)
		}
	}
	return sum
}
