package engine

import (
	"math"
	"math/rand/v2"

	"memtrace/engine/vector"
)

// Near-duplicate candidates for dedupe/reinforce come from a random-hyperplane
// LSH (SimHash) over the memories' vectors, built once per capture batch from
// the engine's cache and extended with the batch's own inserts. A flat scan
// per message would cost a full pass over every vector, and a BM25 query over
// common words costs as much; the LSH finds the few memories whose vectors
// point the same way, and the exact cosine decides.
//
// Parameters: lshBands bands of lshBits sign bits. Two vectors at cosine 0.92
// (an angle of 23°) agree on one bit with probability 1 − 23/180 = 0.87, on a
// whole band with 0.87¹⁶ ≈ 0.11, and share at least one of 20 bands with
// probability 1 − 0.89²⁰ ≈ 0.90; at cosine 0.95 (18°) ≈ 0.98, and an exact
// repeat is caught by the content hash before the LSH is asked. Unrelated
// vectors (cosine ≈ 0.15) share a band with probability ≈ 20 × 0.56¹⁶ ≈
// 0.2%, so the exact cosine runs on a handful of candidates. Each projection
// sums lshFanIn randomly signed coordinates (a sparse random hyperplane), so
// hashing a vector costs about 30 additions per non-zero coordinate. The projections are seeded
// with constants: the same vector always lands in the same buckets.
const (
	lshBands = 20
	lshBits  = 16
	lshFanIn = 24
)

type lshIndex struct {
	// byDim lists, for each coordinate, the projections it feeds and with
	// which sign, so hashing a sparse vector only touches its non-zeros.
	byDim   [][]projRef
	buckets []map[uint16][]int64
	// norms[id] is the norm of id's vector when added (ids are the store's
	// dense row ids; 0 for ids not added).
	norms []float64
	// seen[id] == gen marks an id already returned by this candidates call;
	// ids are the store's dense row ids, so a slice beats a map here.
	seen []uint32
	gen  uint32
}

type projRef struct {
	proj uint16
	sign float32
}

func newLSH(dim int) *lshIndex {
	rng := rand.New(rand.NewPCG(0x6d656d, 0x7472616365))
	ix := &lshIndex{byDim: make([][]projRef, max(dim, 1)), buckets: make([]map[uint16][]int64, lshBands)}
	for p := 0; p < lshBands*lshBits; p++ {
		for k := 0; k < lshFanIn; k++ {
			d := rng.IntN(len(ix.byDim))
			ix.byDim[d] = append(ix.byDim[d], projRef{proj: uint16(p), sign: float32(rng.IntN(2)*2 - 1)})
		}
	}
	for b := range ix.buckets {
		ix.buckets[b] = map[uint16][]int64{}
	}
	return ix
}

// codes returns the band codes of v.
func (ix *lshIndex) codes(v []float32) [lshBands]uint16 {
	var out [lshBands]uint16
	var acc [lshBands * lshBits]float32
	for i, x := range v {
		if x == 0 || i >= len(ix.byDim) {
			continue
		}
		for _, r := range ix.byDim[i] {
			acc[r.proj] += x * r.sign
		}
	}
	for p, s := range acc {
		if s > 0 {
			out[p/lshBits] |= 1 << (p % lshBits)
		}
	}
	return out
}

func (ix *lshIndex) add(id int64, v []float32) {
	if id < 0 || id > 1<<31 {
		return // not a row id: candidates skips such ids anyway
	}
	if int(id) >= len(ix.norms) {
		ix.norms = append(ix.norms, make([]float64, int(id)+1-len(ix.norms)+len(ix.norms)/2)...)
	}
	ix.norms[id] = norm(v)
	for b, c := range ix.codes(v) {
		ix.buckets[b][c] = append(ix.buckets[b][c], id)
	}
}

// candidates returns the ids sharing a band with v, each once.
func (ix *lshIndex) candidates(v []float32) []int64 {
	ix.gen++
	var out []int64
	for b, c := range ix.codes(v) {
		for _, id := range ix.buckets[b][c] {
			if id < 0 || id > 1<<31 {
				continue
			}
			if int(id) >= len(ix.seen) {
				ix.seen = append(ix.seen, make([]uint32, int(id)+1-len(ix.seen)+len(ix.seen)/2)...)
			}
			if ix.seen[id] != ix.gen {
				ix.seen[id] = ix.gen
				out = append(out, id)
			}
		}
	}
	return out
}

// nearDuplicate returns the active memory most similar to vec at or above
// threshold among the LSH candidates, using vecOf for the stored vectors.
func (ix *lshIndex) nearDuplicate(vec []float32, threshold float64, vecOf func(int64) ([]float32, bool)) (int64, float64) {
	var best int64
	bestSim := threshold
	qn := norm(vec)
	if qn == 0 {
		return 0, 0
	}
	for _, id := range ix.candidates(vec) {
		vn := ix.norms[id] // candidates are added ids: in range
		if vn == 0 {
			continue
		}
		v, ok := vecOf(id)
		if !ok || len(v) != len(vec) {
			continue
		}
		// Cosine with both norms known: one dot product per candidate.
		s := float64(vector.Dot(vec, v)) / (qn * vn)
		if s >= bestSim && (best == 0 || s > bestSim || id < best) {
			best, bestSim = id, s
		}
	}
	return best, bestSim
}

func norm(v []float32) float64 {
	return math.Sqrt(float64(vector.Dot(v, v)))
}
