package index

import (
	"math"
	"sync"
)

// Bulk loading: an index built at once from many documents allocates every
// term's postings once, at their final size, and writes them in parallel.

// Reserve prepares the index for a bulk load of docs documents in which
// term number no (from TermNo) will get counts[no] postings: each term's
// postings and each document's term list are carved from one block each,
// sized exactly, instead of growing posting by posting. It changes no
// score; documents added beyond the reservation allocate as usual.
func (ix *BM25) Reserve(docs int, counts []int) {
	total := ix.reservePostings(docs, counts)
	ix.termBlock = make([]int32, total)
}

// reservePostings is Reserve without the room for documents' term lists;
// it returns the postings counted.
func (ix *BM25) reservePostings(docs int, counts []int) int {
	if len(ix.slotOf) == 0 && docs > 0 {
		ix.slotOf = make(map[int64]int32, docs) // not rehashed as it fills
	}
	if docs > len(ix.docs) {
		grown := make([]doc, len(ix.docs), docs)
		copy(grown, ix.docs)
		ix.docs = grown
		body := make([]docBody, len(ix.body), docs)
		copy(body, ix.body)
		ix.body = body
	}
	total, room := 0, 0
	for no, c := range counts {
		total += c
		if no < len(ix.terms) && cap(ix.terms[no].postings)-len(ix.terms[no].postings) < c {
			room += len(ix.terms[no].postings) + c
		}
	}
	block := make([]posting, room)
	for no, c := range counts {
		if no >= len(ix.terms) {
			break
		}
		te := &ix.terms[no]
		if cap(te.postings)-len(te.postings) >= c {
			continue
		}
		n := len(te.postings)
		ps := block[: n : n+c]
		copy(ps, te.postings)
		te.postings, block = ps, block[n+c:]
	}
	return total
}

// AddDocs bulk-loads n = len(ids) documents, none of them in the index
// yet: document k is ids[k] with the distinct term numbers (from TermNo)
// nos[start[k]:start[k+1]] and their weighted frequencies, all > 0, in tfs
// at the same positions. The index ends up exactly as AddTerms document by
// document would leave it — same slots, same postings in the same order —
// but the postings are allocated once and written by workers goroutines,
// each owning a share of the terms. The index keeps nos (documents' term
// lists are carved from it): the caller must not modify it afterwards.
func (ix *BM25) AddDocs(ids []int64, start []int, nos []int32, tfs []float64, workers int) {
	bulk := len(ix.free) == 0
	for _, id := range ids {
		if _, had := ix.slotOf[id]; had {
			bulk = false
			break
		}
	}
	for _, tf := range tfs {
		if tf <= 0 {
			bulk = false
			break
		}
	}
	if !bulk {
		for k, id := range ids {
			ix.AddTerms(id, nos[start[k]:start[k+1]], tfs[start[k]:start[k+1]])
		}
		return
	}
	counts := make([]int, len(ix.terms))
	for _, no := range nos {
		counts[no]++
	}
	ix.reservePostings(len(ix.docs)+len(ids), counts) // term lists: carved from nos
	first := int32(len(ix.docs))
	for k, id := range ids {
		a, b := start[k], start[k+1]
		var fixed int64
		for _, tf := range tfs[a:b] {
			fixed += int64(math.Round(tf * lengthScale))
		}
		ix.gen++
		slot := int32(len(ix.docs))
		ix.docs = append(ix.docs, doc{id: id, gen: ix.gen, live: true, length: float64(fixed) / lengthScale})
		ix.body = append(ix.body, docBody{terms: nos[a:b:b], fixed: fixed, own: fixed})
		ix.slotOf[id] = slot
		ix.n++
		ix.totalLen += fixed
		ix.live += b - a
	}
	for no, c := range counts {
		ix.terms[no].df += c
	}
	ix.growWindows()
	workers = max(1, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range ids {
				slot := first + int32(k)
				gen := ix.docs[slot].gen
				for i := start[k]; i < start[k+1]; i++ {
					if no := nos[i]; int(no)%workers == w {
						te := &ix.terms[no]
						te.postings = append(te.postings, posting{slot: slot, gen: gen, tf: float32(tfs[i])})
					}
				}
			}
		}()
	}
	wg.Wait()
}

// Terms is every term by its number (TermNo): a bulk load's dictionary,
// which a lexicon file keeps beside the term numbers of each document.
func (ix *BM25) Terms() []string {
	out := make([]string, len(ix.terms))
	for t, no := range ix.termNo {
		out[no] = t
	}
	return out
}

// EachTerm calls fn for every term of the vocabulary with its number, in no
// particular order, including terms no live document holds any more.
func (ix *BM25) EachTerm(fn func(t string, no int32)) {
	for t, no := range ix.termNo {
		fn(t, no)
	}
}

// Holds reports whether a live document for which ok is true holds term
// number no in its own words (a pass over the term's postings that stops
// at the first).
func (ix *BM25) Holds(no int32, ok func(id int64) bool) bool {
	if no < 0 || int(no) >= len(ix.terms) {
		return false
	}
	for _, p := range ix.terms[no].postings {
		if ix.valid(p) && ok(ix.docs[p.slot].id) {
			return true
		}
	}
	return false
}
