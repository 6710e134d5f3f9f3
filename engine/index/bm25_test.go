package index

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"memtrace/engine/textnorm"
)

func TestSearchRanksByBM25(t *testing.T) {
	ix := NewBM25(K1, B)
	ix.Add(1, textnorm.Tokens("충주 사과가 정말 달고 맛있었어"))
	ix.Add(2, textnorm.Tokens("사과 한 박스를 엄마께 보냈어"))
	ix.Add(3, textnorm.Tokens("오늘 비가 많이 와서 우산 샀어"))
	hits := ix.Search(textnorm.Tokens("충주 사과가 맛있었지?"), 10)
	if len(hits) != 2 || hits[0].ID != 1 || hits[1].ID != 2 {
		t.Fatalf("hits = %+v, want ids 1 then 2", hits)
	}
	if hits[0].Score <= hits[1].Score {
		t.Errorf("score of the doc matching three terms (%v) not above one term (%v)", hits[0].Score, hits[1].Score)
	}
}

func TestRemoveAndReAdd(t *testing.T) {
	ix := NewBM25(K1, B)
	ix.Add(1, []string{"apple"})
	ix.Add(2, []string{"apple", "pie"})
	ix.Remove(1)
	if hits := ix.Search([]string{"apple"}, 10); len(hits) != 1 || hits[0].ID != 2 {
		t.Fatalf("after remove: %+v", hits)
	}
	ix.Add(2, []string{"cherry"})
	if hits := ix.Search([]string{"apple"}, 10); len(hits) != 0 {
		t.Fatalf("re-added doc still matches its old terms: %+v", hits)
	}
	if hits := ix.Search([]string{"cherry"}, 10); len(hits) != 1 || hits[0].ID != 2 {
		t.Fatalf("re-added doc not found by its new terms: %+v", hits)
	}
	if ix.Len() != 1 {
		t.Errorf("Len = %d, want 1", ix.Len())
	}
}

func TestCompactionKeepsLiveDocs(t *testing.T) {
	ix := NewBM25(K1, B)
	for i := int64(0); i < 3000; i++ {
		ix.Add(i, []string{"common", fmt.Sprintf("w%d", i)})
	}
	for i := int64(0); i < 2900; i++ {
		ix.Remove(i)
	}
	hits := ix.Search([]string{"common"}, 1000)
	if len(hits) != 100 {
		t.Fatalf("live docs after compaction = %d, want 100", len(hits))
	}
	if ix.DocFreq("common") != 100 {
		t.Errorf("DocFreq = %d", ix.DocFreq("common"))
	}
}

func TestAddWeightedCountsFractionally(t *testing.T) {
	ix := NewBM25(K1, B)
	// Doc 1 mentions "lake" itself; doc 2 only through a neighbour at weight 0.3.
	ix.AddWeighted(1, map[string]float64{"lake": 1, "paint": 1})
	ix.AddWeighted(2, map[string]float64{"sunrise": 1, "lake": 0.3})
	ix.AddWeighted(3, map[string]float64{"dog": 1, "walk": 1, "ignored": 0})
	hits := ix.Search([]string{"lake"}, 10)
	if len(hits) != 2 || hits[0].ID != 1 || hits[1].ID != 2 {
		t.Fatalf("hits = %+v, want ids 1 then 2", hits)
	}
	if got := ix.Search([]string{"ignored"}, 10); len(got) != 0 {
		t.Errorf("a zero-weight term is indexed: %+v", got)
	}
	// Add is AddWeighted with whole counts.
	a, b := NewBM25(K1, B), NewBM25(K1, B)
	a.Add(7, []string{"x", "x", "y"})
	b.AddWeighted(7, map[string]float64{"x": 2, "y": 1})
	if ha, hb := a.Search([]string{"x"}, 1), b.Search([]string{"x"}, 1); ha[0].Score != hb[0].Score {
		t.Errorf("Add %v != AddWeighted %v", ha[0].Score, hb[0].Score)
	}
}

func TestNewWithParameters(t *testing.T) {
	long := []string{"apple", "a1", "a2", "a3", "a4", "a5", "a6", "a7"}
	for _, tc := range []struct {
		b         float64
		shortWins bool
	}{{0, false}, {0.75, true}} {
		ix := NewBM25(1.2, tc.b)
		ix.Add(1, long)
		ix.Add(2, []string{"apple", "pie"})
		hits := ix.Search([]string{"apple"}, 2)
		if tc.shortWins != (hits[0].Score > hits[1].Score) {
			t.Errorf("b=%v: scores %+v", tc.b, hits)
		}
	}
}

// TestMatchesReferenceUnderChurn checks the incremental statistics (document
// frequency, length, slot reuse, compaction) and the top-n heap against a
// BM25 computed from scratch, over random adds, re-adds and removals.
func TestMatchesReferenceUnderChurn(t *testing.T) {
	ix := NewBM25(K1, B)
	docs := map[int64][]string{}
	vocab := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	seed := uint64(1)
	next := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int(seed>>33) % n
	}
	for step := 0; step < 6000; step++ {
		id := int64(next(1500))
		if next(4) == 0 {
			ix.Remove(id)
			delete(docs, id)
			continue
		}
		toks := make([]string, 1+next(6))
		for i := range toks {
			toks[i] = vocab[next(len(vocab))]
		}
		ix.Add(id, toks)
		docs[id] = toks
	}
	if ix.Len() != len(docs) {
		t.Fatalf("Len = %d, want %d", ix.Len(), len(docs))
	}
	total := 0.0
	for _, ts := range docs {
		total += float64(len(ts))
	}
	avg := total / float64(len(docs))
	for _, q := range [][]string{{"a"}, {"b", "h"}, {"c", "d", "e"}} {
		want := map[int64]float64{}
		for _, term := range q {
			df := 0
			for _, ts := range docs {
				for _, x := range ts {
					if x == term {
						df++
						break
					}
				}
			}
			if got := ix.DocFreq(term); got != df {
				t.Fatalf("DocFreq(%q) = %d, want %d", term, got, df)
			}
			idf := math.Log(1 + (float64(len(docs))-float64(df)+0.5)/(float64(df)+0.5))
			for id, ts := range docs {
				tf := 0.0
				for _, x := range ts {
					if x == term {
						tf++
					}
				}
				if tf > 0 {
					want[id] += idf * tf * (K1 + 1) / (tf + K1*(1-B+B*float64(len(ts))/avg))
				}
			}
		}
		hits := ix.Search(q, 20)
		if len(hits) != min(20, len(want)) {
			t.Fatalf("query %v: %d hits, want %d", q, len(hits), min(20, len(want)))
		}
		for i, h := range hits {
			if math.Abs(h.Score-want[h.ID]) > 1e-9 {
				t.Fatalf("query %v: id %d score %v, want %v", q, h.ID, h.Score, want[h.ID])
			}
			if i > 0 && Worse(hits[i-1], h) {
				t.Fatalf("query %v: hits out of order at %d: %+v", q, i, hits)
			}
		}
		// Nothing outside the top 20 beats the 20th.
		last := hits[len(hits)-1]
		for id, s := range want {
			if Worse(last, Hit{ID: id, Score: s}) && !containsID(hits, id) {
				t.Fatalf("query %v: id %d (%v) belongs in the top 20 above %+v", q, id, s, last)
			}
		}
	}
}

func containsID(hs []Hit, id int64) bool {
	for _, h := range hs {
		if h.ID == id {
			return true
		}
	}
	return false
}

// TestReserveScoresAlike: an index bulk-loaded after Reserve scores and
// ranks every query exactly as one grown posting by posting, and keeps
// accepting documents, replacements and removals beyond the reservation.
func TestReserveScoresAlike(t *testing.T) {
	docs := map[int64][]string{
		1: {"red", "apple", "pie"}, 2: {"green", "apple"}, 3: {"red", "car", "red"},
		4: {"사과", "빨간", "사과"}, 5: {"pie", "crust", "apple", "butter"},
	}
	plain, reserved := NewBM25(K1, B), NewBM25(K1, B)
	counts := make([]int, 0)
	for id := int64(1); id <= 5; id++ {
		seen := map[string]bool{}
		for _, w := range docs[id] {
			no := reserved.TermNo(w)
			for int(no) >= len(counts) {
				counts = append(counts, 0)
			}
			if !seen[w] {
				seen[w] = true
				counts[no]++
			}
		}
	}
	reserved.Reserve(len(docs), counts)
	for id := int64(1); id <= 5; id++ {
		plain.Add(id, docs[id])
		reserved.Add(id, docs[id])
	}
	// Beyond the reservation: a new document, a replacement, a removal.
	for _, ix := range []*BM25{plain, reserved} {
		ix.Add(6, []string{"apple", "crumble", "apple"})
		ix.Add(2, []string{"green", "pear"})
		ix.Remove(3)
	}
	for _, q := range [][]string{{"apple"}, {"red"}, {"pie", "apple"}, {"사과"}, {"green", "pear", "crumble"}} {
		a, b := plain.Search(q, 10), reserved.Search(q, 10)
		if len(a) == 0 || !slices.Equal(a, b) {
			t.Errorf("%v: grown %v, reserved %v", q, a, b)
		}
	}
	if got := reserved.Search([]string{"red"}, 10); len(got) != 1 || got[0].ID != 1 {
		t.Errorf("red after removing 3: %v, want only 1", got)
	}
}

// TestAddDocsMatchesAddTerms: a bulk load on two workers leaves an index
// that ranks every query as AddTerms document by document does, before and
// after later replacements and removals.
func TestAddDocsMatchesAddTerms(t *testing.T) {
	words := []string{"apple", "pie", "red", "car", "사과", "빨간", "tea", "green", "pear", "crust"}
	one, bulk := NewBM25(K1, B), NewBM25(K1, B)
	var ids []int64
	start := []int{0}
	var nos []int32
	var tfs []float64
	for id := int64(1); id <= 40; id++ {
		ids = append(ids, id)
		for k, w := range words {
			if (int(id)+k)%3 == 0 || (int(id)*k)%7 == 1 {
				nos = append(nos, bulk.TermNo(w))
				one.TermNo(w)
				tfs = append(tfs, 0.5+float64((int(id)+k)%4)*0.3)
			}
		}
		start = append(start, len(nos))
	}
	for k, id := range ids {
		one.AddTerms(id, slices.Clone(nos[start[k]:start[k+1]]), tfs[start[k]:start[k+1]])
	}
	bulk.AddDocs(ids, start, nos, tfs, 2)
	check := func(when string) {
		t.Helper()
		for _, w := range words {
			a, b := one.Search([]string{w, "pie"}, 15), bulk.Search([]string{w, "pie"}, 15)
			if len(a) == 0 || !slices.Equal(a, b) {
				t.Errorf("%s, %q: one by one %v, bulk %v", when, w, a, b)
			}
		}
	}
	check("after the load")
	for _, ix := range []*BM25{one, bulk} {
		ix.Add(7, []string{"pear", "pear", "tea"})
		ix.Remove(8)
		ix.Add(41, []string{"apple", "crust"})
	}
	check("after changes")
}
