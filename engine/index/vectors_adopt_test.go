package index

import "testing"

// A vector that lies at its row of an adopted slab is taken in place; one
// that does not is copied there; rows past the slab move it.
func TestAdoptTakesRowsInPlace(t *testing.T) {
	const dim = 4
	slab := make([]float32, 3*dim)
	for i := range slab {
		slab[i] = float32(i%dim + 1)
	}
	for r := range 3 {
		Normalize(slab[r*dim : (r+1)*dim])
	}
	ix := NewVectors(dim)
	ix.Adopt(slab, nil)
	if !ix.Set(1, slab[0:dim]) {
		t.Fatal("Set failed")
	}
	if v, _ := ix.Get(1); &v[0] != &slab[0] {
		t.Fatal("row 0 was copied, not taken in place")
	}
	other := []float32{0, 0, 1, 0}
	ix.Set(2, other)
	if v, _ := ix.Get(2); &v[0] != &slab[dim] || v[2] != 1 || v[0] != 0 {
		t.Fatalf("row 1: %v", v)
	}
	ix.Set(3, slab[2*dim:3*dim])
	if v, _ := ix.Get(3); &v[0] != &slab[2*dim] || ix.Moves() != 0 {
		t.Fatal("row 2 was copied")
	}
	ix.Set(4, []float32{1, 0, 0, 0})
	if ix.Moves() != 1 {
		t.Fatalf("a row past the slab: %d moves", ix.Moves())
	}
	if v, _ := ix.Get(1); &v[0] == &slab[0] || v[0] != slab[0] {
		t.Fatal("the moved slab did not keep row 0")
	}
	if hits := ix.SearchExact([]float32{0, 0, 1, 0}, 1); len(hits) != 1 || hits[0].ID != 2 {
		t.Fatalf("search %v", hits)
	}
}
