package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// ctxWeights is the engine's window: the turns one away at 0.5, two away
// at 0.3 (before, after, before, after).
var ctxWeights = []float64{0.5, 0.5, 0.3, 0.3}

type ctxDoc struct {
	id    int64
	toks  []string
	mute  bool
	order int // position in its session
}

// window of doc i in a session laid out as docs[0..n).
func ctxWindow(session []*ctxDoc, i int) []int64 {
	w := []int64{None, None, None, None}
	for k, j := range []int{i - 1, i + 1, i - 2, i + 2} {
		if j >= 0 && j < len(session) {
			w[k] = session[j].id
		}
	}
	return w
}

// expanded is the reference: a document's own words at 1 and its lending
// neighbours' at their weights, written out.
func expanded(session []*ctxDoc, i int) map[string]float64 {
	tf := map[string]float64{}
	for _, t := range session[i].toks {
		tf[t]++
	}
	for k, j := range []int{i - 1, i + 1, i - 2, i + 2} {
		if j >= 0 && j < len(session) && !session[j].mute {
			for _, t := range session[j].toks {
				tf[t] += ctxWeights[k]
			}
		}
	}
	return tf
}

// A context index — built document by document, or in bulk — scores every
// query as an index with each document's context written out into its
// postings (the engine's former design), to float rounding, and agrees on
// every document frequency.
func TestContextMatchesWrittenOutContext(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vocab := []string{"apple", "pie", "dog", "shelter", "adopt", "luna", "사과", "충주", "work", "long", "day", "trip"}
	var sessions [][]*ctxDoc
	id := int64(0)
	for range 40 {
		var s []*ctxDoc
		for i := range 1 + r.IntN(12) {
			id++
			d := &ctxDoc{id: id, mute: r.IntN(6) == 0, order: i}
			for range 1 + r.IntN(8) {
				d.toks = append(d.toks, vocab[r.IntN(len(vocab))])
			}
			s = append(s, d)
		}
		sessions = append(sessions, s)
	}

	ref := NewBM25(K1, B)
	inc := NewContextBM25(K1, B, ctxWeights)
	bulk := NewContextBM25(K1, B, ctxWeights)
	var ids []int64
	var start []int
	var nos []int32
	var tfs []float64
	start = append(start, 0)
	for _, s := range sessions {
		for i, d := range s {
			ref.AddWeighted(d.id, expanded(s, i))
			inc.Add(d.id, d.toks)
			own := map[int32]float64{}
			var order []int32
			for _, t := range d.toks {
				no := bulk.TermNo(t)
				if own[no] == 0 {
					order = append(order, no)
				}
				own[no]++
			}
			ids = append(ids, d.id)
			for _, no := range order {
				nos, tfs = append(nos, no), append(tfs, own[no])
			}
			start = append(start, len(nos))
		}
	}
	bulk.AddDocs(ids, start, nos, tfs, 2)
	for _, s := range sessions {
		for i, d := range s {
			inc.SetContext(d.id, ctxWindow(s, i), !d.mute)
			bulk.SetContext(d.id, ctxWindow(s, i), !d.mute)
		}
	}
	for _, s := range sessions {
		for _, d := range s {
			inc.Relength(d.id)
		}
	}
	bulk.RelengthAll()

	for _, term := range vocab {
		want := ref.DocFreq(term)
		for name, ix := range map[string]*BM25{"incremental": inc, "bulk": bulk} {
			if got := ix.DocFreq(term); got != want {
				t.Fatalf("%s: DocFreq(%q) = %d, want %d", name, term, got, want)
			}
		}
	}
	for q := range 30 {
		query := map[string]float64{vocab[q%len(vocab)]: 1, vocab[(q*7+3)%len(vocab)]: 0.5}
		want := ref.SearchWeighted(query, 1000)
		a, b := inc.SearchWeighted(query, 1000), bulk.SearchWeighted(query, 1000)
		// The search records the document frequencies DocFreq gives.
		query["unknown-term"] = 1
		df := map[string]int{}
		if c := inc.SearchWeightedDF(query, 1000, df); !slices.Equal(c, a) {
			t.Fatalf("query %v: SearchWeightedDF hits differ from SearchWeighted", query)
		}
		for term := range query {
			if got, ok := df[term]; !ok || got != inc.DocFreq(term) {
				t.Fatalf("query %v: SearchWeightedDF recorded df[%q] = %d (%v), DocFreq %d", query, term, got, ok, inc.DocFreq(term))
			}
		}
		delete(query, "unknown-term")
		if len(a) != len(want) || len(b) != len(want) {
			t.Fatalf("query %v: %d and %d hits, want %d", query, len(a), len(b), len(want))
		}
		score := map[int64]float64{}
		for _, h := range want {
			score[h.ID] = h.Score
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("query %v: hit %d incremental %+v, bulk %+v", query, i, a[i], b[i])
			}
			if math.Abs(a[i].Score-score[a[i].ID]) > 1e-6*score[a[i].ID] {
				t.Fatalf("query %v: id %d score %v, written out %v", query, a[i].ID, a[i].Score, score[a[i].ID])
			}
		}
	}

	// Muting a document takes its words out of its neighbours; removing
	// one takes it out of their windows.
	s := sessions[0]
	for len(s) < 3 {
		s = sessions[1]
	}
	probe := fmt.Sprintf("probe%d", 1)
	inc.Add(s[1].id, append(s[1].toks, probe))
	inc.SetContext(s[1].id, ctxWindow(s, 1), true)
	for _, d := range s {
		inc.Relength(d.id)
	}
	if got := inc.DocFreq(probe); got != min(len(s), 4) {
		t.Fatalf("a word of a lending document reaches %d documents, want %d", got, min(len(s), 4))
	}
	inc.SetContext(s[1].id, ctxWindow(s, 1), false)
	if got := inc.DocFreq(probe); got != 1 {
		t.Fatalf("a muted document's word reaches %d documents, want 1", got)
	}
	inc.SetContext(s[1].id, ctxWindow(s, 1), true)
	inc.Remove(s[0].id)
	if got := inc.DocFreq(probe); got != min(len(s), 4)-1 {
		t.Fatalf("after removing a neighbour the word reaches %d documents, want %d", got, min(len(s), 4)-1)
	}
}
