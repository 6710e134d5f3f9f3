package recall

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/engine/index"
	"memtrace/engine/textnorm"
)

// Time as a retrieval channel: a query that names a period, absolute ("in
// March", "2월에", "May 2023") or relative ("last month", "two weeks ago",
// "지난달", "작년 가을"), retrieves the memories of that period as a third
// channel beside BM25 and the vectors (candidates), bounded to the
// retriever's pool and most query-like first. A memory is of a period when
// it was created in it, or created up to tellSlack after it while its own
// text names a time inside it read from its creation ("지난주 토요일에 강릉
// 다녀왔어" told on Wednesday is of last weekend). Being of the named
// period is evidence for the relevance gate: enough on its own when the
// query asks nothing besides when ("what did I do in March?"), and with any
// query word or half the vector bar otherwise (periodEvidence). The
// temporal stage ranks such memories × (1 + TimeCueBoost).

// tellSlack is how long after a period a memory may still tell of it.
const tellSlack = 8 * 24 * time.Hour

// ofPeriods reports whether m is of one of ps (see above).
func ofPeriods(m *engine.Memory, ps []period) bool {
	late := false
	for _, p := range ps {
		if p.contains(m.CreatedAt) {
			return true
		}
		if !m.CreatedAt.Before(p.to) && m.CreatedAt.Before(p.to.Add(tellSlack)) {
			late = true
		}
	}
	if !late {
		return false
	}
	for _, told := range namedPeriods(m.Content, m.CreatedAt) {
		for _, p := range ps {
			if told.from.Before(p.to) && p.from.Before(told.to) {
				return true
			}
		}
	}
	return false
}

// periodSearch is the period channel: up to n memories of ps, the most
// similar to the query vector first (ties by id), and how many there were. Quarantined memories are
// never recalled and take no place.
func periodSearch(e *engine.Engine, ps []period, qv *index.Sparse, n int) (hits []engine.Hit, total, all int) {
	if len(ps) == 0 || n <= 0 {
		return nil, 0, 0
	}
	v := e.View()
	defer v.Close()
	ids := v.IDs()
	all = len(ids)
	for _, id := range ids {
		m := v.Memory(id)
		if m == nil || m.Status == engine.StatusQuarantined || !ofPeriods(m, ps) {
			continue
		}
		row, _ := v.Vector(id)
		hits = append(hits, engine.Hit{ID: id, Score: cosineScore(qv, row)})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ID < hits[j].ID
	})
	total = len(hits)
	if len(hits) > n {
		hits = hits[:n]
	}
	return hits, total, all
}

// asksOnlyWhen reports whether a query, its periods blanked (rest, from
// readPeriods), asks about nothing but a time: no specific term is left.
// Korean asks "what happened" with an empty noun ("무슨 일 있었지?", "뭔
// 일이야"), the way English says "what thing": beside a time, such a noun
// asks nothing (emptyNounsKO); elsewhere it stays a term ("일 그만뒀어").
func asksOnlyWhen(rest string) bool {
	kept, _ := textnorm.QueryTerms(rest)
	markers := MarkerTerms(rest)
	for _, t := range kept {
		if !textnorm.IsGeneric(t) && !markers[t] && !emptyNounsKO[t] {
			return false
		}
	}
	return true
}

// broadPeriod reports whether a period holding total of all memories
// holds most of the store (more than half).
func broadPeriod(total, all int) bool { return 2*total > all }

// narrowPeriod reports whether a period holding total memories fits in
// k slots.
func narrowPeriod(total, k int) bool { return total > 0 && total <= k }

// emptyNounsKO are the Korean nouns that name no thing in particular (일
// "matter", 것/거 "thing"), as index terms, and 뭔, the spoken 무슨 ("what
// kind of"), which the stop list does not hold.
var emptyNounsKO = map[string]bool{"일": true, "것": true, "거": true, "뭔": true}

// periodEvidence reports whether c's being of the query's period is
// evidence enough for the relevance gate.
//
// A period that holds most of the store ("this year" in a store of this
// year's memories, broadPeriod) tells no memory from another: being of it
// is no evidence, though it still ranks (temporal). A period that holds at
// most k memories (narrowPeriod: "지난주에 뭐 샀더라?" over a week of four
// memories) is evidence on its own: the answer is one of those few, told
// in words the query may not share ("bought a standing desk"), and all of
// them fit in the k slots.
func (r *recallRun) periodEvidence(c *candidate) bool {
	if !c.ofPeriod || r.periodBroad {
		return false
	}
	ev := c.ev
	return r.onlyWhen || r.periodNarrow || len(ev.specific)+len(ev.generic)+len(ev.context) > 0 || c.cosineSpecific >= r.cfg.Tuning.VectorOnlyCosine/2
}

// periodNote is the candidates stage's account of the period channel.
func periodNote(ps []period, hits, n int) string {
	named := make([]string, len(ps))
	for i, p := range ps {
		named[i] = fmt.Sprintf("%q = [%s, %s)", p.text, p.from.Format("2006-01-02"), p.to.Format("2006-01-02"))
	}
	return fmt.Sprintf("%s: %d memories of the period (created in it, or told of it within %d days after), the %d most query-like retrieved",
		strings.Join(named, "; "), hits, int(tellSlack/(24*time.Hour)), n)
}

// b2f is 1 for true, 0 for false: a flag as a trace score.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
