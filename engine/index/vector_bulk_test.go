package index

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// A bulk load (DeferPostings … PostDeferred) leaves the index exactly as
// Set row by row does: the same lists in the same order, the same switch
// to sign codes for dense rows, the same search results; a replace or a
// Remove in the middle posts what was deferred first.
func TestDeferredPostingsMatchRowByRow(t *testing.T) {
	sparse := func(r *rand.Rand, dim int) []float32 {
		v := make([]float32, dim)
		for range 3 + r.IntN(20) {
			v[r.IntN(dim)] = float32(r.NormFloat64())
		}
		return v
	}
	dense := func(r *rand.Rand, dim int) []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	for _, tc := range []struct {
		name string
		dim  int
		gen  func(*rand.Rand, int) []float32
		pre  int // rows Set before the bulk load
	}{
		{"sparse", 260, sparse, 0},
		{"sparse after rows", 64, sparse, 40},
		{"dense", 96, dense, 0},
		{"dense after rows", 96, dense, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(tc.dim)))
			var rows [][]float32
			for range 700 {
				rows = append(rows, tc.gen(r, tc.dim))
			}
			one, bulk := NewVectors(tc.dim), NewVectors(tc.dim)
			for i, v := range rows {
				one.Set(int64(i+1), v)
			}
			for i, v := range rows[:tc.pre] {
				bulk.Set(int64(i+1), v)
			}
			bulk.DeferPostings()
			for i, v := range rows[tc.pre:] {
				bulk.Set(int64(tc.pre+i+1), v)
			}
			q := rows[5]
			if fmt.Sprint(bulk.Search(q, 10)) != fmt.Sprint(one.Search(q, 10)) {
				t.Error("a search before PostDeferred differs")
			}
			bulk.PostDeferred()
			if !reflect.DeepEqual(one.lists, bulk.lists) || one.postings != bulk.postings || !reflect.DeepEqual(one.codes, bulk.codes) {
				t.Fatalf("lists %v/%v, postings %d/%d, codes %d/%d", one.lists == nil, bulk.lists == nil, one.postings, bulk.postings, len(one.codes), len(bulk.codes))
			}
			for i := 0; i < len(rows); i += 37 {
				if a, b := one.Search(rows[i], 12), bulk.Search(rows[i], 12); fmt.Sprint(a) != fmt.Sprint(b) {
					t.Fatalf("query %d: %v, bulk %v", i, a, b)
				}
			}
			// A replace and a Remove during a bulk load.
			bulk.DeferPostings()
			bulk.Set(701, rows[1])
			one.Set(701, rows[1])
			bulk.Set(3, rows[2])
			one.Set(3, rows[2])
			bulk.Set(702, rows[4])
			one.Set(702, rows[4])
			bulk.Remove(10)
			one.Remove(10)
			bulk.PostDeferred()
			if !reflect.DeepEqual(one.lists, bulk.lists) || one.postings != bulk.postings {
				t.Fatal("a replace and a Remove during a bulk load left other lists")
			}
		})
	}
}
