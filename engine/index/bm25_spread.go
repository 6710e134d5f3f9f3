package index

import (
	"math"
	"slices"
	"sync"
)

// Spread lists: a context search's spreads, kept between searches.
//
// With context (bm25_context.go) a search spreads every query term over
// the windows of its postings before it can score it: at 1M memories a
// common term has ~70k postings reaching ~300k documents, and the spread —
// scattered reads of the document slots and windows of the whole index —
// was half of a traced recall's CPU (26 of 51 ms, 768-d dense vectors, the
// other half the vector search). A spread depends only on the postings,
// the documents' liveness and the windows, so the index keeps the spreads
// it made (each term's reached documents in slot order, with their
// frequencies, and the term's document frequency) until any of those
// changes, and a search scores the kept lists by merging them in slot
// order: sequential reads, no per-slot accumulator to scatter into and
// clear. The scores are the same float operations in the same order as
// the spreading search's (terms in sorted order, each document's sum
// started at 0), so the hits are bit for bit the same.
//
// What changes a spread changes the stamp: every document added (AddDocs
// and begin increment gen), removed (n falls; nothing but an add raises
// it again, and that increments gen) or given a window (SetContext
// increments ctxEdits). Lengths are not in the lists: a search reads them
// from the slots as before, so Relength needs no new stamp.
//
// The lists are bounded (spreadBudget entries in all, least recently used
// dropped first): a write empties them, so the first recall after a write
// pays for its spreads as before.

// spreadStamp identifies the index state the kept spreads were made in.
type spreadStamp struct {
	gen      uint32
	n        int
	ctxEdits uint64
	docs     int
}

func (ix *BM25) stamp() spreadStamp {
	return spreadStamp{gen: ix.gen, n: ix.n, ctxEdits: ix.ctxEdits, docs: len(ix.docs)}
}

// spreadList is one term's spread: the documents it reaches in slot order,
// each one's frequency of the term in fixed point (as accumulator.tf; a
// term more frequent than a uint32 holds is spread on every search), and
// how many there are (the term's document frequency).
type spreadList struct {
	slots []int32
	tf    []uint32
	used  uint64 // the cache's tick at the last search that read it
}

// spreadCache holds an index's spread lists. Searches run concurrently
// (callers' read locks), so it has a lock of its own; a list, once kept,
// is never modified.
type spreadCache struct {
	mu      sync.Mutex
	stamp   spreadStamp
	lists   map[int32]*spreadList
	entries int
	tick    uint64
	// df holds document frequencies DocFreq counted without making a
	// list (a term asked about but not searched for: a query expansion
	// judged too common, say).
	df map[int32]int
}

// spreadBudget is the most entries (a reached document of one term, 8
// bytes) the lists of an index of docs slots hold together: a fixed floor,
// and beyond it spreadShare entries a slot — at 1M documents 12M entries,
// 96 MB. `bench recall`'s queries (100 at 1M) read 46 terms that reach
// about a fifth of the memories each: 9.7 entries a memory.
func spreadBudget(docs int) int { return max(1<<18, spreadShare*docs) }

const spreadShare = 12

// spreadMinPostings: a term of fewer postings is spread on every search
// (as quick as reading a list; kept lists are for common terms).
const spreadMinPostings = 256

// spreadOf is term no's spread list, made and kept when the index has
// none for it; nil when the term is too rare to keep one (spread it).
func (ix *BM25) spreadOf(no int32) *spreadList {
	if len(ix.terms[no].postings) < spreadMinPostings {
		return nil
	}
	c := &ix.spreads
	st := ix.stamp()
	c.mu.Lock()
	if c.stamp != st {
		c.stamp, c.lists, c.entries, c.df = st, nil, 0, nil
	}
	c.tick++
	if l, ok := c.lists[no]; ok {
		l.used = c.tick
		c.mu.Unlock()
		return l
	}
	c.mu.Unlock()
	l := ix.makeSpread(no)
	if l == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stamp != st {
		return l // the index changed meanwhile (a caller without a lock)
	}
	if old, ok := c.lists[no]; ok { // another search made it too
		return old
	}
	budget := spreadBudget(len(ix.docs))
	if len(l.slots) > budget/2 {
		return l
	}
	for c.entries+len(l.slots) > budget {
		c.evictOldest()
	}
	if c.lists == nil {
		c.lists = map[int32]*spreadList{}
	}
	l.used = c.tick
	c.lists[no] = l
	c.entries += len(l.slots)
	return l
}

// keptDocFreq is term no's document frequency from a kept list or count.
func (ix *BM25) keptDocFreq(no int32) (int, bool) {
	c := &ix.spreads
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stamp != ix.stamp() {
		return 0, false
	}
	if l, ok := c.lists[no]; ok {
		return len(l.slots), true
	}
	f, ok := c.df[no]
	return f, ok
}

// keepDocFreq keeps the document frequency f of term no, counted now.
func (ix *BM25) keepDocFreq(no int32, f int) {
	c := &ix.spreads
	st := ix.stamp()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stamp != st {
		c.stamp, c.lists, c.entries, c.df = st, nil, 0, nil
	}
	if c.df == nil {
		c.df = map[int32]int{}
	}
	if len(c.df) >= spreadDocFreqs {
		clear(c.df)
	}
	c.df[no] = f
}

// spreadDocFreqs bounds the document frequencies kept without lists.
const spreadDocFreqs = 4096

// evictOldest drops the least recently read list. Caller holds c.mu.
func (c *spreadCache) evictOldest() {
	var oldest int32
	var at uint64 = math.MaxUint64
	for no, l := range c.lists {
		if l.used < at || (l.used == at && no < oldest) {
			oldest, at = no, l.used
		}
	}
	c.entries -= len(c.lists[oldest].slots)
	delete(c.lists, oldest)
}

// makeSpread spreads term no and returns its list in slot order; nil when
// a reached document's frequency rounds to 0 (the spreading search counts
// such a document; a list, which finds its documents by their nonzero
// frequencies, could not).
func (ix *BM25) makeSpread(no int32) *spreadList {
	acc := ix.getAcc()
	defer ix.scratch.Put(acc)
	defer acc.release()
	f := ix.spread(acc, no)
	l := &spreadList{slots: make([]int32, 0, f), tf: make([]uint32, 0, f)}
	if 32*f >= len(ix.docs) {
		// Dense: a pass over the frequencies, clearing them, is quicker
		// than a sort and the release's scattered clearing.
		tfs := acc.tf[:len(ix.docs)]
		for s, tf := range tfs {
			if tf != 0 {
				if tf > math.MaxUint32 {
					return nil // the release clears the rest
				}
				tfs[s] = 0
				l.slots = append(l.slots, int32(s))
				l.tf = append(l.tf, uint32(tf))
			}
		}
		acc.reached = acc.reached[:0]
	} else {
		l.slots = append(l.slots, acc.reached...)
		slices.Sort(l.slots)
		for _, s := range l.slots {
			if acc.tf[s] > math.MaxUint32 {
				return nil
			}
			l.tf = append(l.tf, uint32(acc.tf[s]))
		}
		l.slots = slices.Compact(l.slots)
		if len(l.slots) != len(l.tf) {
			return nil
		}
	}
	if len(l.slots) != f || slices.Contains(l.tf, 0) {
		return nil
	}
	return l
}

// mergeSpreads scores the documents of lists, the spreads of the query
// terms whose idf (with their weights) is idfs[i], in one pass in slot
// order, offering each to h (a min-heap of at most n): a document's score
// is the sum of its terms' BM25 parts in list order, each computed as the
// spreading search computes it, so the two give the same hits. Returns h.
func (ix *BM25) mergeSpreads(lists []*spreadList, idfs []float64, n int, h []Hit) []Hit {
	avg := float64(ix.totalLen) / lengthScale / float64(ix.n)
	if avg == 0 {
		avg = 1
	}
	k1, b := ix.k1, ix.b
	const done = math.MaxInt32
	heads := make([]int, len(lists))
	cur := make([]int32, len(lists)) // each list's next slot, done at its end
	for i, l := range lists {
		cur[i] = done
		if len(l.slots) > 0 {
			cur[i] = l.slots[0]
		}
	}
	for {
		slot := int32(done)
		for _, s := range cur {
			slot = min(slot, s)
		}
		if slot == done {
			return h
		}
		d := &ix.docs[slot]
		v := 0.0
		for i, s := range cur {
			if s != slot {
				continue
			}
			l, j := lists[i], heads[i]
			tf := float64(l.tf[j]) / lengthScale
			v += idfs[i] * tf * (k1 + 1) / (tf + k1*(1-b+b*d.length/avg))
			j++
			heads[i] = j
			if j < len(l.slots) {
				cur[i] = l.slots[j]
			} else {
				cur[i] = done
			}
		}
		if len(h) < n || v >= h[0].Score {
			h = Push(h, Hit{ID: d.id, Score: v}, n)
		}
	}
}

// searchSpreads is SearchWeightedDF of a context index (keys: the terms,
// sorted; df's entries already 0) through spread lists, kept or made for
// this search; ok false when a term cannot have one (the caller spreads).
func (ix *BM25) searchSpreads(keys []string, terms map[string]float64, n int, df map[string]int) (h []Hit, ok bool) {
	if len(ix.ctxW) == 0 {
		return nil, false
	}
	lists := make([]*spreadList, 0, len(keys))
	idfs := make([]float64, 0, len(keys))
	reached := 0
	for _, t := range keys {
		no, ok := ix.termNo[t]
		if !ok || len(ix.terms[no].postings) == 0 {
			if df != nil && ok {
				df[t] = ix.DocFreq(t)
			}
			continue
		}
		l := ix.spreadOf(no)
		if l == nil {
			if l = ix.makeSpread(no); l == nil {
				return nil, false
			}
		}
		if df != nil {
			df[t] = len(l.slots)
		}
		lists = append(lists, l)
		idfs = append(idfs, ix.idf(len(l.slots))*terms[t])
		reached = max(reached, len(l.slots))
	}
	h = ix.mergeSpreads(lists, idfs, n, make([]Hit, 0, min(n, reached)))
	Sort(h)
	return h, true
}
