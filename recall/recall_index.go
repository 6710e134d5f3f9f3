package recall

import (
	"memtrace/engine"
)

// Read-only views of the engine's caches that the recall pipeline needs
// beyond the search methods of engine.go.

// idfSum is Σ weight(t) × idf(t) over the query terms: the BM25 score of a
// document of average length that contains each term once. Recall divides
// by it to put BM25 scores on an absolute 0..1 scale. Terms no memory
// contains are left out; a concept partner's slot counts once (queryMass).
// df holds the document frequencies the recall's lexical search found
// (docFreq).
func idfSum(e *engine.Engine, weights map[string]float64, df map[string]int, from map[string]string) float64 {
	v := e.View()
	defer v.Close()
	_, _, total := queryMass(v, weights, df, from)
	return total
}

// scoresPerCandidate is room for the scores a recall gives one candidate
// (about twenty, over all stages); more simply grow its slice.
const scoresPerCandidate = 20

// recallPool makes the recall's candidates: the memories of the lexical
// hits, of the vector hits, of the period and two-hop hits with a positive score (orthogonal or opposite:
// not similar at all) and of the HOT ids, each once, in the order they
// first appear, marked with the retrievers that found them. vecHits and
// hot count the vector hits and HOT ids that are memories. One read lock,
// one allocation for all candidates and one for their scores.
func recallPool(e *engine.Engine, lex, vec, per, hop []engine.Hit, hotIDs []int64) (order []*candidate, vecHits, hot int) {
	n := len(lex) + len(vec) + len(per) + len(hop) + len(hotIDs)
	cs := make([]candidate, 0, n) // never grows: the pointers stay valid
	scores := make([]namedScore, n*scoresPerCandidate)
	order = make([]*candidate, 0, n)
	byID := make(map[int64]*candidate, n)
	v := e.View()
	defer v.Close()
	add := func(id int64) *candidate {
		if c, ok := byID[id]; ok {
			return c
		}
		m := v.Memory(id)
		if m == nil {
			return nil
		}
		row, _ := v.Vector(id)
		k := len(cs)
		cs = append(cs, candidate{m: *m, vec: row, scores: scores[k*scoresPerCandidate : k*scoresPerCandidate : (k+1)*scoresPerCandidate]})
		c := &cs[k]
		byID[id] = c
		order = append(order, c)
		return c
	}
	for _, h := range lex {
		if c := add(h.ID); c != nil {
			c.fromLex, c.bm25 = true, h.Score
		}
	}
	for _, h := range vec {
		if h.Score <= 0 {
			continue
		}
		if c := add(h.ID); c != nil {
			c.fromVec = true
			vecHits++
		}
	}
	for _, h := range per {
		if c := add(h.ID); c != nil {
			c.ofPeriod = true
		}
	}
	for _, h := range hop {
		add(h.ID)
	}
	for _, id := range hotIDs {
		if c := add(id); c != nil {
			c.fromHot = true
			hot++
		}
	}
	return order, vecHits, hot
}
