package capture

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/engine/index"
)

// TestSketchKeepsNearDuplicate: the block sketch only skips candidates
// that cannot be chosen, so nearDuplicate picks the same memory with the
// same similarity with and without it — over ingest-like text (shared
// common words, so hundreds of candidates a query), with near-duplicates
// at, just below and just above the threshold, and over dense vectors.
func TestSketchKeepsNearDuplicate(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	zipf := rand.NewZipf(rng, 1.1, 2, 1999)
	h := engine.NewHashed(0)
	sentence := func() string {
		words := []string{"I", "noted"}
		for range 6 + rng.IntN(10) {
			words = append(words, fmt.Sprintf("w%dx", zipf.Uint64()))
		}
		return strings.Join(words, " ")
	}
	vecs := map[int64][]float32{}
	vecOf := func(id int64) ([]float32, bool) { v, ok := vecs[id]; return v, ok }
	ix := newLSH(h.Dim())
	var id int64
	add := func(v []float32) {
		id++
		vecs[id] = v
		ix.add(id, v)
	}
	for range 3000 {
		add(h.EmbedOne(sentence()))
	}
	// Dense vectors of another kind: the sketch bounds them too.
	for range 300 {
		v := make([]float32, h.Dim())
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		index.Normalize(v)
		add(v)
	}
	// Perturbed copies: cosines spread around the threshold.
	for range 600 {
		base := vecs[1+rng.Int64N(id)]
		v := append([]float32(nil), base...)
		for range 1 + rng.IntN(12) {
			v[rng.IntN(len(v))] += float32(rng.NormFloat64() * 0.15)
		}
		index.Normalize(v)
		add(v)
	}
	chosen, skipped := 0, 0
	for q := range 2000 {
		var v []float32
		switch q % 3 {
		case 0:
			v = h.EmbedOne(sentence())
		case 1:
			v = append([]float32(nil), vecs[1+rng.Int64N(id)]...)
			v[rng.IntN(len(v))] += float32(rng.NormFloat64() * 0.2)
		default:
			v = append([]float32(nil), vecs[1+rng.Int64N(id)]...)
			for i := range v {
				v[i] *= 3 // not unit: the norms enter the bound
			}
		}
		for _, thr := range []float64{0.92, 0.80, 0.99} {
			all, n := 0, 0
			exactID, exactSim := ix.nearDuplicate(v, thr, false, func(id int64) ([]float32, bool) { all++; return vecOf(id) })
			gotID, gotSim := ix.nearDuplicate(v, thr, true, func(id int64) ([]float32, bool) { n++; return vecOf(id) })
			if gotID != exactID || gotSim != exactSim {
				t.Fatalf("query %d at %.2f: sketch chose %d (%v), every cosine %d (%v)", q, thr, gotID, gotSim, exactID, exactSim)
			}
			if exactID != 0 {
				chosen++
			}
			skipped += all - n
		}
	}
	if chosen < 500 || skipped == 0 {
		t.Fatalf("the test exercises too little: %d queries found a duplicate, %d candidates skipped", chosen, skipped)
	}
	t.Logf("%d queries found a duplicate; the sketch skipped %d candidates", chosen, skipped)
}

// TestSketchFollowsVector: a sketch taken of another vector than the one
// the scan reads would skip a true duplicate, so setSketch on a new vector
// replaces the old sketch, and a vector of another length has none.
func TestSketchFollowsVector(t *testing.T) {
	h := engine.NewHashed(0)
	ix := newLSH(h.Dim())
	old, edited := h.EmbedOne("I drive a blue 2015 Avante to work"), h.EmbedOne("my sister keeps three cats and a parrot at home")
	cur := old
	vecOf := func(int64) ([]float32, bool) { return cur, true }
	ix.add(1, old)
	if id, _ := ix.nearDuplicate(old, 0.92, true, vecOf); id != 1 {
		t.Fatalf("the vector itself is not found: %d", id)
	}
	// The memory's vector changes (an edit); its LSH codes stay, so the
	// old text's query still lists it — and must now score the new vector.
	cur = edited
	ix.setSketch(1, edited)
	if id, _ := ix.nearDuplicate(old, 0.92, true, vecOf); id != 0 {
		t.Fatalf("chosen %d after its vector changed", id)
	}
	cur = old
	ix.setSketch(1, old)
	if id, _ := ix.nearDuplicate(old, 0.92, true, vecOf); id != 1 {
		t.Fatalf("not chosen after the sketch came back: %d", id)
	}
	ix.setSketch(1, []float32{1, 2})
	if ix.record(1)[0]|ix.record(1)[1]|ix.record(1)[2]|ix.record(1)[3] != 0 {
		t.Fatal("a vector of another length kept a sketch")
	}
}

// TestLSHPutAllIsPut: the bulk put of a first index build leaves the
// index that putting the same vectors one after the other does.
func TestLSHPutAllIsPut(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 5))
	h := engine.NewHashed(0)
	one, all := newLSH(h.Dim()), newLSH(h.Dim())
	var ids []int64
	var ens []*lshEntry
	for i := range 3000 {
		v := h.EmbedOne(fmt.Sprintf("I noted w%d w%d w%d w%d", rng.IntN(300), rng.IntN(300), rng.IntN(300), i))
		id := int64(2*i + 1 + rng.IntN(2)) // with gaps
		en := one.entry(v)
		one.put(id, &en)
		ids, ens = append(ids, id), append(ens, &en)
	}
	all.putAll(ids, ens)
	n := len(ids)*2 + 2
	if !reflect.DeepEqual(one.buckets, all.buckets) || !reflect.DeepEqual(one.norms[:n], all.norms[:n]) ||
		!reflect.DeepEqual(one.sketch[:n*sketchStride], all.sketch[:n*sketchStride]) {
		t.Fatal("putAll left another index than put one by one")
	}
}

// TestRescanMatchesScan: a scan at an earlier state of the index plus a
// rescan of only the memories changed since (new ones, near-duplicates of
// the query among them, and old ones whose vector went or changed)
// chooses the memory and the cosine a whole scan of the index now
// chooses; it gives up (the caller scans) only when the earlier choice
// itself changed.
func TestRescanMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	h := engine.NewHashed(0)
	words := func(n int) string {
		var w []string
		for range n {
			w = append(w, fmt.Sprintf("w%dx", rng.IntN(300)))
		}
		return strings.Join(w, " ")
	}
	near := func(v []float32, noise float64) []float32 {
		c := append([]float32(nil), v...)
		for range 1 + rng.IntN(6) {
			c[rng.IntN(len(c))] += float32(rng.NormFloat64() * noise)
		}
		index.Normalize(c)
		return c
	}
	const thr = 0.92
	answered, gaveUp, viaChanged := 0, 0, 0
	for trial := range 300 {
		vecs := map[int64][]float32{}
		vecOf := func(id int64) ([]float32, bool) { v, ok := vecs[id]; return v, ok }
		ix := newLSH(h.Dim())
		var id int64
		add := func(v []float32) {
			id++
			vecs[id] = v
			ix.add(id, v)
		}
		query := h.EmbedOne(words(8))
		for range 200 {
			add(h.EmbedOne(words(4 + rng.IntN(8))))
		}
		for range rng.IntN(4) {
			add(near(query, 0.1))
		}
		q := ix.entry(query)
		preID, preSim := ix.scan(&ix.own, query, &q, thr, true, vecOf)
		pre := &preDup{id: preID, sim: preSim}
		// What other writers change before the lock: new memories (some
		// near the query, one a copy of the earlier choice: a tie), old
		// ones archived (no vector) or re-embedded.
		var changed []int64
		for range 1 + rng.IntN(4) {
			switch rng.IntN(4) {
			case 0:
				add(h.EmbedOne(words(6)))
			case 1:
				add(near(query, 0.05+rng.Float64()*0.2))
			case 2:
				if pre.id != 0 && trial%5 == 0 {
					add(append([]float32(nil), vecs[pre.id]...))
				} else {
					add(near(query, 0.08))
				}
			default:
				old := 1 + rng.Int64N(id)
				if rng.IntN(2) == 0 {
					delete(vecs, old)
				} else {
					vecs[old] = near(vecs[old], 0.3)
					ix.setSketch(old, vecs[old])
				}
				changed = append(changed, old)
				continue
			}
			changed = append(changed, id)
		}
		wantID, wantSim := ix.scan(&ix.own, query, &q, thr, false, vecOf)
		gotID, gotSim, ok := ix.rescan(pre, changed, true, query, &q, thr, vecOf)
		if !ok {
			gaveUp++
			continue
		}
		answered++
		if gotID != preID {
			viaChanged++
		}
		if gotID != wantID || gotSim != wantSim {
			t.Fatalf("trial %d: rescan chose %d (%v), a whole scan %d (%v); earlier %d (%v), changed %v", trial, gotID, gotSim, wantID, wantSim, preID, preSim, changed)
		}
	}
	if _, _, ok := ix0Rescan(); ok {
		t.Fatal("rescan answered without knowing what changed")
	}
	if answered < 200 || viaChanged < 30 {
		t.Fatalf("the test exercises too little: %d answered (%d gave up), %d chose a changed memory", answered, gaveUp, viaChanged)
	}
	t.Logf("%d rescans agreed with a whole scan (%d chose a changed memory); %d gave up", answered, viaChanged, gaveUp)
}

// ix0Rescan is a rescan whose cache no longer knows what changed.
func ix0Rescan() (int64, float64, bool) {
	ix := newLSH(8)
	v := []float32{1, 0, 0, 0, 0, 0, 0, 0}
	q := ix.entry(v)
	return ix.rescan(&preDup{}, nil, false, v, &q, 0.9, func(int64) ([]float32, bool) { return nil, false })
}
