package index

import (
	"sync"
)

// Pair postings: the index's sparse rows, by lane pair.
//
// The hashed embedder's vectors are sparse: a memory of one or two
// sentences has 15–50 nonzero coordinates in 256, a short query 5–20. A row
// scan reads every row in full (1 KB at 256 dimensions) whatever the query
// — at 10k rows the reads, not the arithmetic, are the cost, and skipping
// the query's zero coordinates (sparse.go) saves little, since the few
// values a sparse query needs lie in most of a row's cache lines.
//
// So the index also lists, for every lane pair of Dot (coordinates i+k and
// i+k+4 of a block of eight, lane k), the rows where either coordinate is
// nonzero, with both values. A search visits only the lists of the query's
// nonzero pairs and adds, for each row listed, qa·a + qb·b to lane k's sum
// of that row, in block order: the term Dot adds for that lane pair, in
// Dot's expression and order. A row a list leaves out has zero in both
// coordinates, where Dot adds qa·0 + qb·0 = ±0, which changes no sum (at
// most the sign of a zero); so every row's four lane sums, and their total
// (s0 + s1 + s2 + s3, as Dot), are Dot's, bit for bit up to the sign of a
// zero. The coordinates after the last whole block (when the dimension is
// not a multiple of eight) have one list each and go to lane 0 after its
// blocks, as in Dot.
//
// The lists hold 12 bytes per nonzero pair of a row: about a quarter of
// the row itself for the demo's memories, half for LoCoMo's turns. An index
// whose rows turn out dense (another embedder's) drops them once they
// would outgrow the rows (postingsBudget) and searches by rows alone.

// rowPosting is one row's values in one lane pair: a = row[i+k], b = row[i+k+4]
// (b unused for a tail coordinate).
type rowPosting struct {
	row  int32
	a, b float32
}

// postingsMinRows: the budget is first enforced at this many rows, so a
// few long texts at the start do not turn the lists off for good.
const postingsMinRows = 64

// eachPair calls fn for each nonzero lane pair of row, in Dot's order
// (block by block, lanes 0–3), then for each nonzero tail coordinate: the
// pair's list and its two values (a tail coordinate's value and 0).
func (ix *Vectors) eachPair(row []float32, fn func(list int, a, b float32)) {
	i := 0
	for ; i+8 <= len(row); i += 8 {
		for k := 0; k < 4; k++ {
			if a, b := row[i+k], row[i+k+4]; a != 0 || b != 0 {
				fn(i/2+k, a, b)
			}
		}
	}
	for ; i < len(row); i++ {
		if row[i] != 0 {
			fn(i/8*4+i%8, row[i], 0)
		}
	}
}

// numLists is how many lists an index of dim dimensions keeps: four a
// block, one per tail coordinate.
func numLists(dim int) int { return dim/8*4 + dim%8 }

// post adds row p's postings.
func (ix *Vectors) post(p int) {
	ix.eachPair(ix.row(p), func(l int, a, b float32) {
		ix.lists[l] = append(ix.lists[l], rowPosting{row: int32(p), a: a, b: b})
		ix.postings++
	})
}

// unpost removes row p's postings (the row still holds its values).
func (ix *Vectors) unpost(p int) {
	ix.eachPair(ix.row(p), func(l int, _, _ float32) {
		ps := ix.lists[l]
		for j := len(ps) - 1; j >= 0; j-- {
			if ps[j].row == int32(p) {
				ps[j] = ps[len(ps)-1]
				ix.lists[l] = ps[:len(ps)-1]
				ix.postings--
				return
			}
		}
	})
}

// renumber makes row from's postings say row to (Remove moved the row).
func (ix *Vectors) renumber(from, to int) {
	ix.eachPair(ix.row(from), func(l int, _, _ float32) {
		ps := ix.lists[l]
		for j := len(ps) - 1; j >= 0; j-- {
			if ps[j].row == int32(from) {
				ps[j].row = int32(to)
				return
			}
		}
	})
}

// postingsBudget drops the lists when they hold more bytes than the rows
// (12 bytes a rowPosting against 4 a coordinate), once the index has
// postingsMinRows rows: vectors that dense are searched faster by rows.
func (ix *Vectors) postingsBudget() {
	if ix.lists != nil && len(ix.ids) >= postingsMinRows && 3*ix.postings > len(ix.ids)*ix.dim {
		ix.lists, ix.postings = nil, 0
		ix.startCodes()
	}
}

// lanes is a search's scratch: four lane sums per row.
var lanesPool sync.Pool // *[][4]float32

// searchPostings is Search through the pair postings, when that reads less
// than an eighth of what a row scan multiplies; ok false: scan the rows.
func (ix *Vectors) searchPostings(qn []float32, n int) (h []Hit, ok bool) {
	if ix.lists == nil || ix.deferFrom >= 0 { // none, or a bulk load's not posted yet
		return nil, false
	}
	work := 0
	ix.eachPair(qn, func(l int, _, _ float32) { work += len(ix.lists[l]) })
	if 8*work > len(ix.ids)*ix.dim {
		return nil, false
	}
	sp, _ := lanesPool.Get().(*[][4]float32)
	if sp == nil || len(*sp) < len(ix.ids) {
		s := make([][4]float32, len(ix.ids), cap(ix.ids))
		sp = &s
	}
	lanes := (*sp)[:len(ix.ids)]
	ix.eachPair(qn, func(l int, qa, qb float32) {
		if l >= len(qn)/8*4 { // a tail coordinate: lane 0, after its blocks
			for _, e := range ix.lists[l] {
				lanes[e.row][0] += qa * e.a
			}
			return
		}
		k := l % 4
		for _, e := range ix.lists[l] {
			lanes[e.row][k] += qa*e.a + qb*e.b
		}
	})
	h = make([]Hit, 0, min(n, len(ix.ids)))
	for i, id := range ix.ids {
		s := &lanes[i]
		if v := float64(s[0] + s[1] + s[2] + s[3]); len(h) < n || v >= h[0].Score {
			h = Push(h, Hit{ID: id, Score: v}, n)
		}
		*s = [4]float32{}
	}
	lanesPool.Put(sp)
	return h, true
}
