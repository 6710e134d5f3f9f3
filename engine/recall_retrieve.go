package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"memtrace/engine/textnorm"
	"memtrace/engine/vector"
)

// Stages 0–3: preprocess, candidates, exclude, rerank.

// Relevance weights (stage rerank): relevance_score = wLexical ×
// bm25_norm_score + wVector × cosine_score, both parts in [0, 1]. The
// lexical side (BM25 with the conversational context) is the stronger and
// the broader retriever; the default hashed embedder sees the same words
// again as n-grams, so it refines rather than equals it. LoCoMo rerank
// order R@5/R@10/R@25/R@50 by wLexical: 0.5 → .653/.740/.812/.846,
// 0.6 → .662/.750/.818/.848, 0.7 → .670/.755/.823/.851, 0.8 →
// .674/.758/.824/.853; 0.7 keeps the vector side's say over what the
// words miss (a learned embedder in its place may deserve more).
const (
	wLexical = 0.7
	wVector  = 0.3
	// relevanceFloor: retrieved items scoring below it are unrelated to the
	// query and leave at rerank. HOT items are judged by the stricter
	// guaranteed gate instead.
	relevanceFloor = 0.20
	// echoWindow: a memory of the live session created this recently before
	// the query is the conversation echoing itself, not something recalled.
	echoWindow = 10 * time.Minute
	// contextOnlyCosine: a candidate none of whose own words is a query
	// term, and whose own text is this dissimilar to the query, matched only
	// through its neighbours (see context_index.go) and leaves at rerank.
	contextOnlyCosine = 0.10
)

// shortTermWeight is the BM25 weight of a one-character query term. A
// single Hangul syllable is usually a homograph — "시" is a city, an hour
// ("6시") or a poem — so it counts for less than a real word.
const shortTermWeight = 0.5

// termWeights gives every distinct query term its BM25 weight.
func termWeights(terms []string) map[string]float64 {
	w := make(map[string]float64, len(terms))
	for _, t := range terms {
		if utf8.RuneCountInString(t) == 1 {
			w[t] = shortTermWeight
		} else {
			w[t] = 1
		}
	}
	return w
}

// excludedRoles are sources whose text is never recalled as memory: tool
// output and system prompts are context, not things the user said.
var excludedRoles = [...]string{"tool", "system"}

// preprocess normalises the query and strips English and Korean stop words
// and particles ("그 프로젝트의 진행 상황을 알려줘" → "프로젝트 진행 상황").
func (r *recallRun) preprocess(st *StageTrace) error {
	kept, dropped := textnorm.QueryTerms(r.q.Text)
	r.terms = kept
	r.weights = termWeights(kept)
	st.In = len(kept) + len(dropped)
	st.Out = len(kept)
	st.Notes["normalized"] = textnorm.Normalize(r.q.Text)
	st.Notes["surface"] = textnorm.Surface(r.q.Text)
	st.Notes["kept_terms"] = strings.Join(kept, " ")
	st.Notes["dropped_words"] = strings.Join(dropped, " ")
	var short []string
	for _, t := range kept {
		if r.weights[t] < 1 && !slices.Contains(short, t) {
			short = append(short, t)
		}
	}
	st.Notes["down_weighted_terms"] = strings.Join(short, " ")
	st.Notes["term_weights"] = "1 per term; " + f3(shortTermWeight) + " for one-character terms"
	vs, err := r.e.Embed(r.ctx, r.q.Text)
	if err != nil {
		return err
	}
	r.qvec = make([]float32, len(vs[0]))
	copy(r.qvec, vs[0])
	vector.Normalize(r.qvec)
	st.Notes["embedder"] = r.e.Embedder().Name()
	return nil
}

// candidates pools the lexical (BM25) top-N and the vector (cosine) top-N,
// plus every active HOT memory, which the guaranteed stage judges.
func (r *recallRun) candidates(st *StageTrace) error {
	pool := r.cfg.CandidatePool
	byID := make(map[int64]*candidate)
	var order []*candidate
	add := func(id int64) *candidate {
		if c, ok := byID[id]; ok {
			return c
		}
		m, ok := r.e.Memory(id)
		if !ok {
			return nil
		}
		v, _ := r.e.VectorOf(id)
		c := &candidate{m: m, vec: v}
		byID[id] = c
		order = append(order, c)
		return c
	}
	lex := r.e.LexicalSearchWeighted(r.weights, pool)
	for _, h := range lex {
		if c := add(h.ID); c != nil {
			c.fromLex, c.bm25 = true, h.Score
		}
	}
	vec := r.e.VectorSearch(r.qvec, pool)
	vecHits := 0
	for _, h := range vec {
		if h.Score <= 0 {
			continue // orthogonal or opposite: not similar at all
		}
		if c := add(h.ID); c != nil {
			c.fromVec = true
			vecHits++
		}
	}
	hot := 0
	for _, id := range r.e.HotIDs() {
		if c := add(id); c != nil {
			c.fromHot = true
			hot++
		}
	}
	for _, c := range order {
		c.cosine = cosineScore(r.qvec, c.vec)
		c.set("bm25_score", c.bm25)
		c.set("cosine_score", c.cosine)
		if c.m.Kind == KindFact {
			c.channel = ChannelFact
		} else {
			c.channel = ChannelSemantic
		}
	}
	sortByScore(order, func(c *candidate) float64 { return c.bm25 + c.cosine })
	st.Notes["pool_per_retriever"] = strconv.Itoa(pool)
	st.Notes["lexical_hits"] = strconv.Itoa(len(lex))
	st.Notes["vector_hits"] = strconv.Itoa(vecHits)
	st.Notes["hot_tier_items"] = strconv.Itoa(hot)
	st.Notes["sources"] = "bm25 top-N ∪ cosine top-N (cosine_score > 0) ∪ active HOT tier"
	r.keep(st, order, nil)
	return nil
}

// cosineScore is the cosine similarity of two unit vectors, clamped at 0
// (a negative cosine means unrelated, not "negatively relevant").
func cosineScore(a, b []float32) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	s := float64(vector.Dot(a, b))
	if s < 0 {
		return 0
	}
	if s > 1 {
		return 1
	}
	return s
}

// exclude drops what must never be recalled for this query: quarantined
// memories, archived (COLD) ones unless asked for, other projects'
// memories, excluded sources, and echoes of the live session.
func (r *recallRun) exclude(st *StageTrace) {
	past := r.q.IncludeCold || AsksAboutPast(r.q.Text)
	former := r.q.IncludeSuperseded || AsksAboutFormer(r.q.Text)
	var kept []*candidate
	var dropped []TraceItem
	for _, c := range r.live {
		if kind, reason := r.excludeReason(c, past); kind != "" {
			dropped = append(dropped, c.drop(kind, reason))
			continue
		}
		if by, ok := r.supersededBy(c); ok {
			if !former {
				dropped = append(dropped, c.drop(DropSuperseded, fmt.Sprintf("superseded by #%d on %s (%q); the query does not ask about the past",
					by.ID, c.m.ValidTo.UTC().Format("2006-01-02"), clip(SanitizeText(by.Content), 48))))
				continue
			}
			c.former = true
		}
		kept = append(kept, c)
	}
	st.Notes["include_cold"] = strconv.FormatBool(past)
	st.Notes["include_superseded"] = strconv.FormatBool(former)
	st.Notes["echo_window"] = echoWindow.String()
	st.Notes["excluded_roles"] = strings.Join(excludedRoles[:], ",")
	r.keep(st, kept, dropped)
}

// excludeReason is why c must not be recalled for this query, as a kind
// and a reason; "" when it may.
func (r *recallRun) excludeReason(c *candidate, includeCold bool) (DropKind, string) {
	m := &c.m
	switch {
	case m.Status == StatusQuarantined:
		return DropQuarantined, "quarantined (noise kept for review, never recalled)"
	case m.Status == StatusArchived && !includeCold:
		return DropArchived, "archived (COLD tier): recalled only when the query asks about the past or with include_cold"
	case m.Status != StatusActive && m.Status != StatusArchived:
		return DropNotRecallable, "status " + string(m.Status) + " is not recallable"
	}
	for _, role := range excludedRoles {
		if m.Role == role {
			return DropExcludedRole, "excluded source: role " + role
		}
	}
	// A project's memories are loaded for that project, and for queries
	// that name no project at all (the CLI without --project); never for
	// another project.
	if r.q.Project != "" && strings.HasPrefix(m.Scope, "project:") && m.Scope != ProjectScope(r.q.Project) {
		return DropOtherProject, "scoped to " + m.Scope + ", not project:" + r.q.Project
	}
	if r.q.Session != "" && m.Session == r.q.Session {
		age := r.q.At.Sub(m.CreatedAt)
		if age >= 0 && age <= echoWindow {
			return DropSessionEcho, fmt.Sprintf("echo of the current session (created %s before the query)", age.Round(time.Second))
		}
	}
	return "", ""
}

// supersededBy returns the memory that supersedes c at the recall's time,
// if any: the link counts once the old fact stopped holding and the link
// was recorded (both at or before q.At), and while the newer memory is not
// quarantined (a newer memory judged noise replaces nothing).
func (r *recallRun) supersededBy(c *candidate) (Memory, bool) {
	if !c.m.supersededAt(r.q.At) {
		return Memory{}, false
	}
	by, ok := r.e.Memory(c.m.SupersededBy)
	if !ok || by.Status == StatusQuarantined {
		return Memory{}, false
	}
	return by, true
}

// formerMarkers are the words with which a query asks about how things were
// before a change ("before I moved", "used to", "예전에", "전에 … 살았"):
// superseded facts may answer it, labelled former.
var formerMarkers = [...]string{
	"before", "used to", "did i use to", "did we use to", "did you use to", "previously", "formerly", "former", "in the past", "my old", "our old", "originally", "back when",
	"예전", "전에", "이전", "원래", "옛날", "과거", "전 회사", "전 직장",
}

// AsksAboutFormer reports whether a query asks about the past in a way a
// superseded fact can answer: AsksAboutPast, or a formerMarkers word.
func AsksAboutFormer(text string) bool {
	if AsksAboutPast(text) {
		return true
	}
	t := textnorm.Normalize(text) + " "
	for _, w := range formerMarkers {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// pastMarkers are words with which a query asks about the past, so COLD
// (archived) memories may answer it.
var pastMarkers = [...]string{
	"last year", "years ago", "months ago", "back then", "used to", "long ago", "in the past",
	"remember when", "archive", "archived", "previously",
	"작년", "재작년", "예전", "옛날", "지난번", "지난해", "몇 년 전", "몇 달 전", "그때", "과거", "아카이브",
}

// AsksAboutPast reports whether a query asks about the past ("작년에 …",
// "back then …"): the hook through which archived memories come back.
func AsksAboutPast(text string) bool {
	t := textnorm.Normalize(text)
	for _, w := range pastMarkers {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// rerank gives every item one relevance score in [0, 1]:
//
//	bm25_norm_score = min(1, bm25_score / Σ weight(term) × idf(term))
//	relevance_score = 0.7 × bm25_norm_score + 0.3 × cosine_score
//
// Σ weight × idf is what a document of average length containing every query term
// once would score, so the normalisation is absolute (it does not make the
// best match of an unrelated query look perfect) and the guaranteed gate
// means the same for every query. Retrieved items below relevanceFloor are
// dropped; HOT items go on to the guaranteed gate.
func (r *recallRun) rerank(st *StageTrace) {
	idfSum := r.e.idfSum(r.weights)
	var kept []*candidate
	var dropped []TraceItem
	for _, c := range r.live {
		norm := 0.0
		if idfSum > 0 {
			norm = min(1, c.bm25/idfSum)
		}
		c.relevance = wLexical*norm + wVector*c.cosine
		c.set("bm25_norm_score", norm)
		c.set("relevance_score", c.relevance)
	}
	sortByScore(r.live, func(c *candidate) float64 { return c.relevance })
	for _, c := range r.live {
		if !c.fromHot && c.cosine < contextOnlyCosine && r.e.ownTermMatches(c.m.ID, r.weights) == 0 {
			// Its BM25 score came from its neighbours' words alone: context
			// helps rank a memory that says something about the query, but
			// must not surface one that says nothing about it.
			dropped = append(dropped, c.drop(DropNeighbourOnly, fmt.Sprintf("unrelated: matched only through neighbouring memories (no query term in its own text, cosine_score %s < %s)", f3(c.cosine), f3(contextOnlyCosine))))
			continue
		}
		if c.relevance < relevanceFloor && !c.fromHot {
			dropped = append(dropped, c.drop(DropBelowFloor, fmt.Sprintf("unrelated: relevance_score %s < floor %s", f3(c.relevance), f3(relevanceFloor))))
			continue
		}
		kept = append(kept, c)
	}
	st.Notes["formula"] = fmt.Sprintf("relevance_score = %s × min(1, bm25_score / Σ weight·idf) + %s × cosine_score", f3(wLexical), f3(wVector))
	st.Notes["idf_sum"] = f3(idfSum)
	st.Notes["relevance_floor"] = f3(relevanceFloor)
	st.Notes["context_only_cosine"] = f3(contextOnlyCosine)
	r.keep(st, kept, dropped)
}
