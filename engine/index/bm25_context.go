package index

import "math"

// Context: a document counts the words of its neighbours.
//
// An index made with NewContextBM25 gives every document a window of
// neighbouring documents (the turns around it in a conversation, say);
// neighbour k's words count in the document at weight ctxW[k] — in its term
// frequencies and in its length, as in BM25F — unless the neighbour is mute.
// The words are not copied into the neighbours' postings: each document is
// posted with its own words only, and a search spreads a term's postings
// over the windows when it scores the term. So the index holds a quarter of
// the postings it would hold with the context written out, a bulk load does
// not sum every document with its neighbours, and a changed document is
// re-posted alone (its neighbours only get new lengths).
//
// Windows are symmetric: if b is in a's window at position k, a must be in
// b's window at a position of the same weight. (The engine's session
// windows are: the turn before and after at one distance, the two turns
// two away.) A document reached through a window counts towards a term's
// document frequency like one that holds the term itself.

// NewContextBM25 returns an empty index whose documents each have a window of
// len(weights) neighbours, neighbour k counting at weights[k] (> 0).
func NewContextBM25(k1, b float64, weights []float64) *BM25 {
	ix := NewBM25(k1, b)
	ix.ctxW = append([]float64(nil), weights...)
	return ix
}

// None marks an empty place in a window.
const None int64 = math.MinInt64

// SetContext sets the window of document id (ids of its neighbours, None
// for an empty place, len(weights) of them) and whether it lends its words
// to its neighbours. Lengths are not recomputed: call Relength for every
// document whose length may have changed — id and, when its mute flag or
// its own words changed, its neighbours. Unknown ids are ignored.
func (ix *BM25) SetContext(id int64, window []int64, lends bool) {
	slot, ok := ix.slotOf[id]
	if !ok || len(ix.ctxW) == 0 {
		return
	}
	ix.ctxEdits++
	ix.docs[slot].mute = !lends
	w := ix.win[int(slot)*len(ix.ctxW) : int(slot+1)*len(ix.ctxW)]
	for k := range w {
		w[k] = -1
		if k < len(window) && window[k] != None {
			if n, ok := ix.slotOf[window[k]]; ok {
				w[k] = n
			}
		}
	}
}

// Relength recomputes the length of document id from its own words and
// its window's.
func (ix *BM25) Relength(id int64) {
	if slot, ok := ix.slotOf[id]; ok && len(ix.ctxW) > 0 {
		ix.relength(slot)
	}
}

// RelengthAll recomputes every document's length (after a bulk load).
func (ix *BM25) RelengthAll() {
	if len(ix.ctxW) == 0 {
		return
	}
	for slot := range ix.docs {
		if ix.docs[slot].live {
			ix.relength(int32(slot))
		}
	}
}

func (ix *BM25) relength(slot int32) {
	d := &ix.docs[slot]
	if !d.live {
		return
	}
	body := &ix.body[slot]
	fixed := body.own
	K := len(ix.ctxW)
	for k, n := range ix.win[int(slot)*K : int(slot+1)*K] {
		if n >= 0 && ix.docs[n].live && !ix.docs[n].mute {
			fixed += int64(math.Round(ix.ctxW[k] * float64(ix.body[n].own)))
		}
	}
	ix.totalLen += fixed - body.fixed
	body.fixed, d.length = fixed, float64(fixed)/lengthScale
}

// growWindows gives every slot a window (empty for new slots).
func (ix *BM25) growWindows() {
	K := len(ix.ctxW)
	for len(ix.win) < len(ix.docs)*K {
		ix.win = append(ix.win, -1)
	}
}

func (ix *BM25) clearWindow(slot int32) {
	K := len(ix.ctxW)
	for k := range K {
		ix.win[int(slot)*K+k] = -1
	}
	ix.docs[slot].mute = false
}

// detach takes a removed document out of its neighbours' windows (windows
// are symmetric) and out of its own.
func (ix *BM25) detach(slot int32) {
	K := len(ix.ctxW)
	if K == 0 {
		return
	}
	for _, n := range ix.win[int(slot)*K : int(slot+1)*K] {
		if n < 0 {
			continue
		}
		for k := range K {
			if ix.win[int(n)*K+k] == slot {
				ix.win[int(n)*K+k] = -1
			}
		}
		ix.relength(n)
	}
	ix.clearWindow(slot)
}

// spread adds term no's frequency in every live document — its own and,
// from lending neighbours, its window's at their weights — into acc.tf,
// lists the documents reached in acc.reached and returns how many there
// are (the term's document frequency). Frequencies are summed in fixed
// point, so the sum does not depend on the order of the postings (a bulk
// load and a document-by-document build post in different orders). The
// caller resets acc.tf and acc.reached (release).
func (ix *BM25) spread(acc *accumulator, no int32) int {
	K := len(ix.ctxW)
	// What a posting adds to its own slot and lends to each place of its
	// window depends on its frequency alone, which most postings share:
	// rounded again only when it differs from the last posting's.
	var buf [8]int64
	lent := buf[:]
	if K > len(buf) {
		lent = make([]int64, K)
	}
	lent = lent[:K]
	var own int64
	var last float32
	have := false
	for _, p := range ix.terms[no].postings {
		d := &ix.docs[p.slot]
		if !d.live || d.gen != p.gen {
			continue
		}
		if !have || p.tf != last {
			tf := float64(p.tf) * lengthScale
			own = int64(math.Round(tf))
			for k := range lent {
				lent[k] = int64(math.Round(ix.ctxW[k] * tf))
			}
			last, have = p.tf, true
		}
		ix.reach(acc, p.slot, own)
		if d.mute {
			continue
		}
		for k, n := range ix.win[int(p.slot)*K : int(p.slot+1)*K] {
			if n >= 0 && ix.docs[n].live {
				ix.reach(acc, n, lent[k])
			}
		}
	}
	return len(acc.reached)
}

func (ix *BM25) reach(acc *accumulator, slot int32, tf int64) {
	if acc.tf[slot] == 0 {
		acc.reached = append(acc.reached, slot)
	}
	acc.tf[slot] += tf
}

// release clears what spread left in acc.
func (acc *accumulator) release() {
	for _, s := range acc.reached {
		acc.tf[s] = 0
	}
	acc.reached = acc.reached[:0]
}
