package index

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// spreadFixture is a context index of sessions whose common terms have
// enough postings to be kept as spread lists, with the sessions it holds.
// filler documents (sessions of ten, words of their own) make the common
// terms rare enough to be made into lists by a sort rather than a pass.
func spreadFixture(r *rand.Rand, filler int) (*BM25, [][]*ctxDoc, []string) {
	vocab := []string{"apple", "pie", "dog", "shelter", "adopt", "luna", "사과", "충주", "work", "long", "day", "trip", "x1", "x2", "x3", "x4"}
	ix := NewContextBM25(K1, B, ctxWeights)
	var sessions [][]*ctxDoc
	id := int64(0)
	for range 300 {
		var s []*ctxDoc
		for i := range 1 + r.IntN(20) {
			id++
			d := &ctxDoc{id: id, mute: r.IntN(8) == 0, order: i}
			for range 1 + r.IntN(6) {
				// Skewed: the first words are common, the last rare.
				d.toks = append(d.toks, vocab[min(r.IntN(len(vocab)), r.IntN(len(vocab)))])
			}
			s = append(s, d)
			ix.Add(d.id, d.toks)
		}
		sessions = append(sessions, s)
	}
	for i := 0; i < filler; i += 10 {
		var s []*ctxDoc
		for k := range 10 {
			id++
			d := &ctxDoc{id: id, toks: []string{fmt.Sprintf("f%d", (i+k)%97)}, order: k}
			s = append(s, d)
			ix.Add(d.id, d.toks)
		}
		sessions = append(sessions, s)
	}
	setWindows(ix, sessions)
	return ix, sessions, vocab
}

func setWindows(ix *BM25, sessions [][]*ctxDoc) {
	for _, s := range sessions {
		for i, d := range s {
			ix.SetContext(d.id, ctxWindow(s, i), !d.mute)
		}
	}
	ix.RelengthAll()
}

// spreadingSearch is the search without spread lists: every term spread
// over the postings' windows, as before the lists.
func spreadingSearch(ix *BM25, terms map[string]float64, n int) ([]Hit, map[string]int) {
	df := map[string]int{}
	for t := range terms {
		df[t] = 0
	}
	keys := make([]string, 0, len(terms))
	for t := range terms {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	avg := float64(ix.totalLen) / lengthScale / float64(ix.n)
	h := ix.searchSpreading(keys, terms, n, df, avg)
	return h, df
}

func randomQuery(r *rand.Rand, vocab []string) map[string]float64 {
	q := map[string]float64{}
	for range 1 + r.IntN(5) {
		q[vocab[r.IntN(len(vocab))]] = []float64{1, 0.5, 0.3}[r.IntN(3)]
	}
	if r.IntN(4) == 0 {
		q["nowhere"] = 1
	}
	return q
}

// A search through the spread lists returns exactly the hits and document
// frequencies of the spreading search — bit for bit, ties included — and
// keeps doing so as documents are removed, re-added with other words,
// added, and their windows and mute flags change (each change makes the
// kept lists stale).
func TestSpreadListsMatchSpreading(t *testing.T) {
	for _, filler := range []int{0, 60000} {
		t.Run(fmt.Sprint("filler", filler), func(t *testing.T) { testSpreadLists(t, filler) })
	}
}

func testSpreadLists(t *testing.T, filler int) {
	r := rand.New(rand.NewPCG(7, 8))
	ix, sessions, vocab := spreadFixture(r, filler)
	check := func(when string) {
		t.Helper()
		for range 60 {
			q := randomQuery(r, vocab)
			n := []int{1, 5, 50, 10000}[r.IntN(4)]
			want, wantDF := spreadingSearch(ix, q, n)
			df := map[string]int{}
			got := ix.SearchWeightedDF(q, n, df)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(df, wantDF) {
				t.Fatalf("%s: query %v n=%d:\n got %v %v\nwant %v %v", when, q, n, got, df, want, wantDF)
			}
			for term, f := range wantDF {
				if term != "nowhere" && ix.DocFreq(term) != f {
					t.Fatalf("%s: DocFreq(%s) = %d, spread %d", when, term, ix.DocFreq(term), f)
				}
			}
		}
	}
	check("built")
	if len(ix.spreads.lists) == 0 {
		t.Fatal("no spread list kept: the fixture's terms are too rare to test them")
	}
	sorted := 0 // lists made by a sort of the reached documents
	for _, l := range ix.spreads.lists {
		if 32*len(l.slots) < len(ix.docs) {
			sorted++
		}
	}
	if filler > 0 && (sorted == 0 || sorted == len(ix.spreads.lists)) {
		t.Fatalf("%d of %d lists sorted: the fixture must make lists both ways", sorted, len(ix.spreads.lists))
	}
	check("kept lists") // the second round reads the lists the first kept

	// Remove a document from every fifth session.
	for i := 0; i < len(sessions); i += 5 {
		s := sessions[i]
		if len(s) < 2 {
			continue
		}
		k := r.IntN(len(s))
		ix.Remove(s[k].id)
		sessions[i] = append(s[:k:k], s[k+1:]...)
	}
	setWindows(ix, sessions)
	check("after removals")

	// Re-add documents with other words.
	for i := 1; i < len(sessions); i += 7 {
		for _, d := range sessions[i] {
			d.toks = append(d.toks[:0], vocab[r.IntN(4)], vocab[r.IntN(len(vocab))])
			ix.Add(d.id, d.toks)
		}
	}
	setWindows(ix, sessions)
	check("after re-adds")

	// Windows alone: mute flags flip, nothing is re-posted.
	before := ix.gen
	for _, s := range sessions[:100] {
		for _, d := range s {
			d.mute = !d.mute
		}
	}
	setWindows(ix, sessions)
	if ix.gen != before {
		t.Fatal("SetContext changed gen: the test no longer tests ctxEdits")
	}
	check("after mute flips")

	// New documents.
	s := sessions[len(sessions)-1]
	for i := range 40 {
		d := &ctxDoc{id: 100000 + int64(i), toks: []string{vocab[r.IntN(3)]}, order: len(s)}
		s = append(s, d)
		ix.Add(d.id, d.toks)
	}
	sessions[len(sessions)-1] = s
	setWindows(ix, sessions)
	check("after adds")
}

// The kept lists stay within their budget, least recently read dropped
// first.
func TestSpreadListsBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	ix, _, vocab := spreadFixture(r, 0)
	budget := spreadBudget(len(ix.docs))
	for _, term := range vocab {
		ix.SearchWeighted(map[string]float64{term: 1}, 10)
		if ix.spreads.entries > budget {
			t.Fatalf("%d entries kept, budget %d", ix.spreads.entries, budget)
		}
	}
	sum := 0
	for _, l := range ix.spreads.lists {
		sum += len(l.slots)
	}
	if sum != ix.spreads.entries {
		t.Fatalf("entries %d, lists hold %d", ix.spreads.entries, sum)
	}
	// A tiny budget: only the last list read is kept.
	c := &ix.spreads
	no, _ := ix.Lookup("apple")
	c.mu.Lock()
	for len(c.lists) > 1 {
		c.evictOldest()
	}
	c.mu.Unlock()
	if len(c.lists) != 1 {
		t.Fatal("eviction emptied the cache")
	}
	ix.SearchWeighted(map[string]float64{"apple": 1}, 10)
	if _, ok := c.lists[no]; !ok {
		t.Fatal("the list just read is not kept")
	}
}

// Searches run concurrently under their callers' read locks: they make,
// keep and read lists at once and each gets the spreading search's hits.
func TestSpreadListsConcurrentSearches(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	ix, _, vocab := spreadFixture(r, 0)
	type job struct {
		q    map[string]float64
		want []Hit
	}
	var jobs []job
	for range 40 {
		q := randomQuery(r, vocab)
		want, _ := spreadingSearch(ix, q, 20)
		jobs = append(jobs, job{q, want})
	}
	errs := make(chan error, 4)
	for w := range 4 {
		go func() {
			for i := range jobs {
				j := jobs[(i+w*7)%len(jobs)]
				if got := ix.SearchWeighted(j.q, 20); !reflect.DeepEqual(got, j.want) {
					errs <- fmt.Errorf("query %v: got %v, want %v", j.q, got, j.want)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
