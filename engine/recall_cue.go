package engine

import (
	"sort"
)

// Cue-dependent recall: recognition versus free recall.
//
// A memory that has decayed out of free recall (decay × importance <
// ForgetThreshold) is still found when the query cues it specifically —
// Tulving's encoding specificity: "충주 시에 충주 사과가 맛있었지?" brings
// back "충주 사과가 맛있네" long after nothing else would. How specific a
// cue is, is measured on the memory's OWN text, never on its conversational
// context (context_index.go), so a memory is recognised by what it says,
// not by what was said next to it:
//
//	cue_score = Σ weight(t)·idf(t) over the query terms t in the memory's own text
//	            ─────────────────────────────────────────────────────────────
//	            Σ weight(t)·idf(t) over all query terms the index knows
//
// (the weights and idf of the BM25 query, so rare words carry the cue and
// "시" or a speaker's name barely does). See DecayHelp for the thresholds
// and the retention formula.

// cueScores returns the cue_score of each id for the weighted query terms,
// in the order of ids. Caller must not hold e.mu.
func (e *Engine) cueScores(ids []int64, weights map[string]float64) []float64 {
	terms := make([]string, 0, len(weights))
	for t := range weights {
		terms = append(terms, t)
	}
	sort.Strings(terms) // float addition is not associative: fix the order
	out := make([]float64, len(ids))
	e.mu.RLock()
	defer e.mu.RUnlock()
	mass := make(map[string]float64, len(terms))
	total := 0.0
	for _, t := range terms {
		df := e.lex.DocFreq(t)
		if df == 0 {
			continue
		}
		w := weights[t] * e.lex.IDFOf(df)
		mass[t] = w
		total += w
	}
	if total <= 0 {
		return out
	}
	set := e.termSet(mass)
	seen := make(map[string]bool, len(mass))
	for i, id := range ids {
		clear(seen)
		for _, no := range e.ownTerms(id) {
			if t, ok := set[no]; ok {
				seen[t] = true
			}
		}
		hit := 0.0
		for _, t := range terms { // fixed order, as above
			if seen[t] {
				hit += mass[t]
			}
		}
		out[i] = min(1, hit/total)
	}
	return out
}
