package recall

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/engine/index"
	"memtrace/engine/textnorm"
)

// Stages 0–2: preprocess, candidates, exclude (rerank: recall_relevance.go).

// echoWindow: a memory of the live session created this recently before
// the query is the conversation echoing itself, not something recalled.
const echoWindow = 10 * time.Minute

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
func (r *recallRun) preprocess(st *engine.StageTrace) error {
	kept, dropped := textnorm.QueryTerms(r.q.Text)
	r.terms = kept
	r.weights = termWeights(kept)
	markers := MarkerTerms(r.q.Text)
	skip := func(t string) bool { return textnorm.IsGeneric(t) || markers[t] }
	r.expandedFrom = expandConcepts(kept, r.weights, skip, r.cfg.Tuning.ConceptWeight)
	if len(r.expandedFrom) > 0 {
		st.Notes["concept_expansions"] = expansionNote(r.expandedFrom, r.weights)
	}
	rel, names := expandWordNet(r.e, r.q.Text, r.weights, r.expandedFrom, skip)
	if len(rel) > 0 {
		st.Notes["wordnet_expansions"] = wordnetNote(rel, r.expandedFrom, r.weights)
	}
	if len(names) > 0 {
		st.Notes["wordnet_names"] = strings.Join(names, " ")
	}
	if why := expandNames(r.e, r.q.Text, kept, r.weights, r.expandedFrom, skip, r.cfg.Tuning.ConceptWeight); len(why) > 0 {
		st.Notes["name_expansions"] = nameNote(why, r.expandedFrom, r.weights)
	}
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
	return r.embedQuery(st)
}

// candidates pools the lexical (BM25) top-N and the vector (cosine) top-N,
// plus every active HOT memory, which the guaranteed stage judges. N is
// candidatePool: CandidatePool, and at least 2·k.
func (r *recallRun) candidates(st *engine.StageTrace) error {
	pool := candidatePool(r.cfg.CandidatePool, r.q.K)
	r.docFreq = make(map[string]int, len(r.weights))
	lex := r.e.LexicalSearchDF(r.weights, pool, r.docFreq)
	var vec []engine.Hit
	if !r.lexicalOnly {
		vec = r.e.VectorSearch(r.qvec, pool)
	}
	qv := index.NewSparse(r.qvec)
	var per []engine.Hit
	perTotal := 0
	if ps, rest := readPeriods(r.q.Text, r.q.At); len(ps) > 0 {
		r.periods, r.onlyWhen = ps, asksOnlyWhen(rest)
		r.periodCut = periodWords(r.q.Text, rest)
		var all int
		per, perTotal, all = periodSearch(r.e, ps, &qv, pool)
		r.periodBroad = broadPeriod(perTotal, all)
		r.periodNarrow = narrowPeriod(perTotal, r.q.K)
	}
	hop, via, hopNote := r.twoHop(lex)
	order, vecHits, hot := recallPool(r.e, lex, vec, per, hop, r.e.HotIDs())
	for _, c := range order {
		if h, ok := via[c.m.ID]; ok {
			c.hop = &h
		}
		c.cosine = cosineScore(&qv, c.vec)
		c.set("bm25_score", c.bm25)
		c.set("cosine_score", c.cosine)
		if len(r.periods) > 0 {
			c.ofPeriod = c.ofPeriod || ofPeriods(&c.m, r.periods)
			c.set("period_match", b2f(c.ofPeriod))
		}
		if c.m.Kind == engine.KindFact {
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
	if len(hop) > 0 {
		st.Notes["sources"] += " ∪ two-hop top-N"
	}
	if hopNote != "" {
		st.Notes["two_hop"] = hopNote
	}
	if len(r.periods) > 0 {
		st.Notes["sources"] += " ∪ period top-N"
		st.Notes["period_channel"] = periodNote(r.periods, perTotal, len(per))
		st.Notes["period_hits"] = strconv.Itoa(len(per))
	}
	r.keep(st, order, nil)
	return nil
}

// candidatePool is N, the depth of each retriever: the configured pool,
// and at least 2·k. The mmr stage keeps 2·k items for merge to choose k
// from; a retriever that supplies fewer than 2·k leaves the deep end of
// the ranking to whatever the other one found, so a large k (an agent
// asking for 50 memories) would rank a pool no deeper than a small one's.
// At the default k = 8 the pool stays CandidatePool (50).
func candidatePool(configured, k int) int {
	return max(configured, 2*k)
}

// cosineScore is the cosine similarity of two unit vectors, clamped at 0
// (a negative cosine means unrelated, not "negatively relevant"); a is
// prepared (index.NewSparse), Dot(a, b) bit for bit up to a zero's sign.
func cosineScore(a *index.Sparse, b []float32) float64 {
	if a.Len() == 0 || a.Len() != len(b) {
		return 0
	}
	s := float64(a.Dot(b))
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
func (r *recallRun) exclude(st *engine.StageTrace) {
	past := r.q.IncludeCold || AsksAboutPast(r.q.Text)
	former := r.q.IncludeSuperseded || AsksAboutFormer(r.q.Text)
	var kept []*candidate
	dropped := r.dropBuf()
	for _, c := range r.live {
		if kind, reason := r.excludeReason(c, past); kind != "" {
			dropped = append(dropped, c.drop(kind, reason))
			continue
		}
		if by, ok := r.supersededBy(c); ok {
			if !former {
				dropped = append(dropped, c.drop(engine.DropSuperseded, fmt.Sprintf("superseded by #%d on %s (%q); the query does not ask about the past",
					by.ID, c.m.ValidTo.UTC().Format("2006-01-02"), capture.Clip(engine.SanitizeText(by.Content), 48))))
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
func (r *recallRun) excludeReason(c *candidate, includeCold bool) (engine.DropKind, string) {
	m := &c.m
	switch {
	case m.Status == engine.StatusQuarantined:
		return engine.DropQuarantined, "quarantined (noise kept for review, never recalled)"
	case m.Status == engine.StatusArchived && !includeCold:
		return engine.DropArchived, "archived (COLD tier): recalled only when the query asks about the past or with include_cold"
	case m.Status != engine.StatusActive && m.Status != engine.StatusArchived:
		return engine.DropNotRecallable, "status " + string(m.Status) + " is not recallable"
	}
	for _, role := range excludedRoles {
		if m.Role == role {
			return engine.DropExcludedRole, "excluded source: role " + role
		}
	}
	// A project's memories are loaded for that project, and for queries
	// that name no project at all (the CLI without --project); never for
	// another project.
	if r.q.Project != "" && strings.HasPrefix(m.Scope, "project:") && m.Scope != engine.ProjectScope(r.q.Project) {
		return engine.DropOtherProject, "scoped to " + m.Scope + ", not project:" + r.q.Project
	}
	if r.q.Session != "" && m.Session == r.q.Session {
		age := r.q.At.Sub(m.CreatedAt)
		if age >= 0 && age <= echoWindow {
			return engine.DropSessionEcho, fmt.Sprintf("echo of the current session (created %s before the query)", age.Round(time.Second))
		}
	}
	return "", ""
}

// supersededBy returns the memory that supersedes c at the recall's time,
// if any: the link counts once the old fact stopped holding and the link
// was recorded (both at or before q.At), and while the newer memory is not
// quarantined (a newer memory judged noise replaces nothing).
func (r *recallRun) supersededBy(c *candidate) (engine.Memory, bool) {
	if !c.m.IsSupersededAt(r.q.At) {
		return engine.Memory{}, false
	}
	by, ok := r.e.Memory(c.m.SupersededBy)
	if !ok || by.Status == engine.StatusQuarantined {
		return engine.Memory{}, false
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

// AsksAboutPast reports whether a query asks about the past ("작년에 …",
// "back then …"): the hook through which archived memories come back.
func AsksAboutPast(text string) bool {
	t := textnorm.Normalize(text)
	for _, w := range PastMarkers {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}
