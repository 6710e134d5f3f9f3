package index

// A query vector of the default hashed embedder is sparse: a short query has
// a few dozen features in 256 buckets. Dot sums a·b in four lanes, lane k
// adding a[i+k]·b[i+k] + a[i+k+4]·b[i+k+4] for every block of eight i; a
// lane pair whose two query coordinates are zero adds ±0, which changes no
// sum (at most the sign of a zero). So a search that adds only the lane
// pairs where the query is nonzero — in Dot's order, with Dot's arithmetic
// — scores every vector exactly as Dot does, in a fraction of the work.

// round is one step of the four lanes: lane k adds qa[k]·b[at[k]] +
// qb[k]·b[at[k]+4], its next block with a nonzero query coordinate. A lane
// with fewer such blocks than the others pads with zeros at the end (at 0,
// qa = qb = 0), which adds ±0. Four independent sums, as in Dot.
type round struct {
	at     [4]int32
	qa, qb [4]float32
}

// sparse is a query as the rounds of its nonzero lane pairs, and its
// nonzero coordinates after the last whole block.
type sparse struct {
	n      int // the dimension
	rounds []round
	tail   []int32
	q      []float32
}

// sparseQuery returns q as a sparse query when that does at most half of
// Dot's work (ok false: score with Dot).
func sparseQuery(q []float32) (sparse, bool) {
	sq := sparse{n: len(q), q: q}
	var used [4]int // rounds lane k fills
	i := 0
	for ; i+8 <= len(q); i += 8 {
		for k := 0; k < 4; k++ {
			a, b := q[i+k], q[i+k+4]
			if a == 0 && b == 0 {
				continue
			}
			if used[k] == len(sq.rounds) {
				sq.rounds = append(sq.rounds, round{})
			}
			r := &sq.rounds[used[k]]
			r.at[k], r.qa[k], r.qb[k] = int32(i+k), a, b
			used[k]++
		}
	}
	for ; i < len(q); i++ {
		if q[i] != 0 {
			sq.tail = append(sq.tail, int32(i))
		}
	}
	return sq, 2*len(sq.rounds) <= len(q)/8
}

// dot is Dot(q, b), up to the sign of a zero.
func (sq *sparse) dot(b []float32) float32 {
	b = b[:sq.n]
	var s0, s1, s2, s3 float32
	for i := range sq.rounds {
		r := &sq.rounds[i]
		s0 += r.qa[0]*b[r.at[0]] + r.qb[0]*b[r.at[0]+4]
		s1 += r.qa[1]*b[r.at[1]] + r.qb[1]*b[r.at[1]+4]
		s2 += r.qa[2]*b[r.at[2]] + r.qb[2]*b[r.at[2]+4]
		s3 += r.qa[3]*b[r.at[3]] + r.qb[3]*b[r.at[3]+4]
	}
	for _, i := range sq.tail {
		s0 += sq.q[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// Sparse is a vector prepared to be dotted with many others: Dot(v, b),
// bit for bit up to the sign of a zero, through the lane pairs where v is
// nonzero when that does at most half of Dot's work (the hashed
// embedder's vectors), else by Dot itself.
type Sparse struct {
	v      []float32
	sq     sparse
	sparse bool
}

// NewSparse prepares v (not copied: do not modify it while in use).
func NewSparse(v []float32) Sparse {
	sq, ok := sparseQuery(v)
	return Sparse{v: v, sq: sq, sparse: ok}
}

// Dot is Dot(v, b) for a b as long as v.
func (s *Sparse) Dot(b []float32) float32 {
	if s.sparse {
		return s.sq.dot(b)
	}
	return Dot(s.v, b)
}

// Len is the length of the prepared vector.
func (s *Sparse) Len() int { return len(s.v) }
