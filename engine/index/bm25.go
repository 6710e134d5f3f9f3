package index

// BM25 is an in-memory Okapi BM25 index over documents identified by int64
// ids. It is a cache derived from the store: rebuilt at open, kept current
// on every write. A document may also count its neighbours' words
// (BM25F-style, bm25_context.go): the engine's memories count the turns
// around them in their conversation.

import (
	"math"
	"sort"
	"sync"
)

// BM25 parameters: the usual k1 and b (Robertson & Zaragoza).
const (
	K1 = 1.2
	B  = 0.75
)

// posting points at a document slot; gen tells a live posting from one left
// behind by a removed or re-added document.
type posting struct {
	slot int32
	gen  uint32
	tf   float32 // term frequency; fractional for lower-weighted fields
}

// term is one vocabulary entry: its postings and its document frequency,
// kept current on Add and Remove so a search never re-counts postings.
type term struct {
	postings []posting
	df       int
}

// doc is one document slot: what a search reads of it. A search reads
// the slots of a term's postings and of their windows, scattered over the
// index, so they are kept to 24 bytes; the rest is in docBody.
type doc struct {
	id     int64
	length float64 // weighted term count with context, = float64(fixed) / lengthScale
	gen    uint32
	live   bool
	mute   bool // lends its words to no neighbour (context.go)
}

// docBody is the rest of a slot. terms lists the term numbers it
// contains, so removing it can lower their document frequencies.
type docBody struct {
	fixed int64 // the length in fixed point: sums exactly, in any order
	own   int64 // the length of its own terms alone, in fixed point
	terms []int32
}

// BM25 is not safe for concurrent writes; callers hold their own lock
// (reads may run concurrently with each other).
//
// Documents live in dense slots so a search accumulates scores in a flat
// array rather than a map, and keeps the n best in a heap rather than
// sorting every hit.
type BM25 struct {
	termNo   map[string]int32
	terms    []term
	slotOf   map[int64]int32
	docs     []doc
	body     []docBody // body[slot] beside docs[slot]
	free     []int32   // slots of removed documents
	n        int       // live documents
	gen      uint32
	totalLen int64 // Σ doc.fixed: exact, so the average length (and every
	// score) does not depend on the order documents were added and removed
	stale   int // postings whose document was removed or re-added
	live    int // postings in total
	k1, b   float64
	scratch sync.Pool // *accumulator, one per concurrent search
	// termBlock is reserved room for documents' term lists (Reserve):
	// begin carves from it instead of allocating per document.
	termBlock []int32
	// Context (context.go): each document's window of neighbour slots,
	// ctxW[k] the weight at which it counts the words of neighbour k.
	ctxW []float64
	win  []int32 // slot*len(ctxW) + k → neighbour slot, or -1
	// ctxEdits counts SetContext calls, and spreads are the spreads kept
	// between searches (bm25_spread.go).
	ctxEdits uint64
	spreads  spreadCache
}

// lengthScale is the fixed-point scale of document lengths (term weights
// are kept to a millionth).
const lengthScale = 1e6

// NewBM25 returns an empty index with BM25 parameters k1 (term-frequency
// saturation) and b (length normalisation).
func NewBM25(k1, b float64) *BM25 {
	return &BM25{termNo: make(map[string]int32), slotOf: make(map[int64]int32), k1: k1, b: b}
}

// Len is the number of documents.
func (ix *BM25) Len() int { return ix.n }

// Add indexes a document, replacing any earlier version with the same id.
func (ix *BM25) Add(id int64, tokens []string) {
	tf := make(map[string]float64, len(tokens))
	for _, t := range tokens {
		tf[t]++
	}
	ix.AddWeighted(id, tf)
}

// AddWeighted indexes a document given as weighted term frequencies,
// replacing any earlier version with the same id. A term seen in a
// lower-weighted field (a neighbouring turn, say) counts fractionally, as
// in BM25F: its weighted frequency feeds both the saturation and the
// document length. Terms with a weight ≤ 0 are ignored.
func (ix *BM25) AddWeighted(id int64, tf map[string]float64) {
	slot := ix.begin(id, len(tf))
	for t, n := range tf {
		if n > 0 {
			ix.post(slot, ix.TermNo(t), n)
		}
	}
	ix.finish(slot)
}

// TermNo is the number of term t in this index, assigned on first use.
// With AddTerms it lets a bulk load look each token up once.
func (ix *BM25) TermNo(t string) int32 {
	no, ok := ix.termNo[t]
	if !ok {
		no = int32(len(ix.terms))
		ix.termNo[t] = no
		ix.terms = append(ix.terms, term{})
	}
	return no
}

// Lookup is the number of term t if it has one; unlike TermNo it assigns
// none, so readers may call it concurrently.
func (ix *BM25) Lookup(t string) (int32, bool) {
	no, ok := ix.termNo[t]
	return no, ok
}

// NumTerms is the number of term numbers assigned so far.
func (ix *BM25) NumTerms() int { return len(ix.terms) }

// AddTerms is AddWeighted with the document given as distinct term numbers
// (from TermNo) and their weighted frequencies, in parallel slices.
func (ix *BM25) AddTerms(id int64, nos []int32, tfs []float64) {
	slot := ix.begin(id, len(nos))
	for i, no := range nos {
		if tfs[i] > 0 {
			ix.post(slot, no, tfs[i])
		}
	}
	ix.finish(slot)
}

// finish counts a fully posted document into the statistics. Its length
// is its own until SetContext gives it its neighbours' words.
func (ix *BM25) finish(slot int32) {
	d, body := &ix.docs[slot], &ix.body[slot]
	body.own = body.fixed
	d.length = float64(body.fixed) / lengthScale
	ix.n++
	ix.totalLen += body.fixed
}

// begin (re)assigns id's slot and resets its document.
func (ix *BM25) begin(id int64, terms int) int32 {
	slot, had := ix.slotOf[id]
	if had {
		ix.unlink(slot)
	} else if k := len(ix.free); k > 0 {
		slot, ix.free = ix.free[k-1], ix.free[:k-1]
		ix.clearWindow(slot)
	} else {
		slot = int32(len(ix.docs))
		ix.docs = append(ix.docs, doc{})
		ix.body = append(ix.body, docBody{})
		ix.growWindows()
	}
	ix.slotOf[id] = slot
	ix.gen++
	d, body := &ix.docs[slot], &ix.body[slot]
	d.id, d.gen, d.live, d.length, body.fixed, body.own = id, ix.gen, true, 0, 0, 0
	body.terms = body.terms[:0]
	if cap(body.terms) == 0 {
		if len(ix.termBlock) >= terms && terms > 0 {
			body.terms, ix.termBlock = ix.termBlock[:0:terms], ix.termBlock[terms:]
		} else {
			body.terms = make([]int32, 0, terms)
		}
	}
	return slot
}

// post appends one posting of term no to the document in slot.
func (ix *BM25) post(slot, no int32, n float64) {
	body := &ix.body[slot]
	te := &ix.terms[no]
	te.postings = append(te.postings, posting{slot: slot, gen: ix.docs[slot].gen, tf: float32(n)})
	te.df++
	body.terms = append(body.terms, no)
	body.fixed += int64(math.Round(n * lengthScale))
	ix.live++
}

// unlink takes the document in slot out of the statistics; its postings
// become stale. The slot stays assigned to the same id.
func (ix *BM25) unlink(slot int32) {
	body := &ix.body[slot]
	for _, no := range body.terms {
		ix.terms[no].df--
	}
	ix.stale += len(body.terms)
	ix.totalLen -= body.fixed
	ix.n--
	ix.docs[slot].live = false
}

// Remove drops a document. Its postings become stale and are skipped, and
// compacted away once they are half of all postings.
func (ix *BM25) Remove(id int64) {
	slot, ok := ix.slotOf[id]
	if !ok {
		return
	}
	ix.unlink(slot)
	ix.detach(slot)
	delete(ix.slotOf, id)
	ix.body[slot].terms = nil
	ix.free = append(ix.free, slot)
	if ix.stale > ix.live/2 && ix.live > 1024 {
		ix.compact()
	}
}

func (ix *BM25) valid(p posting) bool {
	d := &ix.docs[p.slot]
	return d.live && d.gen == p.gen
}

func (ix *BM25) compact() {
	live := 0
	for no := range ix.terms {
		ps := ix.terms[no].postings
		kept := ps[:0]
		for _, p := range ps {
			if ix.valid(p) {
				kept = append(kept, p)
			}
		}
		clear(ps[len(kept):])
		ix.terms[no].postings = kept
		live += len(kept)
	}
	ix.live, ix.stale = live, 0
}

// DocFreq is the number of live documents containing term, in their own
// words or, with context, in a neighbour's.
func (ix *BM25) DocFreq(t string) int {
	no, ok := ix.termNo[t]
	if !ok {
		return 0
	}
	if len(ix.ctxW) == 0 {
		return ix.terms[no].df
	}
	if f, ok := ix.keptDocFreq(no); ok {
		return f
	}
	acc := ix.getAcc()
	df := ix.spread(acc, no)
	acc.release()
	ix.scratch.Put(acc)
	ix.keepDocFreq(no, df)
	return df
}

// OwnDocFreq is the number of live documents whose own words contain
// term (neighbours' not counted): one lookup, no pass over postings.
func (ix *BM25) OwnDocFreq(t string) int {
	if no, ok := ix.termNo[t]; ok {
		return ix.terms[no].df
	}
	return 0
}

// IDFOf is BM25's inverse document frequency (always ≥ 0) of a term in df
// documents (DocFreq; with context, each costs a pass over the term's
// postings).
func (ix *BM25) IDFOf(df int) float64 { return ix.idf(df) }

func (ix *BM25) idf(df int) float64 {
	n, f := float64(ix.n), float64(df)
	return math.Log(1 + (n-f+0.5)/(f+0.5))
}

// Search scores every document containing at least one of terms and returns
// the n best, ties broken by id so results are deterministic. Repeated query
// terms count once.
func (ix *BM25) Search(terms []string, n int) []Hit {
	return ix.SearchWeighted(weightsOf(terms), n)
}

func weightsOf(terms []string) map[string]float64 {
	w := make(map[string]float64, len(terms))
	for _, t := range terms {
		w[t] = 1
	}
	return w
}

// accumulator is a search's scratch space: a score and a seen flag per
// slot, and the slots touched (so resetting costs what the search did);
// with context, one term's frequency per slot and the slots it reached.
type accumulator struct {
	score   []float64
	seen    []bool
	touched []int32
	tf      []int64 // fixed point, as doc.fixed
	reached []int32
}

// getAcc takes a scratch accumulator sized for every slot; put it back in
// ix.scratch when done.
func (ix *BM25) getAcc() *accumulator {
	acc, _ := ix.scratch.Get().(*accumulator)
	if acc == nil {
		acc = &accumulator{}
	}
	if len(acc.score) < len(ix.docs) {
		acc.score = make([]float64, len(ix.docs))
		acc.seen = make([]bool, len(ix.docs))
		acc.tf = make([]int64, len(ix.docs))
	}
	return acc
}

// SearchWeighted is Search with a weight per query term (query expansion
// adds related terms at a lower weight).
func (ix *BM25) SearchWeighted(terms map[string]float64, n int) []Hit {
	return ix.SearchWeightedDF(terms, n, nil)
}

// SearchWeightedDF is SearchWeighted that also records in df (when not nil)
// every query term's document frequency, the number DocFreq gives: with
// context DocFreq costs a pass over the term's postings and their windows,
// which the search makes anyway, so a recall that needs the frequencies
// again takes them from here. Every term of terms gets an entry.
func (ix *BM25) SearchWeightedDF(terms map[string]float64, n int, df map[string]int) []Hit {
	if df != nil {
		for t := range terms {
			df[t] = 0
		}
	}
	if ix.n == 0 || n <= 0 {
		if df != nil {
			for t := range terms {
				df[t] = ix.DocFreq(t)
			}
		}
		return nil
	}
	avg := float64(ix.totalLen) / lengthScale / float64(ix.n)
	if avg == 0 {
		avg = 1
	}
	// Iterate terms in a fixed order: float addition is not associative.
	keys := make([]string, 0, len(terms))
	for t := range terms {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	if h, ok := ix.searchSpreads(keys, terms, n, df); ok {
		return h
	}
	return ix.searchSpreading(keys, terms, n, df, avg)
}

// searchSpreading is SearchWeightedDF term by term over the postings (keys:
// the terms, sorted), spreading each over the windows with context.
func (ix *BM25) searchSpreading(keys []string, terms map[string]float64, n int, df map[string]int, avg float64) []Hit {
	acc := ix.getAcc()
	k1, b := ix.k1, ix.b
	add := func(slot int32, idf, tf float64) {
		if !acc.seen[slot] {
			acc.seen[slot] = true
			acc.touched = append(acc.touched, slot)
		}
		d := &ix.docs[slot]
		acc.score[slot] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*d.length/avg))
	}
	for _, t := range keys {
		no, ok := ix.termNo[t]
		if !ok || len(ix.terms[no].postings) == 0 {
			if df != nil && ok {
				df[t] = ix.DocFreq(t)
			}
			continue
		}
		if len(ix.ctxW) > 0 {
			// With context a document's frequency of t is its own plus
			// its neighbours' at their weights: spread the postings over
			// the windows first, then score every document reached.
			f := ix.spread(acc, no)
			if df != nil {
				df[t] = f
			}
			idf := ix.idf(f) * terms[t]
			for _, slot := range acc.reached {
				add(slot, idf, float64(acc.tf[slot])/lengthScale)
			}
			acc.release()
			continue
		}
		te := &ix.terms[no]
		if df != nil {
			df[t] = te.df
		}
		idf := ix.idf(te.df) * terms[t]
		for _, p := range te.postings {
			d := &ix.docs[p.slot]
			if !d.live || d.gen != p.gen {
				continue
			}
			add(p.slot, idf, float64(p.tf))
		}
	}
	// The n best in a min-heap: the root is the worst kept hit.
	h := make([]Hit, 0, min(n, len(acc.touched)))
	for _, s := range acc.touched {
		// Most documents rank below the root of a full heap: skip the call.
		if v := acc.score[s]; len(h) < n || v >= h[0].Score {
			h = Push(h, Hit{ID: ix.docs[s].id, Score: v}, n)
		}
		acc.score[s], acc.seen[s] = 0, false
	}
	acc.touched = acc.touched[:0]
	ix.scratch.Put(acc)
	Sort(h)
	return h
}
