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
//
// Most candidates are far below the threshold: on ingest-like text (common
// words shared by many messages) a query has hundreds of candidates at
// cosine 0.3–0.7, and the exact cosine of each cost 45% of ingest CPU at
// 10k memories (a random read of a 1 KB row per candidate). A block sketch
// rejects them first: each vector's coordinates are cut into sketchBlocks
// blocks, and the norm of each block is kept in one byte (rounded up,
// scaled by the largest block). By Cauchy–Schwarz per block,
// dot(q, v) ≤ Σ_b ‖q_b‖·‖v_b‖ (and so is Σ|q_i·v_i|, which bounds the
// rounding of the float32 dot), so a candidate whose bound is below the
// best similarity so far cannot be chosen and is skipped without reading
// its vector: the same memory is chosen as with every exact cosine. The
// sketch is 64 bytes a memory, one cache line.
const (
	lshBands = 20
	lshBits  = 16
	lshFanIn = 24

	sketchBlocks = 64
	// sketchMargin inflates the bound well past the float rounding of
	// both the bound (float64) and the dot product (float32, < 1e-5).
	sketchMargin = 1 + 1e-4
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

	// The block sketch: blockLen coordinates a block, nblocks blocks;
	// sketch[id*nblocks+b] is ‖v_b‖ in steps of step[id], rounded up.
	// step[id] == 0: no sketch (the exact cosine decides).
	blockLen, nblocks int
	sketch            []uint8
	step              []float32
	// The query's non-zero block norms, reused across calls.
	qblock []int32
	qnorm  []float64
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
	ix.nblocks = min(sketchBlocks, max(dim, 1))
	ix.blockLen = (max(dim, 1) + ix.nblocks - 1) / ix.nblocks
	ix.nblocks = (max(dim, 1) + ix.blockLen - 1) / ix.blockLen
	return ix
}

// blockNorms calls fn with the index and norm of each non-zero block of v.
func (ix *lshIndex) blockNorms(v []float32, fn func(b int, n float64)) {
	for b := 0; b*ix.blockLen < len(v) && b < ix.nblocks; b++ {
		var s float64
		for _, x := range v[b*ix.blockLen : min(len(v), (b+1)*ix.blockLen)] {
			s += float64(x) * float64(x)
		}
		if s > 0 {
			fn(b, math.Sqrt(s))
		}
	}
}

// setSketch records the block sketch of id's vector v: the vector the
// candidate scan will be given for id. A vector of another length gets
// none.
func (ix *lshIndex) setSketch(id int64, v []float32) {
	if id < 0 || id > 1<<31 {
		return
	}
	if int(id) >= len(ix.step) {
		grow := int(id) + 1 - len(ix.step) + len(ix.step)/2
		ix.step = append(ix.step, make([]float32, grow)...)
		ix.sketch = append(ix.sketch, make([]uint8, grow*ix.nblocks)...)
	}
	ix.step[id] = 0
	if len(v) != len(ix.byDim) {
		return
	}
	row := ix.sketch[int(id)*ix.nblocks : (int(id)+1)*ix.nblocks]
	clear(row)
	var top float64
	ix.blockNorms(v, func(_ int, n float64) { top = max(top, n) })
	if top == 0 {
		return
	}
	// One step: the largest block in 255 steps, rounded up, so that
	// ceil(n/step) ≤ 255 and ceil(n/step)·step ≥ n.
	step := math.Nextafter32(float32(top/255*(1+1e-6)), float32(math.Inf(1)))
	ix.blockNorms(v, func(b int, n float64) { row[b] = uint8(min(255, math.Ceil(n/float64(step)))) })
	ix.step[id] = step
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
	ix.setSketch(id, v)
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
// With sketched, every recorded sketch is of the vector vecOf returns for
// its id (or vecOf returns none), so the sketch may reject a candidate.
func (ix *lshIndex) nearDuplicate(vec []float32, threshold float64, sketched bool, vecOf func(int64) ([]float32, bool)) (int64, float64) {
	var best int64
	bestSim := threshold
	qn := norm(vec)
	if qn == 0 {
		return 0, 0
	}
	if sketched && len(vec) == len(ix.byDim) {
		ix.qblock, ix.qnorm = ix.qblock[:0], ix.qnorm[:0]
		ix.blockNorms(vec, func(b int, n float64) {
			ix.qblock, ix.qnorm = append(ix.qblock, int32(b)), append(ix.qnorm, n)
		})
	} else {
		sketched = false
	}
	for _, id := range ix.candidates(vec) {
		vn := ix.norms[id] // candidates are added ids: in range
		if vn == 0 {
			continue
		}
		if sketched && int(id) < len(ix.step) && ix.step[id] != 0 {
			row := ix.sketch[int(id)*ix.nblocks : (int(id)+1)*ix.nblocks]
			var bound float64
			for k, b := range ix.qblock {
				bound += ix.qnorm[k] * float64(row[b])
			}
			if bound*float64(ix.step[id])*sketchMargin < bestSim*qn*vn {
				continue // its cosine is below bestSim: it cannot be chosen
			}
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
