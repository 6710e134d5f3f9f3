package recall

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine"
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
	// context: specific query terms in a neighbour's text, not its own —
	// read only when share < Tuning.MinIDFShare (termEvidenceOf)
	context []string
	// contextGeneric are generic query terms only its neighbours hold.
	contextGeneric []string
	// share is Σ weight·idf over specific, divided by Σ weight·idf over
	// every query term the index knows, plus the unknown terms' mass at
	// the maximum idf (0..1).
	share float64
	// knownShare is share without the unknown terms; rare: its own text
	// holds a specific query term of idf ≥ rareIDFShare × the maximum (the
	// unknown terms do not outweigh a rare word, recall_unknown.go).
	knownShare float64
	rare       bool
}

// lexical reports whether the memory's own words are evidence: specific
// query terms carrying minShare (Tuning.MinIDFShare) of the query's idf
// mass, the unknown terms' included — or, for a rare term, not included.
func (ev termEvidence) lexical(minShare float64) bool {
	return len(ev.specific) > 0 && (ev.share >= minShare || (ev.rare && ev.knownShare >= minShare))
}

// matchedTerms are all query terms in the memory's own text, specific
// first (specific and generic share one array: this is its whole).
func (ev termEvidence) matchedTerms() []string {
	if len(ev.generic) == 0 {
		return ev.specific
	}
	if len(ev.specific) == 0 {
		return ev.generic
	}
	return ev.specific[:len(ev.specific)+len(ev.generic)]
}

// queryMass is each weighted query term's weight × idf, the terms in a fixed
// order (float addition is not associative), and the query's total mass.
// Terms no memory holds have no mass; df as for idfSum. A concept partner
// (from: partner → the query term it expands, recall_concept.go) has its
// mass, but a concept is one slot of the total: the query term's own mass,
// or, when no memory holds the query term, its strongest partner's mass
// divided back by the partner's relative weight (ExpansionWeight for the
// concept table, SynonymWeight and the like for WordNet). v is the caller's view.
func queryMass(v engine.View, weights map[string]float64, df map[string]int, from map[string]string) (terms []string, mass map[string]float64, total float64) {
	terms = make([]string, 0, len(weights))
	mass = make(map[string]float64, len(weights))
	for t := range weights {
		if f := v.DocFreq(df, t); f > 0 {
			terms = append(terms, t)
			mass[t] = weights[t] * v.IDF(f)
		}
	}
	sort.Strings(terms)
	if len(from) == 0 {
		for _, t := range terms {
			total += mass[t]
		}
		return terms, mass, total
	}
	slot := make(map[string]float64, len(weights))
	for _, t := range terms {
		if _, partner := from[t]; !partner {
			slot[t] = mass[t]
		}
	}
	for _, t := range terms {
		if src, partner := from[t]; partner && mass[src] == 0 {
			slot[src] = max(slot[src], mass[t]*weights[src]/weights[t])
		}
	}
	srcs := make([]string, 0, len(slot))
	for s := range slot {
		srcs = append(srcs, s)
	}
	sort.Strings(srcs)
	for _, s := range srcs {
		total += slot[s]
	}
	return terms, mass, total
}

// termEvidenceOf returns the evidence of each id for the weighted query
// terms, in the order of ids; generic are the query terms that are no
// evidence. The neighbours are read only for a memory whose own words are
// not evidence enough (share < MinIDFShare): the gate asks about them only
// then, and a recall reads a hundred candidates. df as for idfSum. Caller
// must not hold a View. unknown is the idf mass of the query terms no
// memory holds (recall_unknown.go): part of the share's total of the
// memories written in its script.
func termEvidenceOf(e *engine.Engine, ids []int64, weights map[string]float64, df map[string]int, generic map[string]bool, from map[string]string, unknown unknownMass) []termEvidence {
	out := make([]termEvidence, len(ids))
	v := e.View()
	defer v.Close()
	terms, mass, known := queryMass(v, weights, df, from)
	if known <= 0 {
		return out
	}
	minShare := e.Config().Tuning.MinIDFShare
	rareMass := rareIDFShare * v.IDF(1)
	rare := make([]bool, len(terms))      // specific terms of idf ≥ rareMass
	at := make(map[int32]int, len(terms)) // term number → index in terms
	isGeneric := make([]bool, len(terms))
	// Korean writes compounds as one word ("춘천마라톤"), which the index
	// keeps whole: a Hangul query term of two or more syllables inside a
	// memory's text is a word of its own text too, looked for when its
	// exact words are not evidence enough. Not a generic one: a light verb
	// sits inside countless compound verbs ("하기" in "참여하기로",
	// "공부하기"), so finding it there is not finding the word.
	var hangul []int
	for i, t := range terms {
		if no, ok := v.TermNo(t); ok {
			at[no] = i
		}
		isGeneric[i] = generic[t]
		rare[i] = !isGeneric[i] && mass[t] >= rareMass*weights[t]
		if r, _ := utf8.DecodeRuneInString(t); unicode.Is(unicode.Hangul, r) && utf8.RuneCountInString(t) >= 2 && !isGeneric[i] {
			hangul = append(hangul, i)
		}
	}
	own := make([]bool, len(terms))
	near := make([]bool, len(terms))
	for k, id := range ids {
		m := v.Memory(id)
		total := known
		if m != nil {
			total += unknown.of(m.Content)
		}
		clear(own)
		for _, no := range v.OwnTerms(id) {
			if i, ok := at[no]; ok {
				own[i] = true
			}
		}
		ev := &out[k]
		hit, ns, ng := 0.0, 0, 0
		count := func() {
			hit, ns, ng = 0, 0, 0
			for i := range terms {
				switch {
				case own[i] && isGeneric[i]:
					ng++
				case own[i]:
					ns++
					hit += mass[terms[i]]
				}
			}
		}
		count()
		if m != nil && hit/total < minShare && len(hangul) > 0 {
			found := false
			for _, i := range hangul {
				if !own[i] && strings.Contains(m.Content, terms[i]) {
					own[i], found = true, true
				}
			}
			if found {
				count()
			}
		}
		ev.share = min(1, hit/total)
		ev.knownShare = min(1, hit/known)
		for i := range terms {
			ev.rare = ev.rare || (own[i] && rare[i])
		}
		if ns+ng > 0 {
			matched := make([]string, 0, ns+ng)
			for i, t := range terms {
				if own[i] && !isGeneric[i] {
					matched = append(matched, t)
				}
			}
			for i, t := range terms {
				if own[i] && isGeneric[i] {
					matched = append(matched, t)
				}
			}
			ev.specific, ev.generic = matched[:ns], matched[ns:] // never appended to
		}
		if ev.lexical(minShare) {
			continue
		}
		nbs := v.Neighbours(id)
		if len(nbs) == 0 {
			continue
		}
		clear(near)
		for _, n := range nbs {
			if m := v.Memory(n); m == nil || m.Status == engine.StatusQuarantined {
				continue // a quarantined neighbour lends no words
			}
			for _, no := range v.OwnTerms(n) {
				if i, ok := at[no]; ok {
					near[i] = true
				}
			}
		}
		for i, t := range terms {
			switch {
			case !near[i] || own[i]:
			case isGeneric[i]:
				ev.contextGeneric = append(ev.contextGeneric, t)
			default:
				ev.context = append(ev.context, t)
			}
		}
	}
	return out
}
