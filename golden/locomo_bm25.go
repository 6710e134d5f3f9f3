package golden

import (
	"context"
	"math"
	"sort"
	"strings"
	"unicode"
)

// The plain BM25 reference of the LoCoMo benchmark, exactly as
// ../shared/data/README.md describes it: Okapi BM25 with k1 1.2 and b 0.75
// (idf = ln(1 + (N − df + 0.5)/(df + 0.5))), lower-cased alphanumeric tokens,
// English stop words dropped, each turn indexed as "speaker: text" plus its
// image caption, one index per conversation, each distinct query term
// counted once. On locomo10.json it gives R@10 ≈ 0.586. It is the baseline
// the pipeline is measured against, so it deliberately has no stemming and
// no context windows.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// ReferenceTokens lower-cases s, splits it into runs of letters and digits
// and drops English stop words.
func ReferenceTokens(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !englishStopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// TurnDocument is the text a turn is indexed under.
func TurnDocument(t Turn) string {
	doc := t.Speaker + ": " + t.Text
	if t.ImageCaption != "" {
		doc += " " + t.ImageCaption
	}
	return doc
}

// ReferenceBM25 is the reference index over one conversation's turns.
type ReferenceBM25 struct {
	ids      []string
	lengths  []float64
	avgLen   float64
	postings map[string][]posting
}

type posting struct {
	doc int
	tf  float64
}

// NewReferenceBM25 indexes every turn of the conversation.
func NewReferenceBM25(c *Conversation) *ReferenceBM25 {
	b := &ReferenceBM25{postings: map[string][]posting{}}
	var total float64
	for _, t := range c.Turns() {
		doc := len(b.ids)
		b.ids = append(b.ids, t.DiaID)
		toks := ReferenceTokens(TurnDocument(t))
		b.lengths = append(b.lengths, float64(len(toks)))
		total += float64(len(toks))
		tf := map[string]float64{}
		var order []string
		for _, w := range toks {
			if tf[w] == 0 {
				order = append(order, w)
			}
			tf[w]++
		}
		for _, w := range order {
			b.postings[w] = append(b.postings[w], posting{doc: doc, tf: tf[w]})
		}
	}
	if len(b.ids) > 0 {
		b.avgLen = total / float64(len(b.ids))
	}
	return b
}

// Rank returns the dia_ids of the n best-scoring turns for the query, best
// first; ties go to the earlier turn. Turns sharing no term with the query
// are not ranked.
func (b *ReferenceBM25) Rank(query string, n int) []string {
	scores := map[int]float64{}
	seen := map[string]bool{}
	N := float64(len(b.ids))
	for _, w := range ReferenceTokens(query) {
		if seen[w] {
			continue
		}
		seen[w] = true
		ps := b.postings[w]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (N-df+0.5)/(df+0.5))
		for _, p := range ps {
			norm := bm25K1 * (1 - bm25B + bm25B*b.lengths[p.doc]/b.avgLen)
			scores[p.doc] += idf * p.tf * (bm25K1 + 1) / (p.tf + norm)
		}
	}
	docs := make([]int, 0, len(scores))
	for d := range scores {
		docs = append(docs, d)
	}
	sort.Slice(docs, func(i, j int) bool {
		if scores[docs[i]] != scores[docs[j]] {
			return scores[docs[i]] > scores[docs[j]]
		}
		return docs[i] < docs[j]
	})
	if n > 0 && len(docs) > n {
		docs = docs[:n]
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = b.ids[d]
	}
	return out
}

// ReferenceRecall runs the BM25 reference over every question with
// evidence and returns recall@k for the given cut-offs.
func ReferenceRecall(ctx context.Context, l *LoCoMo, ks ...int) (*RecallAtK, error) {
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
		idx := NewReferenceBM25(c)
		for _, q := range c.QA {
			if len(q.Evidence) == 0 {
				continue
			}
			r.Add(q.Category, q.Evidence, idx.Rank(q.Question, depth))
		}
	}
	return r, nil
}

// englishStopWords is the common 179-word English list (NLTK's), reduced
// to the alphanumeric tokens the tokenizer can produce.
var englishStopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`i me my myself we our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their theirs themselves what which who
whom this that these those am is are was were be been being have has had having do does did doing a an
the and but if or because as until while of at by for with about against between into through during
before after above below to from up down in out on off over under again further then once here there
when where why how all any both each few more most other some such no nor not only own same so than too
very s t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma
mightn mustn needn shan shouldn wasn weren won wouldn`) {
		m[w] = true
	}
	return m
}()
