package index

import (
	"math"
)

// Vectors is a flat (exact) index of unit vectors in one contiguous slab, so
// a search is one linear pass of dot products over sequential memory. At
// 100k × 256 that pass is the "scan floor" the recall benchmark reports
// against. Rows scattered over the heap by incremental ingest made the same
// pass 3.5× slower (35 ms against 10 ms at 100k).
//
// A row stays where it is until the slab grows (Moves counts the times it
// did) or Remove moves the last row into a removed one's place, so a caller
// that never removes may keep the row Get returns as its one copy of a
// vector, and fetch it again when Moves changes: the engine does, so the
// slab is the only copy of its vectors (100 MB at 100k memories).
//
// Beside the rows it keeps pair postings of their nonzero values
// (postings.go, a quarter to a half of the slab's size for the hashed
// embedder's memories; none for dense vectors), through which a sparse
// query is scored, exactly as by Dot, without reading whole rows. Once the
// rows turn out dense the postings are dropped for sign codes of the rows
// (vector_codes.go), through which a dense query finds a bounded pool of
// candidates that are then scored exactly.
type Vectors struct {
	dim   int
	ids   []int64
	vecs  []float32 // row i is vecs[i*dim : (i+1)*dim]
	pos   map[int64]int
	moves int
	// lists[l] are the postings of lane pair l (nil once dropped);
	// postings counts them.
	lists    [][]rowPosting
	postings int
	spare    []float32 // Set's scratch row
	// codes are the rows' sign codes once the postings are dropped
	// (vector_codes.go): row i's is codes[i*w : (i+1)*w], w = codeWords(dim).
	codes []uint64
	owner any // what holds an adopted slab (Adopt)
	// deferFrom is the first row a bulk load has not posted yet, -1 when
	// none is under way (vector_bulk.go).
	deferFrom int
}

// NewVectors returns an empty index of dim dimensions.
func NewVectors(dim int) *Vectors {
	return &Vectors{dim: dim, pos: make(map[int64]int), lists: make([][]rowPosting, numLists(dim)), deferFrom: -1}
}

// Reserve makes room for n vectors in all, so that adding them does not
// reallocate the slab.
func (ix *Vectors) Reserve(n int) {
	if need := n * ix.dim; need > cap(ix.vecs) {
		vecs := make([]float32, len(ix.vecs), need)
		copy(vecs, ix.vecs)
		ix.vecs = vecs
		ix.moves++
	}
	if need := n * codeWords(ix.dim); ix.codes != nil && need > cap(ix.codes) {
		codes := make([]uint64, len(ix.codes), need)
		copy(codes, ix.codes)
		ix.codes = codes
	}
	if len(ix.pos) == 0 && n > 0 {
		ix.pos = make(map[int64]int, n) // not rehashed as it fills
	}
	if n > cap(ix.ids) {
		ids := make([]int64, len(ix.ids), n)
		copy(ids, ix.ids)
		ix.ids = ids
	}
}

// Adopt makes slab, whose rows are vectors of this index's length laid end
// to end, the empty index's slab: a vector Set gives that lies where its
// row goes (a memory's vector read from a mapped vector file, at its own
// slot) is taken where it is instead of copied, and rows past the slab's
// end move the slab as any growth does. The index keeps owner, which holds
// the slab's memory, for as long as it lives (rows handed out may still
// point into the slab after it moved). It is a no-op on an index that holds
// rows or a slab of another stride.
func (ix *Vectors) Adopt(slab []float32, owner any) {
	if len(ix.ids) > 0 || ix.dim == 0 || len(slab)%ix.dim != 0 || len(slab) <= cap(ix.vecs) {
		return
	}
	ix.vecs, ix.owner = slab[:0:len(slab)], owner
}

// Moves counts the times the slab was reallocated, moving every row.
func (ix *Vectors) Moves() int { return ix.moves }

// Dim is the vector length; Len the number of vectors.
func (ix *Vectors) Dim() int { return ix.dim }
func (ix *Vectors) Len() int { return len(ix.ids) }

// unitTolerance: a vector whose squared length is this close to 1 is
// stored as it is.
const unitTolerance = 1e-5

// Set stores v, normalised, under id, replacing any earlier one. A vector
// of the wrong length is ignored and reported as false.
func (ix *Vectors) Set(id int64, v []float32) bool {
	if len(v) != ix.dim {
		return false
	}
	if p, ok := ix.pos[id]; ok {
		ix.PostDeferred()
		ix.replace(p, v)
		return true
	}
	p := len(ix.ids)
	ix.pos[id] = p
	ix.ids = append(ix.ids, id)
	if cap(ix.vecs)-len(ix.vecs) < len(v) {
		// Twice the rows: a move copies every row into memory the process
		// has not touched, which this machine's host backs page by page
		// (~3 ms a MB); append's growth by a quarter moved a growing
		// store's slab three times as often.
		ix.Reserve(max(2*p, 64))
	}
	if n := len(ix.vecs); len(v) > 0 && &ix.vecs[n : n+1][0] == &v[0] {
		ix.vecs = ix.vecs[:n+len(v)] // v is its row of an adopted slab already
	} else {
		ix.vecs = append(ix.vecs, v...)
	}
	toUnit(ix.row(p))
	if ix.deferFrom >= 0 {
		// posted by PostDeferred
	} else if ix.lists != nil {
		ix.post(p)
		ix.postingsBudget()
	} else {
		ix.appendCode(p)
	}
	return true
}

// replace sets row p to v, normalised. A vector the row already holds, bit
// for bit (a memory cached again with its own vector), changes nothing.
func (ix *Vectors) replace(p int, v []float32) {
	row := ix.row(p)
	if ix.lists == nil {
		copy(row, v)
		toUnit(row)
		if ix.codes != nil {
			signCode(row, ix.code(p))
		}
		return
	}
	ix.spare = append(ix.spare[:0], v...)
	toUnit(ix.spare)
	same := true
	for i, x := range ix.spare {
		if math.Float32bits(x) != math.Float32bits(row[i]) {
			same = false
			break
		}
	}
	if same {
		return
	}
	ix.unpost(p)
	copy(row, ix.spare)
	ix.post(p)
}

// toUnit normalises row in place unless its squared length is within
// unitTolerance of 1.
func toUnit(row []float32) {
	var s float64
	for _, x := range row {
		s += float64(x) * float64(x)
	}
	if s == 0 || s < 1-unitTolerance || s > 1+unitTolerance {
		Normalize(row)
	}
}

func (ix *Vectors) row(p int) []float32 {
	return ix.vecs[p*ix.dim : (p+1)*ix.dim : (p+1)*ix.dim]
}

// Get returns the stored vector of id (shared; do not modify).
func (ix *Vectors) Get(id int64) ([]float32, bool) {
	p, ok := ix.pos[id]
	if !ok {
		return nil, false
	}
	return ix.row(p), true
}

// Remove drops id (swap with the last vector).
func (ix *Vectors) Remove(id int64) {
	p, ok := ix.pos[id]
	if !ok {
		return
	}
	ix.PostDeferred()
	last := len(ix.ids) - 1
	if ix.lists != nil {
		ix.unpost(p)
		if p != last {
			ix.renumber(last, p)
		}
	}
	if p != last {
		lastID := ix.ids[last]
		ix.ids[p] = lastID
		copy(ix.row(p), ix.row(last))
		if ix.codes != nil {
			copy(ix.code(p), ix.code(last))
		}
		ix.pos[lastID] = p
	}
	ix.ids, ix.vecs = ix.ids[:last], ix.vecs[:last*ix.dim]
	if ix.codes != nil {
		ix.codes = ix.codes[:last*codeWords(ix.dim)]
	}
	delete(ix.pos, id)
}

// Search returns the n vectors most similar to q, ties broken by id.
func (ix *Vectors) Search(q []float32, n int) []Hit { return ix.search(q, n, false) }

// SearchExact is Search by a pass over every row, whatever the index
// keeps beside them: the exact ranking a coded search is measured against.
func (ix *Vectors) SearchExact(q []float32, n int) []Hit { return ix.search(q, n, true) }

// search is Search, through the postings or the codes unless exact.
func (ix *Vectors) search(q []float32, n int, exact bool) []Hit {
	if len(q) != ix.dim || n <= 0 || len(ix.ids) == 0 {
		return nil
	}
	qn := make([]float32, ix.dim)
	copy(qn, q)
	Normalize(qn)
	var h []Hit
	ok := false
	if !exact {
		if h, ok = ix.searchPostings(qn, n); !ok {
			h, ok = ix.searchCodes(qn, n)
		}
	}
	if !ok {
		h = ix.searchRows(qn, n)
	}
	Sort(h)
	return h
}

// searchRows is Search by a pass over every row: the n best of qn
// (normalised) in a min-heap whose root is the worst kept, unsorted.
func (ix *Vectors) searchRows(qn []float32, n int) []Hit {
	h := make([]Hit, 0, min(n, len(ix.ids)))
	if sq, ok := sparseQuery(qn); ok {
		for i, id := range ix.ids {
			if s := float64(sq.dot(ix.vecs[i*ix.dim : (i+1)*ix.dim])); len(h) < n || s >= h[0].Score {
				h = Push(h, Hit{ID: id, Score: s}, n)
			}
		}
		return h
	}
	for i, id := range ix.ids {
		// Most rows rank below the root of a full heap: skip the call.
		if s := float64(Dot(qn, ix.vecs[i*ix.dim:(i+1)*ix.dim])); len(h) < n || s >= h[0].Score {
			h = Push(h, Hit{ID: id, Score: s}, n)
		}
	}
	return h
}

// ScanAll computes the similarity of q to every stored vector and returns
// how many it scanned: the brute-force floor a recall is compared against.
func (ix *Vectors) ScanAll(q []float32) (n int, best float64) {
	best = -2
	for i := range ix.ids {
		s := float64(Dot(q, ix.vecs[i*ix.dim:(i+1)*ix.dim]))
		if s > best {
			best = s
		}
		n++
	}
	return n, best
}

// Dot is the dot product of equal-length vectors, unrolled by eight
// (the bounds are checked once, before the loop).
func Dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		aa, bb := a[i:i+8:i+8], b[i:i+8:i+8]
		s0 += aa[0]*bb[0] + aa[4]*bb[4]
		s1 += aa[1]*bb[1] + aa[5]*bb[5]
		s2 += aa[2]*bb[2] + aa[6]*bb[6]
		s3 += aa[3]*bb[3] + aa[7]*bb[7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
