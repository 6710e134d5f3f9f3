package index

// The n best scored ids are kept in a bounded min-heap, managed by hand:
// container/heap would box every pushed Hit. BM25 and Vectors rank their
// hits the same way.

import "sort"

// Hit is one scored id.
type Hit struct {
	ID    int64
	Score float64
}

// Worse reports whether a ranks below b: a lower score, or an equal score
// and a higher id.
func Worse(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.ID > b.ID
}

// Push offers hit to h, a min-heap of at most n hits whose root is the
// worst kept, and returns the heap: hit is kept while there is room, or in
// place of the root when it ranks above it.
func Push(h []Hit, hit Hit, n int) []Hit {
	if len(h) < n {
		h = append(h, hit)
		up(h, len(h)-1)
	} else if Worse(h[0], hit) {
		h[0] = hit
		down(h, 0)
	}
	return h
}

// Sort orders h best first.
func Sort(h []Hit) {
	sort.Slice(h, func(i, j int) bool { return Worse(h[j], h[i]) })
}

func up(h []Hit, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !Worse(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func down(h []Hit, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && Worse(h[r], h[l]) {
			m = r
		}
		if !Worse(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
