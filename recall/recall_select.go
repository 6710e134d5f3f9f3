package recall

import (
	"fmt"
	"strconv"

	"memtrace/engine"
	"memtrace/engine/index"
)

// Stages 5–8: guaranteed, mmr, merge, blend (temporal, stage 4, is in
// recall_temporal.go).

// nearDuplicate: an item at least this similar (cosine) to one already
// selected by MMR repeats it and is dropped.
const nearDuplicate = 0.95

// guaranteed decides the HOT tier's privilege. A HOT memory (always-include
// rules, preferences, facts) enters the guaranteed channel only when it is
// relevant to THIS query — relevance_score ≥ GuaranteedGate — and only up to
// GuaranteedCap of them, best relevance first. A HOT memory that fails the
// gate loses the privilege: it stays as an ordinary candidate if search found
// it and it clears the relevance floor, and is dropped otherwise. This is
// the fix for seed 001, where two milestones rode along with "안녕", "배가
// 아파" and "디버깅 도와줘".
func (r *recallRun) guaranteed(st *engine.StageTrace) {
	gate, capN := r.cfg.GuaranteedGate, r.cfg.GuaranteedCap
	var hot, rest []*candidate
	for _, c := range r.live {
		if c.fromHot {
			hot = append(hot, c)
		} else {
			rest = append(rest, c)
		}
	}
	sortByScore(hot, func(c *candidate) float64 { return c.relevance })
	var granted []*candidate
	dropped := r.dropBuf()
	for _, c := range hot {
		retrieved := (c.fromLex || c.fromVec) && c.relevance >= r.cfg.Tuning.RelevanceFloor
		switch {
		case c.relevance >= gate && len(granted) < capN:
			c.channel = ChannelGuaranteed
			granted = append(granted, c)
		case retrieved:
			rest = append(rest, c) // competes on its merits, without the privilege
		case c.relevance < gate:
			dropped = append(dropped, c.drop(engine.DropBelowGate, fmt.Sprintf("guaranteed gate: relevance_score %s < gate %s for this query",
				f3(c.relevance), f3(gate))))
		default:
			dropped = append(dropped, c.drop(engine.DropGuaranteedCap, fmt.Sprintf("guaranteed cap %d reached", capN)))
		}
	}
	sortByScore(rest, func(c *candidate) float64 { return c.final })
	st.Notes["gate"] = f3(gate) + " (relevance_score against this query)"
	st.Notes["cap"] = strconv.Itoa(capN)
	st.Notes["granted"] = strconv.Itoa(len(granted))
	r.keep(st, append(granted, rest...), dropped)
}

// mmr orders the non-guaranteed items by maximal marginal relevance:
//
//	mmr_score = λ × final_score / top_final_score − (1 − λ) × max cosine to the items already selected
//
// with λ = MMRLambda, the guaranteed items counting as already selected.
// The final score is divided by the best one in the pool so that λ means
// the same trade-off whatever the scale of the scores: without it, a
// query whose memories are all old (low retention) would be ranked by
// diversity more than by relevance. It
// keeps the first 2·k (merge picks k of them) and drops near-duplicates.
func (r *recallRun) mmr(st *engine.StageTrace) {
	lambda := r.cfg.MMRLambda
	if w := countingQuery(r.q.Text); w != "" {
		lambda = 1
		st.Notes["counting"] = "the query asks how many times (" + w + "): every occurrence is wanted, so no diversity term (λ = 1)"
	}
	keepN := 2 * r.q.K
	var selected, pool []*candidate
	for _, c := range r.live {
		if c.channel == ChannelGuaranteed {
			selected = append(selected, c)
		} else {
			pool = append(pool, c)
		}
	}
	redundancy := make([]float64, len(pool))
	redundantWith := make([]int64, len(pool))
	update := func(s *candidate) {
		sv := index.NewSparse(s.vec) // Dot(s.vec, ·) for every pool item
		for i, c := range pool {
			if c == nil {
				continue
			}
			if sim := similarity(&sv, c.vec); sim > redundancy[i] {
				redundancy[i], redundantWith[i] = sim, s.m.ID
			}
		}
	}
	for _, s := range selected {
		update(s)
	}
	top := 0.0 // top_final_score
	for _, c := range pool {
		top = max(top, c.final)
	}
	scale := 1.0
	if top > 0 {
		scale = 1 / top
	}
	dropped := r.dropBuf()
	beyond := "beyond the " + strconv.Itoa(keepN) + " kept (2·k)"
	picked := 0
	for remaining := len(pool); remaining > 0; remaining-- {
		best := -1
		bestScore := 0.0
		for i, c := range pool {
			if c == nil {
				continue
			}
			score := lambda*c.final*scale - (1-lambda)*redundancy[i]
			if best < 0 || score > bestScore || (score == bestScore && c.m.ID < pool[best].m.ID) {
				best, bestScore = i, score
			}
		}
		c := pool[best]
		pool[best] = nil
		c.set("mmr_score", bestScore)
		c.set("redundancy_cosine_score", redundancy[best])
		switch {
		case redundancy[best] >= nearDuplicate:
			dropped = append(dropped, c.drop(engine.DropMMRRedundant, fmt.Sprintf("near-duplicate of id %d (cosine_score %s ≥ %s)",
				redundantWith[best], f3(redundancy[best]), f3(nearDuplicate))))
		case picked >= keepN:
			dropped = append(dropped, c.drop(engine.DropMMRBeyondKeep, beyond))
		default:
			picked++
			selected = append(selected, c)
			update(c)
		}
	}
	st.Notes["lambda"] = f3(lambda)
	st.Notes["formula"] = "mmr_score = λ × final_score / top_final_score − (1 − λ) × max cosine to selected"
	st.Notes["top_final_score"] = f3(top)
	st.Notes["keep"] = strconv.Itoa(keepN) + " (2·k, plus guaranteed)"
	st.Notes["near_duplicate"] = f3(nearDuplicate)
	r.keep(st, selected, dropped)
}

// similarity is the cosine similarity of two stored vectors — the same
// number e.Similarity gives (the index stores unit vectors), computed
// without a lock per pair — with a prepared (index.NewSparse): Dot(a, b)
// bit for bit up to the sign of a zero, which no comparison tells apart.
func similarity(a *index.Sparse, b []float32) float64 {
	if a.Len() == 0 || a.Len() != len(b) {
		return 0
	}
	return float64(a.Dot(b))
}

// merge fills k slots from three channels with quotas: the guaranteed
// channel first (at most GuaranteedCap, already gated), then the remaining
// slots split evenly between facts (kind fact) and semantic items (episodes
// and the rest) — facts get the odd slot. A channel that cannot fill its
// quota yields the rest to the other. Order within the result is the MMR
// order.
func (r *recallRun) merge(st *engine.StageTrace) {
	k := r.q.K
	var guaranteed, others []*candidate
	for _, c := range r.live {
		if c.channel == ChannelGuaranteed {
			guaranteed = append(guaranteed, c)
		} else {
			others = append(others, c)
		}
	}
	var overflow []*candidate
	if len(guaranteed) > k {
		guaranteed, overflow = guaranteed[:k], guaranteed[k:]
	}
	free := k - len(guaranteed)
	quota := map[string]int{ChannelFact: (free + 1) / 2, ChannelSemantic: free / 2}
	full := func(c *candidate) string { return c.channel + " quota" }
	if w := countingQuery(r.q.Text); w != "" {
		full = func(*candidate) string { return "score order" }
		quota = map[string]int{} // score order alone: every slot goes in the second pass
		st.Notes["counting"] = "the query asks how many times (" + w + "): slots in score order, no fact/semantic quota"
	}
	take := make([]bool, len(others))
	taken := 0
	for i, c := range others { // first pass: each channel up to its quota
		if taken < free && quota[c.channel] > 0 {
			quota[c.channel]--
			take[i] = true
			taken++
		}
	}
	for i := range others { // second pass: unused quota goes to whoever is left
		if taken < free && !take[i] {
			take[i] = true
			taken++
		}
	}
	kept := append([]*candidate{}, guaranteed...)
	dropped := r.dropBuf()
	for i, c := range others {
		if take[i] {
			kept = append(kept, c)
		} else {
			dropped = append(dropped, c.drop(engine.DropSlotsFull, fmt.Sprintf("k=%d slots filled (%s)", k, full(c))))
		}
	}
	for _, c := range overflow {
		dropped = append(dropped, c.drop(engine.DropGuaranteedOverK, "more guaranteed items than k"))
	}
	st.Notes["k"] = strconv.Itoa(k)
	st.Notes["quotas"] = fmt.Sprintf("guaranteed ≤ %d; fact %d, semantic %d of the %d remaining (unused quota passes on)",
		r.cfg.GuaranteedCap, (free+1)/2, free/2, free)
	r.keep(st, kept, dropped)
}

// blend balances the live conversation against long-term memory: items
// from the current session (older than the echo window, which exclude
// already removed) take at most half of the k slots, so the agent's
// long-term memory is not crowded out by what it has just been told.
func (r *recallRun) blend(st *engine.StageTrace) {
	sessionCap := (r.q.K + 1) / 2
	var kept []*candidate
	dropped := r.dropBuf()
	session, longTerm := 0, 0
	for _, c := range r.live {
		inSession := r.q.Session != "" && c.m.Session == r.q.Session
		switch {
		case inSession && c.channel != ChannelGuaranteed && session >= sessionCap:
			dropped = append(dropped, c.drop(engine.DropSessionShareFull, fmt.Sprintf("current-session share full (%d of k=%d)", sessionCap, r.q.K)))
			continue
		case inSession:
			session++
		default:
			longTerm++
		}
		kept = append(kept, c)
	}
	st.Notes["session"] = r.q.Session
	st.Notes["session_cap"] = strconv.Itoa(sessionCap) + " (half of k)"
	st.Notes["mix"] = fmt.Sprintf("%d current-session, %d long-term", session, longTerm)
	r.keep(st, kept, dropped)
}
