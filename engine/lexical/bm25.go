// Package lexical is an in-memory Okapi BM25 index over documents identified
// by int64 ids. It is a cache derived from the store: rebuilt at open, kept
// current on every write. Terms come from engine/textnorm.
package lexical

import (
	"math"
	"sort"
)

// BM25 parameters: the usual k1 and b (Robertson & Zaragoza).
const (
	K1 = 1.2
	B  = 0.75
)

// Hit is a scored document; Score is higher-is-better.
type Hit struct {
	ID    int64
	Score float64
}

type posting struct {
	id  int64
	gen uint32
	tf  float32 // term frequency; fractional for lower-weighted fields
}

type doc struct {
	length float64 // weighted term count
	terms  int     // postings (distinct terms)
	gen    uint32
}

// Index is not safe for concurrent writes; callers hold their own lock
// (reads may run concurrently with each other).
type Index struct {
	postings map[string][]posting
	docs     map[int64]doc
	gen      uint32
	totalLen float64
	stale    int // postings whose document was removed or re-added
	live     int // postings in total
	k1, b    float64
}

// New returns an empty index with the default parameters K1 and B.
func New() *Index { return NewWith(K1, B) }

// NewWith returns an empty index with BM25 parameters k1 (term-frequency
// saturation) and b (length normalisation).
func NewWith(k1, b float64) *Index {
	return &Index{postings: make(map[string][]posting), docs: make(map[int64]doc), k1: k1, b: b}
}

// Len is the number of documents.
func (ix *Index) Len() int { return len(ix.docs) }

// Add indexes a document, replacing any earlier version with the same id.
func (ix *Index) Add(id int64, tokens []string) {
	tf := make(map[string]float64, len(tokens))
	for _, t := range tokens {
		tf[t]++
	}
	ix.AddWeighted(id, tf)
}

// AddWeighted indexes a document given as weighted term frequencies,
// replacing any earlier version with the same id. A term seen in a
// lower-weighted field (a neighbouring turn, say) counts fractionally, as
// in BM25F: its weighted frequency feeds both the saturation and the
// document length. Terms with a weight ≤ 0 are ignored.
func (ix *Index) AddWeighted(id int64, tf map[string]float64) {
	ix.Remove(id)
	ix.gen++
	d := doc{gen: ix.gen}
	for t, n := range tf {
		if n <= 0 {
			continue
		}
		d.length += n
		d.terms++
		ix.postings[t] = append(ix.postings[t], posting{id: id, gen: d.gen, tf: float32(n)})
		ix.live++
	}
	ix.docs[id] = d
	ix.totalLen += d.length
}

// Remove drops a document. Its postings become stale and are skipped, and
// compacted away once they are half of all postings.
func (ix *Index) Remove(id int64) {
	d, ok := ix.docs[id]
	if !ok {
		return
	}
	delete(ix.docs, id)
	ix.totalLen -= d.length
	ix.stale += d.terms
	if ix.stale > ix.live/2 && ix.live > 1024 {
		ix.compact()
	}
}

func (ix *Index) compact() {
	live := 0
	for t, ps := range ix.postings {
		kept := ps[:0]
		for _, p := range ps {
			if d, ok := ix.docs[p.id]; ok && d.gen == p.gen {
				kept = append(kept, p)
			}
		}
		if len(kept) == 0 {
			delete(ix.postings, t)
			continue
		}
		ix.postings[t] = kept
		live += len(kept)
	}
	ix.live, ix.stale = live, 0
}

// DocFreq is the number of live documents containing term.
func (ix *Index) DocFreq(term string) int {
	n := 0
	for _, p := range ix.postings[term] {
		if d, ok := ix.docs[p.id]; ok && d.gen == p.gen {
			n++
		}
	}
	return n
}

// IDF is BM25's inverse document frequency of term (always ≥ 0).
func (ix *Index) IDF(term string) float64 {
	n := float64(len(ix.docs))
	df := float64(ix.DocFreq(term))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// Search scores every document containing at least one of terms and returns
// the n best, ties broken by id so results are deterministic. Repeated query
// terms count once.
func (ix *Index) Search(terms []string, n int) []Hit {
	return ix.SearchWeighted(weightsOf(terms), n)
}

func weightsOf(terms []string) map[string]float64 {
	w := make(map[string]float64, len(terms))
	for _, t := range terms {
		w[t] = 1
	}
	return w
}

// SearchWeighted is Search with a weight per query term (query expansion
// adds related terms at a lower weight).
func (ix *Index) SearchWeighted(terms map[string]float64, n int) []Hit {
	if len(ix.docs) == 0 || n <= 0 {
		return nil
	}
	avg := ix.totalLen / float64(len(ix.docs))
	if avg == 0 {
		avg = 1
	}
	scores := make(map[int64]float64)
	// Iterate terms in a fixed order: float addition is not associative.
	keys := make([]string, 0, len(terms))
	for t := range terms {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	for _, t := range keys {
		ps := ix.postings[t]
		if len(ps) == 0 {
			continue
		}
		idf := ix.IDF(t) * terms[t]
		for _, p := range ps {
			d, ok := ix.docs[p.id]
			if !ok || d.gen != p.gen {
				continue
			}
			tf := float64(p.tf)
			scores[p.id] += idf * tf * (ix.k1 + 1) / (tf + ix.k1*(1-ix.b+ix.b*d.length/avg))
		}
	}
	hits := make([]Hit, 0, len(scores))
	for id, s := range scores {
		hits = append(hits, Hit{ID: id, Score: s})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ID < hits[j].ID
	})
	if len(hits) > n {
		hits = hits[:n]
	}
	return hits
}
