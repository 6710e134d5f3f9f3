package recall

import (
	"memtrace/engine"
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
// "시" or a speaker's name barely does). Recognition itself goes by
// cue_strength, the same share with the words said next to the memory
// counted at their context weight: encoding specificity is about the
// context of encoding as much as the item ("Yes, I adopted her last month"
// is cued by the "Did Caroline adopt a dog?" before it), and the lexical
// index already weighs that context so. See DecayHelp for the thresholds,
// the recognition horizon and the retention formula.

// cueScores returns, for the weighted query terms and in the order of ids,
// each memory's cue_score (the share of the query's idf mass in its own
// text) and its cue_strength (the same share with the words said next to
// it counted at their context weight, ContextWeight × ContextDecay^(d−1)
// at distance d, as the lexical index counts them: the context a memory
// was encoded in cues it too, but less than its own words). df as for
// idfSum. Caller must not hold a View.
func cueScores(e *engine.Engine, ids []int64, weights map[string]float64, df map[string]int, from map[string]string) (own, strength []float64) {
	own, strength = make([]float64, len(ids)), make([]float64, len(ids))
	v := e.View()
	defer v.Close()
	terms, mass, total := queryMass(v, weights, df, from) // terms sorted: float addition is not associative
	if total <= 0 {
		return own, strength
	}
	// Term numbers → position in terms, and per-candidate cue weights by
	// position: no string maps on the hot path.
	index := make(map[int32]int, len(mass))
	for i, t := range terms {
		if _, ok := mass[t]; ok {
			if no, ok := v.TermNo(t); ok {
				index[no] = i
			}
		}
	}
	cued := make([]float64, len(terms)) // the weight each term is cued with
	mark := func(id int64, w float64) {
		for _, no := range v.OwnTerms(id) {
			if k, ok := index[no]; ok && cued[k] < w {
				cued[k] = w
			}
		}
	}
	slotWeights := engine.ContextSlotWeights()
	var window [2 * engine.ContextWindow]int64
	for i, id := range ids {
		clear(cued)
		mark(id, 1)
		hit := 0.0
		for k, t := range terms { // fixed order, as above
			if cued[k] == 1 {
				hit += mass[t]
			}
		}
		own[i] = min(1, hit/total)
		if own[i] < 1 && v.Window(id, window[:]) {
			for k, nb := range window {
				if v.Lends(nb) {
					mark(nb, slotWeights[k])
				}
			}
			hit = 0
			for k, t := range terms {
				hit += mass[t] * cued[k]
			}
		}
		strength[i] = min(1, hit/total)
	}
	return own, strength
}
