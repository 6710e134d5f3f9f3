package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"memtrace/engine/textnorm"
)

// The sparse dot product of a search (and Sparse.Dot) is Dot, bit for bit
// (up to the sign of a zero), for every dimension and density, and a
// search scores and ranks as a dense one.
func TestSparseDotIsDot(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, dim := range []int{256, 8, 13, 100, 1024} {
		for _, nonzero := range []int{0, 1, 3, 30, dim / 4, dim} {
			q := make([]float32, dim)
			for range nonzero {
				q[r.IntN(dim)] = float32(r.NormFloat64())
			}
			Normalize(q)
			sq, _ := sparseQuery(q)
			prepared := NewSparse(q)
			for range 200 {
				b := make([]float32, dim)
				for i := range b {
					b[i] = float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(8)-4)))
				}
				want, got := Dot(q, b), sq.dot(b)
				if math.Float32bits(want) != math.Float32bits(got) && !(want == 0 && got == 0) {
					t.Fatalf("dim %d, %d nonzero: sparse dot %v (%x), Dot %v (%x)", dim, nonzero, got, math.Float32bits(got), want, math.Float32bits(want))
				}
				if got := prepared.Dot(b); math.Float32bits(want) != math.Float32bits(got) && !(want == 0 && got == 0) {
					t.Fatalf("dim %d, %d nonzero: Sparse.Dot %v, Dot %v", dim, nonzero, got, want)
				}
			}
		}
	}
	// A sparse query takes the sparse path; a dense one Dot.
	h := NewHashed(0, textnorm.StableTokens)
	if _, ok := sparseQuery(h.EmbedOne("what did Mina say about coffee")); !ok {
		t.Error("a short query of the hashed embedder is not scored sparsely")
	}
	dense := make([]float32, 256)
	for i := range dense {
		dense[i] = 1
	}
	if _, ok := sparseQuery(dense); ok {
		t.Error("a dense query is scored sparsely")
	}

	ix := NewVectors(h.Dim())
	for i := range 3000 {
		ix.Set(int64(i), h.EmbedOne(fmt.Sprintf("memory %d about topic %d and coffee with Mina %d", i, i%97, i%13)))
	}
	for _, text := range []string{"topic 42", "coffee Mina", "충주 사과", "memory about topic 7 and coffee"} {
		q := h.EmbedOne(text)
		got := ix.Search(q, 50)
		want := bruteForce(ix, q, 50)
		if !slices.Equal(got, want) {
			t.Fatalf("%q: sparse search %v, dense %v", text, got[:5], want[:5])
		}
	}
}
