package golden

import (
	"context"
	"math"
	"sort"
	"strings"
	"unicode"

	"memtrace/engine"
	"memtrace/engine/index"
	"memtrace/engine/textnorm"
)

// The retrieval lab: an offline turn retriever for LoCoMo built from the
// engine's parts, in which each retrieval idea is measured on its own
// before it goes into the engine. It is test code on purpose — nothing the
// product runs depends on it, and no test gates on it: the product's own
// LoCoMo figure is gated by internal/cli's TestBenchLoCoMoPipelineFloor.
// Run the experiments with MEMTRACE_VARIANTS=1 (turnmodel_variants_test.go).

// TurnModel is one configuration of the lab retriever over LoCoMo turns:
// engine/lexical BM25 over engine/textnorm terms (the product's
// tokenisation and stemmer), optionally with neighbours, dates, feedback
// and the hashed embedder. The zero value is plain BM25 over the turn text;
// DefaultTurnModel is the configuration the engine adopted.
type TurnModel struct {
	Name string
	// K1 and B are the BM25 parameters (0: index.K1 and index.B).
	K1, B float64
	// Speaker indexes the speaker's name with the turn; Caption its image
	// caption.
	Speaker, Caption bool
	// Window is how many turns either side, in the same session, are
	// indexed with a turn; the neighbour at distance d counts
	// NeighbourWeight × NeighbourDecay^(d−1) per occurrence (BM25F-style
	// fractional term frequency).
	Window          int
	NeighbourWeight float64
	NeighbourDecay  float64
	// DateWeight indexes the session's month and year at this weight
	// (0: not at all).
	DateWeight float64
	// PRF adds the PRFTerms best terms of the top PRFDocs first-pass turns
	// (RM3-style pseudo-relevance feedback) at PRFWeight of a query term.
	PRFDocs, PRFTerms int
	PRFWeight         float64
	// VectorWeight fuses the hashed-embedding cosine of the turn (with its
	// neighbours when Window > 0) into the score: (1−w)·bm25/max + w·cosine.
	// RRF uses reciprocal-rank fusion (k = 60) instead, VectorWeight
	// weighting the vector list.
	VectorWeight float64
	RRF          bool
	// EntityBoost multiplies the weight of query terms that were written
	// capitalised mid-sentence (names: "Oscar", "Paris") by 1 + EntityBoost.
	EntityBoost float64
}

// DefaultTurnModel is the configuration the engine adopts (see
// engine/context_index.go): the best offline configuration measured by
// TestTurnModelVariants.
func DefaultTurnModel() TurnModel {
	return TurnModel{
		Name: "default", Speaker: true, Caption: true,
		Window: 2, NeighbourWeight: 0.5, NeighbourDecay: 0.6,
	}
}

func (m TurnModel) tokens(s string) []string { return textnorm.Tokens(s) }

// TurnIndex is a TurnModel built over one conversation.
type TurnIndex struct {
	m     TurnModel
	ids   []string
	ix    *index.BM25
	vecs  [][]float32
	embed *index.Hashed
	docTF []map[string]float64
}

// Index builds the model's index over the conversation's turns.
func (m TurnModel) Index(c *Conversation) *TurnIndex {
	k1, b := m.K1, m.B
	if k1 == 0 {
		k1 = index.K1
	}
	if b == 0 {
		b = index.B
	}
	ti := &TurnIndex{m: m, ix: index.NewBM25(k1, b)}
	type turnAt struct {
		t    Turn
		sess int
		pos  int
		date string
	}
	var turns []turnAt
	own := [][]string{}
	for si, s := range c.Sessions {
		date := ""
		if !s.At.IsZero() {
			date = s.At.Format("January 2006")
		}
		for pi, t := range s.Turns {
			turns = append(turns, turnAt{t: t, sess: si, pos: pi, date: date})
			text := t.Text
			if m.Caption && t.ImageCaption != "" {
				text += " " + t.ImageCaption
			}
			if m.Speaker {
				text = t.Speaker + ": " + text
			}
			own = append(own, m.tokens(text))
		}
	}
	if m.VectorWeight > 0 {
		ti.embed = engine.NewHashed(engine.HashedDim)
	}
	for i, ta := range turns {
		tf := map[string]float64{}
		for _, w := range own[i] {
			tf[w]++
		}
		var ctxText []string
		for d := 1; d <= m.Window; d++ {
			wt := m.NeighbourWeight * math.Pow(nonZero(m.NeighbourDecay, 1), float64(d-1))
			for _, j := range []int{i - d, i + d} {
				if j < 0 || j >= len(turns) || turns[j].sess != ta.sess {
					continue
				}
				for _, w := range own[j] {
					tf[w] += wt
				}
				ctxText = append(ctxText, turns[j].t.Text)
			}
		}
		if m.DateWeight > 0 && ta.date != "" {
			for _, w := range m.tokens(ta.date) {
				tf[w] += m.DateWeight
			}
		}
		ti.ids = append(ti.ids, ta.t.DiaID)
		ti.ix.AddWeighted(int64(i), tf)
		ti.docTF = append(ti.docTF, tf)
		if ti.embed != nil {
			text := ta.t.Text
			if len(ctxText) > 0 {
				text += " " + strings.Join(ctxText, " ")
			}
			ti.vecs = append(ti.vecs, ti.embed.EmbedOne(text))
		}
	}
	return ti
}

func nonZero(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}

// queryWeights turns a question into weighted terms: each distinct term
// once, names boosted.
func (m TurnModel) queryWeights(q string) map[string]float64 {
	w := map[string]float64{}
	for _, t := range m.tokens(q) {
		w[t] = 1
	}
	if m.EntityBoost > 0 {
		for _, name := range capitalisedWords(q) {
			for _, t := range m.tokens(name) {
				if _, ok := w[t]; ok {
					w[t] = 1 + m.EntityBoost
				}
			}
		}
	}
	return w
}

// capitalisedWords are the words written with a capital letter that do not
// start a sentence.
func capitalisedWords(s string) []string {
	var out []string
	words := strings.Fields(s)
	for i, w := range words {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w == "" {
			continue
		}
		first := []rune(w)[0]
		if !unicode.IsUpper(first) {
			continue
		}
		if i == 0 || strings.ContainsAny(words[i-1][len(words[i-1])-1:], ".?!") {
			continue
		}
		out = append(out, w)
	}
	return out
}

// Rank returns the dia_ids of the n best turns for the question.
func (ti *TurnIndex) Rank(q string, n int) []string {
	m := ti.m
	w := m.queryWeights(q)
	depth := max(n, 200)
	hits := ti.ix.SearchWeighted(w, depth)
	if m.PRFDocs > 0 && m.PRFTerms > 0 && len(hits) > 0 {
		w = ti.expand(w, hits)
		hits = ti.ix.SearchWeighted(w, depth)
	}
	scores := map[int64]float64{}
	switch {
	case ti.embed != nil && m.RRF:
		qv := ti.embed.EmbedOne(q)
		for r, h := range hits {
			scores[h.ID] += (1 - m.VectorWeight) / float64(60+r+1)
		}
		for r, h := range ti.vectorRank(qv, depth) {
			scores[h.ID] += m.VectorWeight / float64(60+r+1)
		}
	case ti.embed != nil:
		qv := ti.embed.EmbedOne(q)
		top := 0.0
		if len(hits) > 0 {
			top = hits[0].Score
		}
		for _, h := range hits {
			scores[h.ID] += (1 - m.VectorWeight) * h.Score / top
		}
		for _, h := range ti.vectorRank(qv, depth) {
			scores[h.ID] += m.VectorWeight * h.Score
		}
	default:
		for _, h := range hits {
			scores[h.ID] = h.Score
		}
	}
	ranked := make([]index.Hit, 0, len(scores))
	for id, s := range scores {
		ranked = append(ranked, index.Hit{ID: id, Score: s})
	}
	sort.Slice(ranked, func(i, j int) bool {
		if ranked[i].Score != ranked[j].Score {
			return ranked[i].Score > ranked[j].Score
		}
		return ranked[i].ID < ranked[j].ID
	})
	if len(ranked) > n {
		ranked = ranked[:n]
	}
	out := make([]string, len(ranked))
	for i, h := range ranked {
		out[i] = ti.ids[h.ID]
	}
	return out
}

func (ti *TurnIndex) vectorRank(qv []float32, n int) []index.Hit {
	hits := make([]index.Hit, 0, len(ti.vecs))
	for i, v := range ti.vecs {
		if c := index.Cosine(qv, v); c > 0 {
			hits = append(hits, index.Hit{ID: int64(i), Score: c})
		}
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

// expand is RM3-style feedback: the terms that weigh most (tf·idf, each
// document weighted by its normalised score) in the top documents join the
// query at PRFWeight.
func (ti *TurnIndex) expand(q map[string]float64, hits []index.Hit) map[string]float64 {
	m := ti.m
	fb := map[string]float64{}
	top := hits[0].Score
	for i, h := range hits {
		if i == m.PRFDocs {
			break
		}
		for t, tf := range ti.docTF[h.ID] {
			fb[t] += tf * ti.ix.IDFOf(ti.ix.DocFreq(t)) * h.Score / top
		}
	}
	type tw struct {
		t string
		w float64
	}
	var cands []tw
	for t, w := range fb {
		if _, ok := q[t]; !ok {
			cands = append(cands, tw{t, w})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].w != cands[j].w {
			return cands[i].w > cands[j].w
		}
		return cands[i].t < cands[j].t
	})
	out := make(map[string]float64, len(q)+m.PRFTerms)
	for t, w := range q {
		out[t] = w
	}
	for i := 0; i < len(cands) && i < m.PRFTerms; i++ {
		out[cands[i].t] = m.PRFWeight * cands[i].w / cands[0].w
	}
	return out
}

// Recall measures the model's turn-level recall@k on every question with
// evidence.
func (m TurnModel) Recall(ctx context.Context, l *LoCoMo, ks ...int) (*RecallAtK, error) {
	r := NewRecallAtK(ks...)
	depth := 0
	for _, k := range ks {
		depth = max(depth, k)
	}
	for i := range l.Conversations {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := &l.Conversations[i]
		ti := m.Index(c)
		for _, q := range c.QA {
			if len(q.Evidence) > 0 {
				r.Add(q.Category, q.Evidence, ti.Rank(q.Question, depth))
			}
		}
	}
	return r, nil
}
