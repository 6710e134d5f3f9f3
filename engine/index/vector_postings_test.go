package index

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"memtrace/engine/textnorm"
)

// bruteForce is the n best rows of ix for q by Dot, ties by id: what every
// search path must return.
func bruteForce(ix *Vectors, q []float32, n int) []Hit {
	qn := slices.Clone(q)
	Normalize(qn)
	var all []Hit
	for i, id := range ix.ids {
		all = append(all, Hit{ID: id, Score: float64(Dot(qn, ix.row(i)))})
	}
	slices.SortFunc(all, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return all[:min(n, len(all))]
}

// sparseVec has about nonzero random coordinates, some negative, at
// magnitudes over several decades.
func sparseVec(r *rand.Rand, dim, nonzero int) []float32 {
	v := make([]float32, dim)
	for range nonzero {
		v[r.IntN(dim)] = float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(4)-2)))
	}
	return v
}

// sameHits compares two searches bit for bit (a zero's sign aside).
func sameHits(a, b []Hit) bool {
	return slices.EqualFunc(a, b, func(x, y Hit) bool {
		return x.ID == y.ID && (math.Float64bits(x.Score) == math.Float64bits(y.Score) || x.Score == 0 && y.Score == 0)
	})
}

// postingsOf is every rowPosting of ix as "list:row:a:b", sorted: what a
// fresh index over the same rows must hold.
func postingsOf(ix *Vectors) []string {
	var out []string
	for l, ps := range ix.lists {
		for _, p := range ps {
			out = append(out, fmt.Sprintf("%d:%d:%x:%x", l, p.row, math.Float32bits(p.a), math.Float32bits(p.b)))
		}
	}
	slices.Sort(out)
	return out
}

// A search through the pair postings ranks and scores as Dot over every
// row, bit for bit, for every dimension (tail coordinates included) and
// query density, with ties, after replaced and removed rows; and the
// postings stay those of a fresh index over the same rows.
func TestPostingsSearchIsDot(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 1))
	for _, dim := range []int{256, 8, 13, 100} {
		ix := NewVectors(dim)
		ids := r.Perm(1500)
		for i, id := range ids {
			v := sparseVec(r, dim, 1+r.IntN(max(2, dim/10)))
			if i%50 == 7 && i > 0 { // a duplicate of an earlier row: ties
				v = slices.Clone(ix.row(r.IntN(i)))
			}
			ix.Set(int64(id), v)
		}
		for i := range 200 { // replaced vectors, and some set again unchanged
			id := int64(ids[r.IntN(len(ids))])
			if i%3 == 0 {
				row, _ := ix.Get(id)
				ix.Set(id, slices.Clone(row))
				continue
			}
			ix.Set(id, sparseVec(r, dim, 1+r.IntN(max(2, dim/10))))
		}
		for range 150 {
			ix.Remove(int64(ids[r.IntN(len(ids))]))
		}
		if !ix.keepsPostings() {
			t.Fatalf("dim %d: sparse rows dropped their postings", dim)
		}
		fresh := NewVectors(dim)
		for i, id := range ix.ids {
			fresh.Set(id, slices.Clone(ix.row(i)))
		}
		if got, want := postingsOf(ix), postingsOf(fresh); !slices.Equal(got, want) {
			t.Fatalf("dim %d: %d postings after updates, a fresh index has %d", dim, len(got), len(want))
		}
		for _, nonzero := range []int{0, 1, 2, 5, dim / 8, dim / 3} {
			for range 20 {
				q := sparseVec(r, dim, nonzero)
				for _, n := range []int{1, 10, 50, 5000} {
					qn := slices.Clone(q)
					Normalize(qn)
					got, ok := ix.searchPostings(qn, n)
					want := bruteForce(ix, q, n)
					if !ok {
						if nonzero <= 2 {
							t.Fatalf("dim %d: a query of %d coordinates was not searched through postings", dim, nonzero)
						}
						continue
					}
					sortHits(got)
					if !sameHits(got, want) {
						t.Fatalf("dim %d, %d nonzero, n %d: postings %v, Dot %v", dim, nonzero, n, got[:min(5, len(got))], want[:min(5, len(want))])
					}
					if s := ix.Search(q, n); !sameHits(s, want) {
						t.Fatalf("dim %d, %d nonzero, n %d: Search %v, Dot %v", dim, nonzero, n, s[:min(5, len(s))], want[:min(5, len(want))])
					}
				}
			}
		}
	}
}

func sortHits(h []Hit) {
	slices.SortFunc(h, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// The hashed embedder's memories keep their postings and its queries use
// them; an index of dense vectors drops them and searches by rows, with
// the same results.
func TestPostingsOnlyForSparseRows(t *testing.T) {
	h := NewHashed(0, textnorm.StableTokens)
	ix := NewVectors(h.Dim())
	for i := range 2000 {
		ix.Set(int64(i), h.EmbedOne(fmt.Sprintf("memory %d about topic %d and coffee with Mina %d 충주 사과 %d", i, i%97, i%13, i%7)))
	}
	if !ix.keepsPostings() {
		t.Fatal("the hashed embedder's memories dropped their postings")
	}
	if 3*ix.postings > len(ix.ids)*ix.dim {
		t.Fatalf("%d postings for %d rows", ix.postings, len(ix.ids))
	}
	for _, text := range []string{"topic 42", "coffee Mina", "충주 사과", "what did Mina say about coffee in topic 7?"} {
		q := h.EmbedOne(text)
		qn := slices.Clone(q)
		Normalize(qn)
		if _, ok := ix.searchPostings(qn, 50); !ok {
			t.Errorf("%q is not searched through postings", text)
		}
		if got, want := ix.Search(q, 50), bruteForce(ix, q, 50); !sameHits(got, want) {
			t.Fatalf("%q: Search %v, Dot %v", text, got[:5], want[:5])
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	dense := NewVectors(64)
	for i := range postingsMinRows + 10 {
		v := make([]float32, 64)
		for k := range v {
			v[k] = float32(r.NormFloat64())
		}
		dense.Set(int64(i), v)
	}
	if dense.keepsPostings() {
		t.Fatal("dense rows kept their postings")
	}
	q := sparseVec(r, 64, 3)
	if got, want := dense.Search(q, 10), bruteForce(dense, q, 10); !sameHits(got, want) {
		t.Fatalf("dense index: Search %v, Dot %v", got, want)
	}
}

// memoryText is a bilingual synthetic memory, one or two sentences of a
// small vocabulary (as `memtrace bench recall`'s): the hashed embedder's
// rows have about 20 nonzero lane pairs.
func memoryText(r *rand.Rand) string {
	people := []string{"Mina", "Jisoo", "Alex", "Sam", "엄마", "민준", "서연", "팀장님"}
	places := []string{"Busan", "Seoul", "Chungju", "the office", "충주", "부산", "회사", "병원"}
	things := []string{"apples", "coffee", "a new laptop", "the release", "사과", "커피", "노트북", "혈압약", "여행 계획"}
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	if r.IntN(2) == 0 {
		return fmt.Sprintf("%s and I talked about %s in %s on day %d.", pick(people), pick(things), pick(places), r.IntN(300))
	}
	return fmt.Sprintf("%d일에 %s랑 %s에서 %s 얘기를 했어.", r.IntN(300), pick(people), pick(places), pick(things))
}

// A search of a short hashed query through the postings against the pass
// over every row it replaced (sparse.go's lane pairs, the same hits) and
// the full dense pass (the scan floor), at 10k and 100k memories:
//
//	go test ./engine/vector -run '^$' -bench SearchPaths -benchtime 200x
//
// (ns/op is one search.)
func BenchmarkSearchPaths(b *testing.B) {
	h := NewHashed(0, textnorm.StableTokens)
	for _, n := range []int{10_000, 100_000} {
		r := rand.New(rand.NewPCG(uint64(n), 1))
		ix := NewVectors(h.Dim())
		ix.Reserve(n)
		for i := range n {
			ix.Set(int64(i), h.EmbedOne(memoryText(r)))
		}
		queries := []string{"What did Mina say about coffee?", "충주 사과 얘기 뭐였지?", "When did we go to Busan?", "민준 선물 뭐 샀지?"}
		var qs [][]float32
		for _, q := range queries {
			qn := h.EmbedOne(q)
			Normalize(qn)
			qs = append(qs, qn)
		}
		paths := []struct {
			name string
			run  func(q []float32)
		}{
			{"postings", func(q []float32) {
				if _, ok := ix.searchPostings(q, 50); !ok {
					b.Fatal("not searched through postings")
				}
			}},
			{"rows", func(q []float32) { ix.searchRows(q, 50) }},
			{"scan-floor", func(q []float32) { ix.ScanAll(q) }},
		}
		for _, p := range paths {
			b.Run(fmt.Sprintf("%dk/%s", n/1000, p.name), func(b *testing.B) {
				i := 0
				for b.Loop() {
					p.run(qs[i%len(qs)])
					i++
				}
			})
		}
	}
}

// keepsPostings reports whether the index keeps pair postings (false once its
// rows proved too dense for them).
func (ix *Vectors) keepsPostings() bool { return ix.lists != nil }
