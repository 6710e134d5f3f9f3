package recall

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"memtrace/engine"
	"memtrace/engine/index"
	"memtrace/engine/textnorm"
	"memtrace/engine/tuning"
)

// Stage 3: rerank — one relevance score per item, and the relevance gate.

// Relevance weights (stage rerank): relevance_score = w_lexical ×
// bm25_norm_score + (1 − w_lexical) × cosine_score, both parts in [0, 1],
// w_lexical by what the embedder measures (RelevanceWeights). These are
// the defaults (documented in engine/tuning); a recall reads its own from
// Config.Tuning, which a policy sets.
const (
	WLexicalSemantic = tuning.WLexicalSemantic
	WLexicalLexical  = tuning.WLexicalLexical
)

// The relevance gate's thresholds (see RelevanceGateHelp), defaults as above.
const (
	MinIDFShare      = tuning.MinIDFShare
	VectorOnlyCosine = tuning.VectorOnlyCosine
)

// LexicalEmbedder is an Embedder whose vectors measure shared words and
// character n-grams rather than meaning (the default hashed embedder); the
// rerank weighs its cosine less (RelevanceWeights).
type LexicalEmbedder interface {
	engine.Embedder
	MeasuresWords() bool
}

// RelevanceWeights are the rerank's weights of bm25_norm_score and
// cosine_score for embedder emb under cfg: its Tuning's WLexicalLexical
// for an embedder that measures words (LexicalEmbedder), WLexicalSemantic
// for any other.
func RelevanceWeights(emb engine.Embedder, cfg engine.Config) (lexical, vector float64) {
	w := cfg.Tuning.WLexicalSemantic
	if le, ok := emb.(LexicalEmbedder); ok && le.MeasuresWords() {
		w = cfg.Tuning.WLexicalLexical
	}
	return w, 1 - w
}

// relevanceFormula is the rerank's formula with its weights.
func relevanceFormula(wLex, wVec float64) string {
	return fmt.Sprintf("relevance_score = %.1f × min(1, bm25_score / Σ weight·idf) + %.1f × cosine_score", wLex, wVec)
}

// RelevanceGateHelp documents the relevance gate for `memtrace help
// relevance` and the docs, with its numbers and the generic word lists.
func RelevanceGateHelp() string {
	var b strings.Builder
	fmt.Fprintf(&b, `The relevance gate (recall stage 3, rerank).

Every retrieved memory gets
  relevance_score = w × min(1, bm25_score / Σ weight·idf) + (1 − w) × cosine_score
  w = %.1f under the default hashed embedder (its vectors measure shared
      words and n-grams, which BM25 already weighs exactly), %.1f under an
      embedder of meaning (ollama:MODEL)
and must then show evidence that it is about the query, one of:
  1. lexical  its own text holds specific query terms carrying at least
              %.0f%% of the query's idf mass (idf_share_score ≥ %.2f)
  2. vector   its cosine to the query without the generic words
              (specific_cosine_score; cosine_score when the query has none)
              ≥ %.2f: similarity strong enough on its own (under the default
              hashed embedder, texts that share no word meet by hash
              collisions alone, up to 0.45 on the demo golden set's queries)
  3. context  a conversational neighbour (±2 in its session) holds a specific
              query term, and its own text shares a query word
idf_share_score = Σ weight·idf of the specific query terms in its own text
                  ÷ Σ weight·idf of every query term the index knows,
                  plus each specific query term no memory holds at the
                  index's maximum idf (trace: rerank note unknown_terms), so
                  one common word cannot carry a match; a memory holding a
                  rare query term (idf ≥ %.0f%% of the maximum) is judged
                  without them.
Generic words stay in the query and rank, but are never evidence: a memory
that shares only "take" or "every" with "what medication do I take every
morning" is not about medication. A memory without evidence leaves with the
drop_kind that says what it had:
  low_idf_share   specific terms, but under %.0f%% of the query's idf mass
  generic_only    only generic words in common with the query
  neighbour_only  specific query terms only in its neighbours' text, no query
                  word of its own, and specific_cosine_score < %.2f
  vector_only     no query term in its own text or its neighbours', and
                  specific_cosine_score < %.2f
An item with evidence still leaves when relevance_score < %.2f, or under
%.0f%% of the best candidate's when that is lower (below_floor; rerank note
relative_floor): a long question spreads its idf mass over many words, so
its best match scores low, and a memory half as good is not unrelated.
HOT memories that share no word with the query are judged by the guaranteed
gate instead (stage 5). The rerank stage's items list matched_terms (the
query terms in the memory's own text), generic_terms and context_terms.

Generic words (textnorm.GenericWordsEN, GenericWordsKO; compared after
stemming and particle stripping, so "taking" counts as "take"):
`, WLexicalLexical, WLexicalSemantic, MinIDFShare*100, MinIDFShare, VectorOnlyCosine, rareIDFShare*100,
		MinIDFShare*100, VectorOnlyCosine, VectorOnlyCosine, tuning.RelevanceFloor, relativeFloorShare*100)
	for _, list := range []struct {
		name  string
		words []string
	}{{"English", textnorm.GenericWordsEN}, {"Korean", textnorm.GenericWordsKO}} {
		b.WriteString("  " + list.name + ":")
		col := 2 + len(list.name) + 1
		for _, w := range list.words {
			width := 0 // terminal columns: a Hangul syllable takes two
			for _, r := range w {
				width++
				if r >= 0x1100 {
					width++
				}
			}
			if col+1+width > 76 {
				b.WriteString("\n   ")
				col = 3
			}
			b.WriteString(" " + w)
			col += 1 + width
		}
		b.WriteString("\n")
	}
	return b.String()
}

// embedQuery embeds the query (qvec, what retrieval and ranking use) and,
// when it has generic words, the query without them (qvecSpecific, what the
// relevance gate's vector evidence uses): under a lexical embedder a memory
// that shares only "take" and "every" with the query is similar to it by
// those words alone, and under any embedder the gate asks whether a memory
// is near what the query is about. A query whose words are all generic has
// nothing else to be about: its generic words count as specific.
func (r *recallRun) embedQuery(st *engine.StageTrace) error {
	r.generic = map[string]bool{}
	for _, t := range r.terms {
		if textnorm.IsGeneric(t) {
			r.generic[t] = true
		}
	}
	texts := []string{r.q.Text}
	specific := ""
	if len(r.generic) > 0 {
		specific = textnorm.SpecificSurface(r.q.Text)
		if specific == "" {
			clear(r.generic)
		} else {
			texts = append(texts, specific)
		}
	}
	vs, err := r.e.Embed(r.ctx, texts...)
	if err != nil && engine.ErrorCode(err) == engine.EUNAVAIL && r.ctx.Err() == nil {
		// An embedder that went away (an Ollama server stopped) does not
		// stop the recall: it falls back to the lexical channels and says so.
		r.lexicalOnly = true
		r.qvec = make([]float32, r.e.Embedder().Dim())
		r.qvecSpecific = r.qvec
		st.Notes["embedder"] = r.e.Embedder().Name()
		st.Notes["embedder_unavailable"] = engine.ErrorMessage(err)
		st.Notes["fallback"] = "lexical: BM25, periods and HOT memories, no vector channel"
		return nil
	}
	if err != nil {
		return err
	}
	unit := func(v []float32) []float32 {
		u := make([]float32, len(v))
		copy(u, v)
		index.Normalize(u)
		return u
	}
	r.qvec = unit(vs[0])
	r.qvecSpecific = r.qvec
	if len(vs) > 1 {
		r.qvecSpecific = unit(vs[1])
		st.Notes["specific_surface"] = specific
	}
	st.Notes["embedder"] = r.e.Embedder().Name()
	return nil
}

// rerank gives every item one relevance score in [0, 1]:
//
//	bm25_norm_score = min(1, bm25_score / Σ weight(term) × idf(term))
//	relevance_score = w × bm25_norm_score + (1 − w) × cosine_score
//
// with w from RelevanceWeights (0.7 under the hashed embedder, else 0.5).
// Σ weight × idf is what a document of average length containing every query term
// once would score, so the normalisation is absolute (it does not make the
// best match of an unrelated query look perfect) and the guaranteed gate
// means the same for every query. Then the relevance gate (relevanceVerdict)
// drops items without evidence of being about the query, and retrieved
// items below the relevance floor (Tuning.RelevanceFloor) leave; HOT items go on to the guaranteed gate.
func (r *recallRun) rerank(st *engine.StageTrace) {
	idfSum := idfSum(r.e, r.weights, r.docFreq, r.expandedFrom)
	ids := make([]int64, len(r.live))
	for i, c := range r.live {
		ids[i] = c.m.ID
	}
	unknown, unknownMass := r.unknownTerms(r.periodCut)
	evs := termEvidenceOf(r.e, ids, r.weights, r.docFreq, r.generic, r.expandedFrom, unknownMass)
	wLex, wVec := RelevanceWeights(r.e.Embedder(), r.cfg)
	tu := &r.cfg.Tuning
	if r.lexicalOnly {
		wLex, wVec = 1, 0
	}
	qs := index.NewSparse(r.qvecSpecific)
	for i, c := range r.live {
		norm := 0.0
		if idfSum > 0 {
			norm = min(1, c.bm25/idfSum)
		}
		c.relevance = wLex*norm + wVec*c.cosine
		c.cosineSpecific = c.cosine
		c.set("bm25_norm_score", norm)
		if len(r.generic) > 0 {
			c.cosineSpecific = cosineScore(&qs, c.vec)
			c.set("specific_cosine_score", c.cosineSpecific)
		}
		c.set("idf_share_score", evs[i].share)
		c.set("relevance_score", c.relevance)
		c.ev = &evs[i]
	}
	r.hopRelevance()
	sortByScore(r.live, func(c *candidate) float64 { return c.relevance })
	var kept []*candidate
	dropped := r.dropBuf()
	matches := make([]engine.TermMatch, len(r.live)) // one allocation for the stage
	// matched is an item with the query words c shares (its TermMatch).
	matched := func(it engine.TraceItem, c *candidate) engine.TraceItem {
		if m := c.ev.matchedTerms(); len(m)+len(c.ev.context) > 0 {
			tm := &matches[0]
			matches = matches[1:]
			*tm = engine.TermMatch{MatchedTerms: m, GenericTerms: c.ev.generic, ContextTerms: c.ev.context}
			it.TermMatch = tm
		}
		return it
	}
	periodKept, hopKept := 0, 0
	floor := relevanceFloor(r.live, tu.RelevanceFloor)
	for _, c := range r.live {
		if r.periodEvidence(c) {
			periodKept++
			kept = append(kept, c)
			continue
		}
		kind, reason := relevanceVerdict(c, *c.ev, len(r.generic) > 0, tu)
		if kind != "" && c.hop != nil && c.hop.ok {
			hopKept++
			kept = append(kept, c)
			continue
		}
		if kind != "" {
			dropped = append(dropped, matched(c.drop(kind, reason), c))
			continue
		}
		if c.relevance < floor && !c.fromHot {
			dropped = append(dropped, matched(c.drop(engine.DropBelowFloor, "unrelated: relevance_score "+f3(c.relevance)+" < floor "+f3(floor)), c))
			continue
		}
		kept = append(kept, c)
	}
	spk, asks, when := r.speakerRanks(r.live, kept), r.askRanks(kept), r.whenRanks(kept)
	if spk != "" {
		st.Notes["speaker"] = spk
	}
	if asks != "" {
		st.Notes["asks_only"] = asks
	}
	if when != "" {
		st.Notes["asks_when"] = when
	}
	if spk != "" || asks != "" || when != "" {
		sortByScore(kept, func(c *candidate) float64 { return c.relevance })
	}
	st.Notes["formula"] = relevanceFormula(wLex, wVec)
	st.Notes["idf_sum"] = f3(idfSum)
	st.Notes["relevance_floor"] = f3(floor)
	if floor < tu.RelevanceFloor {
		st.Notes["relative_floor"] = fmt.Sprintf("the best candidate's relevance_score is %s: floor %s × that, under the absolute %s",
			f3(r.live[0].relevance), f3(relativeFloorShare), f3(tu.RelevanceFloor))
	}
	st.Notes["gate"] = "evidence: idf_share_score ≥ " + f3(tu.MinIDFShare) + " | specific_cosine_score ≥ " + f3(tu.VectorOnlyCosine) +
		" | a neighbour holds a specific query term and its own text a query word; generic words are no evidence (memtrace help relevance)"
	if len(r.periods) > 0 {
		what := "with any query word in its text or its neighbours', or specific_cosine_score ≥ " + f3(tu.VectorOnlyCosine/2)
		if r.onlyWhen {
			what = "alone: the query asks nothing besides when"
		}
		if r.periodNarrow {
			what = "alone: the period holds at most k memories"
		}
		if r.periodBroad {
			what = "none: the period holds most of the store, so it tells no memory from another"
		}
		st.Notes["period_evidence"] = fmt.Sprintf("being of the named period (period_match 1) is evidence %s; %d kept by it", what, periodKept)
	}
	st.Notes["min_idf_share"] = f3(tu.MinIDFShare)
	if hopKept > 0 {
		st.Notes["two_hop_evidence"] = twoHopEvidenceNote(hopKept, tu.TwoHopWeight)
	}
	if len(unknown) > 0 {
		st.Notes["unknown_terms"] = unknownNote(unknown, unknownMass)
	}
	st.Notes["vector_only_cosine"] = f3(tu.VectorOnlyCosine)
	if g := r.genericQueryTerms(); len(g) > 0 {
		st.Notes["generic_query_terms"] = strings.Join(g, " ")
	}
	r.keep(st, kept, dropped)
	for i, c := range kept { // the kept items come first, in kept's order
		st.Items[i] = matched(st.Items[i], c)
		c.ev = nil
	}
}

// relevanceVerdict is the relevance gate for one item: "" when it has
// evidence of being about the query, else the drop kind and a reason that
// says what evidence it had (see RelevanceGateHelp). HOT items that share no
// word with the query are left to the guaranteed gate. tu holds the gate's
// thresholds.
func relevanceVerdict(c *candidate, ev termEvidence, hasGeneric bool, tu *tuning.Tuning) (engine.DropKind, string) {
	cos, name := c.cosineSpecific, "cosine_score"
	if hasGeneric {
		name = "specific_cosine_score"
	}
	switch {
	case ev.lexical(tu.MinIDFShare):
		return "", "" // lexical evidence
	case cos >= tu.VectorOnlyCosine:
		return "", "" // vector evidence
	case len(ev.context) > 0 && len(ev.specific)+len(ev.generic) > 0:
		return "", "" // context evidence
	}
	if c.fromHot && len(ev.specific) == 0 && len(ev.generic) == 0 {
		return "", "" // the guaranteed gate judges it
	}
	vs := fmt.Sprintf("%s %s < %s", name, f3(cos), f3(tu.VectorOnlyCosine))
	switch {
	case len(ev.context) > 0: // and no query word in its own text
		return engine.DropNeighbourOnly, fmt.Sprintf("matched only through neighbouring memories: they hold %s; no query term in its own text, and %s",
			quoteTerms(ev.context), vs)
	case len(ev.specific) > 0:
		return engine.DropLowIDFShare, fmt.Sprintf("a passing word: its own text holds only %s, %s of the query's idf mass < %s, and %s",
			quoteTerms(ev.specific), pct(ev.share), pct(tu.MinIDFShare), vs)
	case len(ev.generic) > 0:
		return engine.DropGenericOnly, fmt.Sprintf("shares only generic words with the query (%s), no specific query term, and %s",
			quoteTerms(ev.generic), vs)
	case len(ev.contextGeneric) > 0:
		return engine.DropGenericOnly, fmt.Sprintf("only its neighbouring memories share words with the query, and only generic ones (%s); %s",
			quoteTerms(ev.contextGeneric), vs)
	}
	return engine.DropVectorOnly, fmt.Sprintf("found by vector similarity alone: no query term in its own text or its neighbours', and %s", vs)
}

// genericQueryTerms are the query's terms that count as generic words, in
// query order.
func (r *recallRun) genericQueryTerms() []string {
	var out []string
	for _, t := range r.terms {
		if r.generic[t] && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// quoteTerms renders terms for a drop reason: "take", "everi".
func quoteTerms(ts []string) string {
	q := make([]string, len(ts))
	for i, t := range ts {
		q[i] = strconv.Quote(t)
	}
	return strings.Join(q, ", ")
}

// pct renders a share 0..1 as a percentage.
func pct(x float64) string { return fmt.Sprintf("%.0f%%", x*100) }

// relativeFloorShare: the relevance floor is at most this share of the
// best candidate's relevance_score (relevanceFloor). 0.5 → 0.4 (LoCoMo
// pipeline R@50 0.879 → 0.881 with the when and answer ranks; 0.3 gave
// 0.885 but two more stray survivors in the held-out life sets, 0.4 one).
const relativeFloorShare = 0.4

// relevanceFloor is the rerank's floor for candidates cs sorted by
// relevance: the absolute floor, or relativeFloorShare of the best
// candidate's relevance when that is lower. The evidence gate is the
// precision mechanism (a memory without evidence leaves at any score); the
// floor removes the unrelated tail, and what an absolute number calls the
// tail depends on the query: a twelve-word question spreads its idf mass
// so that its best match has bm25_norm_score 0.2, and the memories half as
// good are the next best answers, not noise.
func relevanceFloor(cs []*candidate, absolute float64) float64 {
	if len(cs) == 0 {
		return absolute
	}
	return min(absolute, relativeFloorShare*cs[0].relevance)
}
