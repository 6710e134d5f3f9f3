package engine

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// termEvidence is what one memory shares with the query, word by word: the
// query terms in its own text (split into specific and generic words,
// textnorm.IsGeneric, see recallRun.generic), the specific query terms only its conversational
// neighbours hold (context_index.go), and the share of the query's idf mass
// its own specific terms carry. The relevance gate (recall_relevance.go)
// decides on it; the trace shows it.
type termEvidence struct {
	specific []string // specific query terms in its own text (terms sorted)
	generic  []string // generic query terms in its own text
	context  []string // specific query terms in a neighbour's text, not its own
	// contextGeneric are generic query terms only its neighbours hold.
	contextGeneric []string
	// share is Σ weight·idf over specific, divided by Σ weight·idf over
	// every query term the index knows (0..1).
	share float64
}

// matchedTerms are all query terms in the memory's own text.
func (ev termEvidence) matchedTerms() []string {
	return append(append([]string(nil), ev.specific...), ev.generic...)
}

// queryMass is each weighted query term's weight × idf, the terms in a fixed
// order (float addition is not associative), and their sum. Terms no memory
// holds have no mass. Caller holds e.mu (read).
func (e *Engine) queryMass(weights map[string]float64) (terms []string, mass map[string]float64, total float64) {
	terms = make([]string, 0, len(weights))
	mass = make(map[string]float64, len(weights))
	for t := range weights {
		if df := e.lex.DocFreq(t); df > 0 {
			terms = append(terms, t)
			mass[t] = weights[t] * e.lex.IDFOf(df)
		}
	}
	sort.Strings(terms)
	for _, t := range terms {
		total += mass[t]
	}
	return terms, mass, total
}

// termEvidenceOf returns the evidence of each id for the weighted query
// terms, in the order of ids; generic are the query terms that are no
// evidence. Caller must not hold e.mu.
func (e *Engine) termEvidenceOf(ids []int64, weights map[string]float64, generic map[string]bool) []termEvidence {
	out := make([]termEvidence, len(ids))
	e.mu.RLock()
	defer e.mu.RUnlock()
	terms, mass, total := e.queryMass(weights)
	if total <= 0 {
		return out
	}
	set := e.termSet(mass)
	// Korean writes compounds as one word ("춘천마라톤"), which the index
	// keeps whole: a Hangul query term of two or more syllables inside a
	// memory's text is a word of its own text too.
	var hangul []string
	for _, t := range terms {
		if r, _ := utf8.DecodeRuneInString(t); unicode.Is(unicode.Hangul, r) && utf8.RuneCountInString(t) >= 2 {
			hangul = append(hangul, t)
		}
	}
	own := make(map[string]bool, len(terms))
	near := make(map[string]bool, len(terms))
	for i, id := range ids {
		clear(own)
		clear(near)
		for _, no := range e.ownTerms(id) {
			if t, ok := set[no]; ok {
				own[t] = true
			}
		}
		if m := e.mems[id]; m != nil {
			for _, t := range hangul {
				if !own[t] && strings.Contains(m.Content, t) {
					own[t] = true
				}
			}
		}
		if e.sessions != nil {
			if pos, ok := e.sessions.position[id]; ok {
				for _, n := range e.sessions.neighbours(id, pos.session) {
					if m := e.mems[n]; m == nil || m.Status == StatusQuarantined {
						continue // a quarantined neighbour lends no words
					}
					for _, no := range e.ownTerms(n) {
						if t, ok := set[no]; ok {
							near[t] = true
						}
					}
				}
			}
		}
		ev := &out[i]
		hit := 0.0
		for _, t := range terms {
			switch g := generic[t]; {
			case own[t] && g:
				ev.generic = append(ev.generic, t)
			case own[t]:
				ev.specific = append(ev.specific, t)
				hit += mass[t]
			case near[t] && g:
				ev.contextGeneric = append(ev.contextGeneric, t)
			case near[t]:
				ev.context = append(ev.context, t)
			}
		}
		ev.share = min(1, hit/total)
	}
	return out
}
