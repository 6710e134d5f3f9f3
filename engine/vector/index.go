package vector

import (
	"container/heap"
	"sort"
)

// Hit is a scored vector; Score is cosine similarity, higher is better.
type Hit struct {
	ID    int64
	Score float64
}

// Index is a flat (exact) index of unit vectors: one contiguous slab, so a
// search is one linear pass of dot products. At 100k × 256 that pass is the
// "scan floor" the recall benchmark reports against.
type Index struct {
	dim  int
	ids  []int64
	vecs []float32
	pos  map[int64]int
}

// NewIndex returns an empty index of dim dimensions.
func NewIndex(dim int) *Index {
	return &Index{dim: dim, pos: make(map[int64]int)}
}

// Dim is the vector length; Len the number of vectors.
func (ix *Index) Dim() int { return ix.dim }
func (ix *Index) Len() int { return len(ix.ids) }

// Set stores (a normalised copy of) v under id, replacing any earlier one.
// A vector of the wrong length is ignored and reported as false.
func (ix *Index) Set(id int64, v []float32) bool {
	if len(v) != ix.dim {
		return false
	}
	c := make([]float32, ix.dim)
	copy(c, v)
	Normalize(c)
	if p, ok := ix.pos[id]; ok {
		copy(ix.vecs[p*ix.dim:], c)
		return true
	}
	ix.pos[id] = len(ix.ids)
	ix.ids = append(ix.ids, id)
	ix.vecs = append(ix.vecs, c...)
	return true
}

// Get returns the stored vector of id (shared; do not modify).
func (ix *Index) Get(id int64) ([]float32, bool) {
	p, ok := ix.pos[id]
	if !ok {
		return nil, false
	}
	return ix.vecs[p*ix.dim : (p+1)*ix.dim], true
}

// Remove drops id (swap with the last vector).
func (ix *Index) Remove(id int64) {
	p, ok := ix.pos[id]
	if !ok {
		return
	}
	last := len(ix.ids) - 1
	if p != last {
		lastID := ix.ids[last]
		ix.ids[p] = lastID
		copy(ix.vecs[p*ix.dim:(p+1)*ix.dim], ix.vecs[last*ix.dim:(last+1)*ix.dim])
		ix.pos[lastID] = p
	}
	ix.ids = ix.ids[:last]
	ix.vecs = ix.vecs[:last*ix.dim]
	delete(ix.pos, id)
}

// Search returns the n vectors most similar to q, ties broken by id.
func (ix *Index) Search(q []float32, n int) []Hit {
	if len(q) != ix.dim || n <= 0 || len(ix.ids) == 0 {
		return nil
	}
	qn := make([]float32, ix.dim)
	copy(qn, q)
	Normalize(qn)
	h := &minHeap{}
	for i, id := range ix.ids {
		s := float64(Dot(qn, ix.vecs[i*ix.dim:(i+1)*ix.dim]))
		if h.Len() < n {
			heap.Push(h, Hit{ID: id, Score: s})
		} else if worse((*h)[0], Hit{ID: id, Score: s}) {
			(*h)[0] = Hit{ID: id, Score: s}
			heap.Fix(h, 0)
		}
	}
	out := []Hit(*h)
	sort.Slice(out, func(i, j int) bool { return worse(out[j], out[i]) })
	return out
}

// ScanAll computes the similarity of q to every stored vector and returns
// how many it scanned: the brute-force floor a recall is compared against.
func (ix *Index) ScanAll(q []float32) (n int, best float64) {
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

// Dot is the dot product of equal-length vectors, unrolled by four.
func Dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// worse reports whether a ranks below b (lower score, or equal score and
// higher id).
func worse(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.ID > b.ID
}

type minHeap []Hit

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return worse(h[i], h[j]) }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(Hit)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
