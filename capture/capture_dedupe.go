package capture

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"

	"memtrace/engine/index"
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
// blocks, and the norm of each block is kept in one byte (rounded up, in
// steps of the largest block / 255). By Cauchy–Schwarz per block,
// dot(q, v) ≤ Σ_b ‖q_b‖·‖v_b‖ (and so is Σ|q_i·v_i|, which bounds the
// rounding of the float32 dot), so a candidate whose bound is below the
// best similarity so far cannot be chosen and is skipped without reading
// its vector: the same memory is chosen as with every exact cosine. A
// memory's sketch is one 64-byte record (one cache line): its scale and
// 60 block bytes.
const (
	lshBands = 20
	lshBits  = 16
	lshFanIn = 24

	sketchBlocks = 60
	sketchStride = 64
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

	// sketch[id*sketchStride:] is id's record: bytes 0–3 the float32 scale
	// (the block step over norms[id], rounded up; 0: no sketch, the exact
	// cosine decides), then one byte a block, ‖v_b‖ in steps, rounded up.
	// blocks[b] is the first coordinate of block b (blocks[nblocks] = dim).
	sketch  []uint8
	blocks  []int
	nblocks int

	// own is nearDuplicate's scratch.
	own lshScratch
}

// lshScratch is one caller's working state for a candidate scan. A scan
// only reads the index, so scans with scratches of their own may run at
// the same time (between two changes of the index).
type lshScratch struct {
	// seen[id] == gen marks an id already looked at by this scan; ids are
	// the store's dense row ids, so a slice beats a map.
	seen []uint32
	gen  uint32
	// The query's block norms in steps (rounded up), 0 for empty blocks
	// and past the index's blocks: every record is compared over all of
	// them in one fixed loop.
	q [sketchBlocks]uint32
}

// lshEntry is what the index keeps of one vector: its norm, band codes and
// block sketch. Computing it only reads the index's projections, so the
// entries of many vectors can be computed at the same time and put in
// one after the other.
type lshEntry struct {
	norm  float64
	codes [lshBands]uint16
	rec   [sketchStride]uint8
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
	d := len(ix.byDim)
	ix.nblocks = min(sketchBlocks, d)
	for b := 0; b <= ix.nblocks; b++ {
		ix.blocks = append(ix.blocks, b*d/ix.nblocks)
	}
	return ix
}

// blockNorms returns the norm of each block of v (of the index's
// dimension; 0 past its blocks) and the largest of them, in one pass.
func (ix *lshIndex) blockNorms(v []float32) (n [sketchBlocks]float64, top float64) {
	for b := range ix.nblocks {
		var s float64
		for _, x := range v[ix.blocks[b]:ix.blocks[b+1]] {
			s += float64(x) * float64(x)
		}
		if s > 0 {
			n[b] = math.Sqrt(s)
			top = max(top, n[b])
		}
	}
	return n, top
}

// record is id's sketch record (ids must have been added).
func (ix *lshIndex) record(id int64) *[sketchStride]uint8 {
	return (*[sketchStride]uint8)(ix.sketch[int(id)*sketchStride : (int(id)+1)*sketchStride])
}

// setSketch records the block sketch of id's vector v: the vector the
// candidate scan will be given for id. A vector of another length, or an
// id whose added vector was zero, gets none. id must have been added.
func (ix *lshIndex) setSketch(id int64, v []float32) {
	if id < 0 || int(id) >= len(ix.norms) {
		return
	}
	ix.growSketch(id)
	ix.sketchInto(ix.record(id), v, ix.norms[id])
}

func (ix *lshIndex) growSketch(id int64) {
	if need := (int(id) + 1) * sketchStride; need > len(ix.sketch) {
		ix.sketch = append(ix.sketch, make([]uint8, need-len(ix.sketch)+len(ix.sketch)/2/sketchStride*sketchStride)...)
	}
}

// sketchInto writes into rec the sketch record of v, whose norm when added
// was vn (none for a vector of another length or a zero vn).
func (ix *lshIndex) sketchInto(rec *[sketchStride]uint8, v []float32, vn float64) {
	clear(rec[:])
	if len(v) != len(ix.byDim) || vn == 0 {
		return
	}
	norms, top := ix.blockNorms(v)
	if top == 0 {
		return
	}
	// One step: the largest block in 255 steps, rounded up, so that
	// ceil(n/step) ≤ 255 and ceil(n/step)·step ≥ n.
	step := top / 255 * (1 + 1e-6)
	for b, n := range norms {
		if n > 0 {
			rec[4+b] = uint8(min(255, math.Ceil(n/step)))
		}
	}
	scale := math.Nextafter32(float32(step/vn*(1+1e-6)), float32(math.Inf(1)))
	binary.LittleEndian.PutUint32(rec[:4], math.Float32bits(scale))
}

// codes returns the band codes of v.
func (ix *lshIndex) codes(v []float32) [lshBands]uint16 {
	var out [lshBands]uint16
	// 512 ≥ lshBands·lshBits, so proj&511 needs no bounds check.
	var acc [512]float32
	for i, x := range v {
		if x == 0 || i >= len(ix.byDim) {
			continue
		}
		for _, r := range ix.byDim[i] {
			acc[r.proj&511] += x * r.sign
		}
	}
	for p, s := range acc[:lshBands*lshBits] {
		if s > 0 {
			out[p/lshBits] |= 1 << (p % lshBits)
		}
	}
	return out
}

// entry computes what the index keeps of v; it only reads the index.
func (ix *lshIndex) entry(v []float32) lshEntry {
	en := lshEntry{norm: norm(v), codes: ix.codes(v)}
	ix.sketchInto(&en.rec, v, en.norm)
	return en
}

func (ix *lshIndex) add(id int64, v []float32) {
	en := ix.entry(v)
	ix.put(id, &en)
}

// put adds id with its entry en (of the vector the scan will be given).
func (ix *lshIndex) put(id int64, en *lshEntry) {
	if id < 0 || id > 1<<31 {
		return // not a row id: candidates skips such ids anyway
	}
	if int(id) >= len(ix.norms) {
		ix.norms = append(ix.norms, make([]float64, int(id)+1-len(ix.norms)+len(ix.norms)/2)...)
	}
	ix.norms[id] = en.norm
	ix.growSketch(id)
	*ix.record(id) = en.rec
	for b, c := range en.codes {
		ix.buckets[b][c] = append(ix.buckets[b][c], id)
	}
}

// putAll is put of every ids[i] with ens[i], in order; each band's buckets
// are filled on a CPU of their own (a store's first index build puts every
// memory).
func (ix *lshIndex) putAll(ids []int64, ens []*lshEntry) {
	if len(ids) < 256 {
		for i, id := range ids {
			ix.put(id, ens[i])
		}
		return
	}
	var keep []int
	for i, id := range ids {
		if id < 0 || id > 1<<31 {
			continue // not a row id, as put
		}
		if int(id) >= len(ix.norms) {
			ix.norms = append(ix.norms, make([]float64, int(id)+1-len(ix.norms)+len(ix.norms)/2)...)
		}
		ix.norms[id] = ens[i].norm
		ix.growSketch(id)
		*ix.record(id) = ens[i].rec
		keep = append(keep, i)
	}
	_ = parallelChunks(lshBands, 1, func() func(lo, hi int) error {
		return func(lo, hi int) error {
			for b := lo; b < hi; b++ {
				m := ix.buckets[b]
				for _, i := range keep {
					c := ens[i].codes[b]
					m[c] = append(m[c], ids[i])
				}
			}
			return nil
		}
	})
}

// nearDuplicate returns the active memory most similar to vec at or above
// threshold among the LSH candidates (the memories sharing a band with
// vec), using vecOf for the stored vectors: the highest cosine, the lower
// id on a tie. With sketched, every recorded sketch is of the vector vecOf
// returns for its id (or vecOf returns none), so the sketch may reject a
// candidate.
func (ix *lshIndex) nearDuplicate(vec []float32, threshold float64, sketched bool, vecOf func(int64) ([]float32, bool)) (int64, float64) {
	q := lshEntry{norm: norm(vec), codes: ix.codes(vec)}
	return ix.scan(&ix.own, vec, &q, threshold, sketched, vecOf)
}

// scan is nearDuplicate with the caller's scratch s and q, the norm and
// band codes of vec (its entry; the sketch record is not read).
func (ix *lshIndex) scan(s *lshScratch, vec []float32, q *lshEntry, threshold float64, sketched bool, vecOf func(int64) ([]float32, bool)) (int64, float64) {
	var best int64
	bestSim := threshold
	qn := q.norm
	if qn == 0 {
		return 0, 0
	}
	// The query's block norms in steps of its largest block / 65535,
	// rounded up; limit is the bound (in those steps, over the record's
	// scale) below which a candidate's cosine is below bestSim.
	var qstep, limit float64
	if sketched = sketched && len(vec) == len(ix.byDim); sketched {
		norms, top := ix.blockNorms(vec)
		qstep = top / 65535 * (1 + 1e-6)
		for b, n := range norms {
			s.q[b] = 0
			if n > 0 {
				s.q[b] = uint32(min(65535, math.Ceil(n/qstep)))
			}
		}
		limit = bestSim * qn / (qstep * sketchMargin)
	}
	s.gen++
	nrec := len(ix.sketch) / sketchStride
	var scales [8]float32
	for b, c := range q.codes {
		list := ix.buckets[b][c]
		for i, id := range list {
			if sketched && i%8 == 0 {
				// Every 8 candidates, their records' scales first: 8
				// independent reads, which the CPU overlaps, instead of
				// one cache miss after the other.
				for k, id := range list[i:min(i+8, len(list))] {
					scales[k] = 0
					if id >= 0 && int(id) < nrec {
						scales[k] = math.Float32frombits(binary.LittleEndian.Uint32(ix.sketch[int(id)*sketchStride:]))
					}
				}
			}
			if id < 0 || int(id) >= len(ix.norms) {
				continue
			}
			// A candidate in several of the query's bands is looked at
			// once; one the sketch rejects stays rejected, as the bound it
			// fell below only rises.
			if int(id) >= len(s.seen) {
				s.seen = append(s.seen, make([]uint32, int(id)+1-len(s.seen)+len(s.seen)/2)...)
			}
			if s.seen[id] == s.gen {
				continue
			}
			s.seen[id] = s.gen
			if sketched {
				if scale := scales[i%8]; scale != 0 {
					// Σ_b q_b·v_b over the blocks (at most 60 · 65535 · 255
					// < 2³²), four sums at a time.
					rec := (*[sketchBlocks]uint8)(ix.record(id)[4:])
					var a0, a1, a2, a3 uint32
					for b := 0; b < sketchBlocks; b += 4 {
						a0 += s.q[b] * uint32(rec[b])
						a1 += s.q[b+1] * uint32(rec[b+1])
						a2 += s.q[b+2] * uint32(rec[b+2])
						a3 += s.q[b+3] * uint32(rec[b+3])
					}
					if float64(a0+a1+a2+a3)*float64(scale) < limit {
						continue // its cosine is below bestSim: it cannot be chosen
					}
				}
			}
			vn := ix.norms[id]
			if vn == 0 {
				continue
			}
			v, ok := vecOf(id)
			if !ok || len(v) != len(vec) {
				continue
			}
			// Cosine with both norms known: one dot product per candidate.
			sim := float64(index.Dot(vec, v)) / (qn * vn)
			if sim >= bestSim && (best == 0 || sim > bestSim || id < best) {
				best, bestSim = id, sim
				limit = bestSim * qn / (qstep * sketchMargin)
			}
		}
	}
	return best, bestSim
}

// rescan is scan's answer now from pre, a scan of the same query at an
// earlier seq of the cache: the candidates nothing changed since answer as
// they did, so only changed — the memories the cache took since pre.seq
// (View.ChangedSince; known: it still knows them) — are looked at again,
// those in one of the query's buckets, by the same cosine, and the best
// of them and pre's wins (the higher cosine, the lower id on a tie), as
// one scan over all would choose. Not ok when the cache no longer knows
// what changed, or pre's own memory changed (what came second then is
// unknown): the caller scans.
func (ix *lshIndex) rescan(pre *preDup, changed []int64, known bool, vec []float32, q *lshEntry, threshold float64, vecOf func(int64) ([]float32, bool)) (int64, float64, bool) {
	if !known || q.norm == 0 || slices.Contains(changed, pre.id) {
		return 0, 0, false
	}
	best, bestSim := pre.id, threshold
	if best != 0 {
		bestSim = pre.sim
	}
	for _, id := range changed {
		if id < 0 || int(id) >= len(ix.norms) || !ix.inBuckets(id, q) {
			continue
		}
		vn := ix.norms[id]
		if vn == 0 {
			continue
		}
		w, ok := vecOf(id)
		if !ok || len(w) != len(vec) {
			continue
		}
		sim := float64(index.Dot(vec, w)) / (q.norm * vn)
		if sim >= bestSim && (best == 0 || sim > bestSim || id < best) {
			best, bestSim = id, sim
		}
	}
	return best, bestSim, true
}

// inBuckets reports whether id is in one of the buckets of q's codes: a
// candidate of q's scan.
func (ix *lshIndex) inBuckets(id int64, q *lshEntry) bool {
	for b, c := range q.codes {
		if slices.Contains(ix.buckets[b][c], id) {
			return true
		}
	}
	return false
}

func norm(v []float32) float64 {
	return math.Sqrt(float64(index.Dot(v, v)))
}

// NearDuplicates finds, for vectors offered one by one, the earlier one
// most similar at or above a threshold: the capture's dedupe scan over a
// set the caller builds (the store audit's census of duplicates).
type NearDuplicates struct {
	lsh       *lshIndex
	threshold float64
	vecOf     func(int64) ([]float32, bool)
}

// NewNearDuplicates scans at threshold, reading candidates' vectors with vecOf.
func NewNearDuplicates(threshold float64, vecOf func(int64) ([]float32, bool)) *NearDuplicates {
	return &NearDuplicates{threshold: threshold, vecOf: vecOf}
}

// Offer returns the earlier vector vec duplicates (0 when none) and its
// similarity, then adds vec under id.
func (d *NearDuplicates) Offer(id int64, vec []float32) (of int64, sim float64) {
	if d.lsh == nil {
		d.lsh = newLSH(len(vec))
	}
	of, sim = d.lsh.nearDuplicate(vec, d.threshold, false, d.vecOf)
	d.lsh.add(id, vec)
	return of, sim
}
