package index

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Sign codes: the index's dense rows, one bit a coordinate.
//
// A dense embedding (a model's 384–1024 coordinates, all nonzero) leaves
// the pair postings nothing to skip, so they are dropped (postingsBudget)
// and a search read every row in full: at 100k × 768 that is 300 MB of
// float32 a query, bandwidth-bound (77 ms CPU a traced recall, against
// 11.7 ms with the hashed embedder). So once the postings are dropped the
// index keeps, beside each row, the signs of its coordinates (bit i set
// when row[i] > 0): 96 bytes a row at 768 dimensions, a thirty-second of
// the row. The Hamming distance between the signs of two unit vectors
// estimates the angle between them (random-hyperplane hashing: each sign
// disagrees with probability angle/π), so a search ranks every row by
// popcount over the codes, keeps a bounded pool of the nearest (codePool),
// and scores that pool exactly, by Dot over the float rows. Every score a
// search returns is the exact cosine; only a row the codes put outside the
// pool can be missed. Recall@50 against the exact scan is measured by
// TestCodedSearchRecall and `memtrace bench recall --dense`.
//
// The pool is chosen by (distance, id), never by row position, so the
// same vectors give the same hits whatever the order they were set in
// (a warm engine and a freshly opened one agree). A code is a function of
// its row alone (signCode), so storage that loads the rows another way
// can rebuild the codes from them.

// Search through the codes only at codeMinRows rows and above, and only
// when they save most of the work: below, a scan of the rows is as quick
// and exact.
const (
	codeMinRows = 4096
	// codePoolMin is the smallest pool scored exactly; a search for n
	// scores at least codePoolPerHit·n.
	codePoolMin    = 500
	codePoolPerHit = 8
)

// codeWords is the number of uint64 words of one row's code.
func codeWords(dim int) int { return (dim + 63) / 64 }

// signCode writes the signs of row into dst (codeWords(len(row)) words):
// bit i%64 of word i/64 set when row[i] > 0.
func signCode(row []float32, dst []uint64) {
	clear(dst)
	for i, x := range row {
		if x > 0 {
			dst[i>>6] |= 1 << (i & 63)
		}
	}
}

// code returns row p's code.
func (ix *Vectors) code(p int) []uint64 {
	w := codeWords(ix.dim)
	return ix.codes[p*w : (p+1)*w : (p+1)*w]
}

// startCodes builds the codes of every row: the postings were just dropped.
// An index of more dimensions than a distance can count (uint16) keeps
// none and scans its rows.
func (ix *Vectors) startCodes() {
	if ix.dim > math.MaxUint16 {
		return
	}
	w := codeWords(ix.dim)
	ix.codes = make([]uint64, len(ix.ids)*w, cap(ix.ids)*w)
	for p := range ix.ids {
		signCode(ix.row(p), ix.code(p))
	}
}

// appendCode adds the code of row p, the last row.
func (ix *Vectors) appendCode(p int) {
	if ix.codes == nil {
		return
	}
	w := codeWords(ix.dim)
	if need := (p + 1) * w; need > cap(ix.codes) {
		codes := make([]uint64, len(ix.codes), max(need, cap(ix.ids)*w))
		copy(codes, ix.codes)
		ix.codes = codes
	}
	ix.codes = ix.codes[:(p+1)*w]
	signCode(ix.row(p), ix.code(p))
}

// denseQuery reports whether at least three quarters of q's coordinates
// are nonzero: a sparse query (the hashed embedder's) has too few signs
// for its code to say much, and is scored over the rows, as before.
func denseQuery(q []float32) bool {
	zero := 0
	for _, x := range q {
		if x == 0 {
			zero++
		}
	}
	return 4*zero <= len(q)
}

// hamming is the number of bits in which a and b differ.
func hamming(a, b []uint64) int {
	b = b[:len(a)]
	d := 0
	for i, x := range a {
		d += bits.OnesCount64(x ^ b[i])
	}
	return d
}

// codeScratch is a coded search's per-row distances and the histogram of
// them, reused across searches.
type codeScratch struct {
	dist []uint16
	hist []int32
	pool []int32 // rows of the pool
	ties []tieRow
}

type tieRow struct {
	id  int64
	row int32
}

var codeScratchPool sync.Pool // *codeScratch

// searchCodes is Search through the sign codes when the index has them and
// enough rows (ok false: scan the rows): the n best of qn (normalised), in
// a min-heap whose root is the worst kept, unsorted, among the rows nearest
// by Hamming distance, scored by Dot. The pool is widened to every row the
// codes cannot tell from the n-th best (widen), up to a bound.
func (ix *Vectors) searchCodes(qn []float32, n int) (h []Hit, ok bool) {
	pool := max(codePoolMin, codePoolPerHit*n)
	if ix.codes == nil || len(ix.ids) < max(codeMinRows, 4*pool) || !denseQuery(qn) {
		return nil, false
	}
	sc, _ := codeScratchPool.Get().(*codeScratch)
	if sc == nil {
		sc = &codeScratch{}
	}
	defer codeScratchPool.Put(sc)
	q := make([]uint64, codeWords(ix.dim))
	signCode(qn, q)
	ix.distances(q, sc)
	h = ix.scorePool(qn, n, ix.nearestCodes(pool, sc), nil)
	if wide := ix.widen(h, n, pool, sc); wide > pool {
		h = ix.scorePool(qn, n, ix.nearestCodes(wide, sc), h[:0])
	}
	return h, true
}

// scorePool is the n best of rows by Dot with qn, in h's memory.
func (ix *Vectors) scorePool(qn []float32, n int, rows []int32, h []Hit) []Hit {
	if h == nil {
		h = make([]Hit, 0, min(n, len(rows)))
	}
	for _, p := range rows {
		if s := float64(Dot(qn, ix.row(int(p)))); len(h) < n || s >= h[0].Score {
			h = Push(h, Hit{ID: ix.ids[p], Score: s}, n)
		}
	}
	return h
}

// codeSigmas: a row is kept in the pool when its distance is within this
// many standard deviations of the distance a row as near as the n-th best
// would have. Measured on 100k clustered 768-d vectors: 1.5 found
// 0.979–0.995 of the exact top 50, 2 0.996–1, 3 all of them at twice
// the CPU of 2.
//
// codePoolMax bounds the widened pool (an eighth of the rows below
// 64k): 8192 rows of 768 floats are 25 MB, a twelfth of a 100k scan.
// Beyond 256k rows the bound is a 32nd of the rows (codePoolShare):
// measured at 1M synthetic-dense-v1/768 vectors (bench recall's memories,
// 100 queries), a pool of at most 8192 found 0.950 of the exact top 50 at
// 22.3 ms CPU a search, 16384 0.996 at 22.8 ms, 32768 1.000 at 26.6 ms.
const codePoolMax = 8192
const codePoolShare = 32
const codeSigmas = 2

// widen returns the size of the pool that holds every row whose code is
// within codeSigmas of the distance expected of a row at the n-th best's
// angle θ — each sign of such a row differs from the query's with
// probability θ/π, so its distance is about Binomial(dim, θ/π) — bounded
// by an eighth of the rows and codePoolMax (a 32nd of the rows beyond
// 256k); pool when the first pool
// already holds them.
func (ix *Vectors) widen(h []Hit, n, pool int, sc *codeScratch) int {
	if len(h) < n {
		return pool
	}
	p := math.Acos(max(-1, min(1, h[0].Score))) / math.Pi
	if math.IsNaN(p) {
		return pool
	}
	d := float64(ix.dim)
	cut := int(d*p + codeSigmas*math.Sqrt(d*p*(1-p)))
	within := 0
	for dist := 0; dist <= min(cut, ix.dim); dist++ {
		within += int(sc.hist[dist])
	}
	return min(within, max(pool, poolBound(len(ix.ids))))
}

// poolBound is the most rows a widened pool of an index of rows rows holds.
func poolBound(rows int) int { return min(rows/8, max(codePoolMax, rows/codePoolShare)) }

// distances fills sc.dist with every row's distance to q and sc.hist with
// their histogram.
func (ix *Vectors) distances(q []uint64, sc *codeScratch) {
	w := len(q)
	sc.dist = slices.Grow(sc.dist[:0], len(ix.ids))[:len(ix.ids)]
	sc.hist = slices.Grow(sc.hist[:0], ix.dim+1)[:ix.dim+1]
	clear(sc.hist)
	for p := range sc.dist {
		d := hamming(q, ix.codes[p*w:(p+1)*w])
		sc.dist[p] = uint16(d)
		sc.hist[d]++
	}
}

// nearestCodes returns the pool rows nearest by sc.dist: every row nearer
// than the pool's farthest distance, and of the rows at that distance
// those of the lowest ids, so that the pool does not depend on the order
// of the rows. The slice is sc's.
func (ix *Vectors) nearestCodes(pool int, sc *codeScratch) []int32 {
	// cut: the smallest distance with at least pool rows at or below it.
	cut, below := 0, 0
	for ; cut < len(sc.hist); cut++ {
		if below+int(sc.hist[cut]) >= pool {
			break
		}
		below += int(sc.hist[cut])
	}
	sc.pool, sc.ties = sc.pool[:0], sc.ties[:0]
	for p, d := range sc.dist {
		switch {
		case int(d) < cut:
			sc.pool = append(sc.pool, int32(p))
		case int(d) == cut:
			sc.ties = append(sc.ties, tieRow{id: ix.ids[p], row: int32(p)})
		}
	}
	if need := pool - len(sc.pool); need < len(sc.ties) {
		slices.SortFunc(sc.ties, func(a, b tieRow) int { return cmp.Compare(a.id, b.id) })
		sc.ties = sc.ties[:max(need, 0)]
	}
	for _, t := range sc.ties {
		sc.pool = append(sc.pool, t.row)
	}
	return sc.pool
}

// Bytes is the size of what the index keeps per vector, in all: the float
// rows, the sign codes, the pair postings and the ids (not the position
// map).
func (ix *Vectors) Bytes() int {
	return 4*len(ix.vecs) + 8*len(ix.codes) + 12*ix.postings + 8*len(ix.ids)
}
