package engine

import (
	"context"
	"fmt"
	"sort"
)

// Read-only views of the engine's caches that the recall pipeline needs
// beyond the search methods of engine.go.

// hotIDs returns the ids of active HOT-tier memories, in id order: the
// candidates of the guaranteed channel. HOT is capped at about a hundred
// lines; the store finds them through its tier index, which at 100k
// memories is far cheaper than a pass over the cache. Only memories the
// cache also holds as active and HOT count, so a recall sees one consistent
// state.
func (e *Engine) hotIDs(ctx context.Context) ([]int64, error) {
	hot := TierHot
	ms, _, err := e.store.FindMemories(ctx, MemoryFilter{Tier: &hot})
	if err != nil {
		return nil, fmt.Errorf("find HOT memories: %w", err)
	}
	var ids []int64
	for _, sm := range ms {
		if m, ok := e.Memory(sm.ID); ok && m.Tier == TierHot && m.Status == StatusActive {
			ids = append(ids, m.ID)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids, nil
}

// idfSum is Σ weight(t) × idf(t) over the query terms: the BM25 score of a
// document of average length that contains each term once. Recall divides
// by it to put BM25 scores on an absolute 0..1 scale. Terms no memory
// contains are left out.
func (e *Engine) idfSum(weights map[string]float64) float64 {
	terms := make([]string, 0, len(weights))
	for t := range weights {
		terms = append(terms, t)
	}
	sort.Strings(terms) // float addition is not associative: fix the order
	e.mu.RLock()
	defer e.mu.RUnlock()
	sum := 0.0
	for _, t := range terms {
		if e.lex.DocFreq(t) > 0 {
			sum += weights[t] * e.lex.IDF(t)
		}
	}
	return sum
}
