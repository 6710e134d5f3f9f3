package index

// A bulk load of the pair postings: an index filled at once (the engine's
// open, 100k rows) posts its rows after the last one, every list allocated
// once at its final length, instead of appending posting by posting —
// growing 100-odd lists by doubling copied them again and again and left
// the old arrays to the collector.

// DeferPostings starts a bulk load: the rows Set adds from now on are not
// posted until PostDeferred (or until a replace or Remove needs the lists
// whole, which posts them first). The lists, and the switch to sign codes
// when the rows turn out dense, end up exactly as row-by-row posting leaves
// them. A no-op on an index without lists.
func (ix *Vectors) DeferPostings() {
	if ix.lists != nil && ix.deferFrom < 0 {
		ix.deferFrom = len(ix.ids)
	}
}

// PostDeferred posts the rows added since DeferPostings, in row order.
func (ix *Vectors) PostDeferred() {
	from := ix.deferFrom
	if from < 0 {
		return
	}
	ix.deferFrom = -1
	if ix.lists == nil {
		return
	}
	// Count each list's postings row by row, checking the budget after
	// each row as Set does: the rows that turn the lists into codes turn
	// them at the same row.
	counts := make([]int, len(ix.lists))
	total := ix.postings
	for p := from; p < len(ix.ids); p++ {
		ix.eachPair(ix.row(p), func(l int, _, _ float32) { counts[l]++; total++ })
		if p+1 >= postingsMinRows && 3*total > (p+1)*ix.dim {
			ix.lists, ix.postings = nil, 0
			ix.startCodes()
			return
		}
	}
	room := 0
	for l, c := range counts {
		room += len(ix.lists[l]) + c
	}
	block := make([]rowPosting, room)
	for l, c := range counts {
		n := len(ix.lists[l])
		ps := block[: n : n+c]
		copy(ps, ix.lists[l])
		ix.lists[l], block = ps, block[n+c:]
	}
	for p := from; p < len(ix.ids); p++ {
		ix.post(p)
	}
}
