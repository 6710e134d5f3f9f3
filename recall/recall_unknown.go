package recall

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine/textnorm"
)

// Unknown query terms (stage rerank, the relevance gate). A specific query
// term that no memory holds — not in the index's vocabulary after stemming
// and conflation, not inside any candidate's text (Korean compounds keep
// words inside words), not found through a concept partner — is part of
// what the query asks about all the same: "what chess opening do I play"
// asks about chess, and a memory holding only "play" has a passing word in
// common with it. Such a term counts in the gate's idf mass at the
// maximum idf the index gives (a term in one memory), so one common word
// cannot carry a match on its own. It adds nothing to bm25_norm_score or
// the cue: ranking and forgetting read only the terms memories hold. A
// memory holding a rare query term (idf at least rareIDFShare of the
// maximum: a name, a specific noun) is judged on the known terms alone:
// the unknown terms stop a common word from carrying a match, not a rare
// one ("does my coworker Minji have any dietary restrictions?" may find
// "Minji is vegan" by the name).
//
// Not unknown, whatever the index says: generic words (they are never
// evidence, so they are never missing evidence either — "token", "key"),
// time markers and the words of a named period (the period channel reads
// them), one-character terms, terms with digits (a year or a count the
// memories rarely write), concept and WordNet partners (expansions are
// optional by nature), and a query term whose partner some memory holds.
//
// An unknown term weighs only on memories written in its script: a Korean
// word no memory holds says nothing of whether an English memory covers
// what it asks ("매운 음식 먹어도 돼?" over "I don't eat spicy food" — the
// concept table bridges 음식 but not every predicate), only that no Korean
// memory does; likewise an English term over a memory in Hangul alone. A
// memory in both scripts weighs both.

// unknownMass is the idf mass of the unknown terms, split by script.
type unknownMass struct{ hangul, other float64 }

func (u unknownMass) total() float64 { return u.hangul + u.other }

// of is the mass that weighs on a memory of text content.
func (u unknownMass) of(content string) float64 {
	if u.hangul == 0 && u.other == 0 {
		return 0
	}
	ko, other := scripts(content)
	m := 0.0
	if ko {
		m += u.hangul
	}
	if other {
		m += u.other
	}
	return m
}

// scripts reports whether text holds a Hangul letter, and a letter of
// another script.
func scripts(text string) (hangul, other bool) {
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Hangul, r):
			hangul = true
		case unicode.IsLetter(r):
			other = true
		}
		if hangul && other {
			break
		}
	}
	return hangul, other
}

// rareIDFShare: a term of at least this share of the index's maximum idf
// is rare (at 200 memories, held by at most ~17; at 10k, by ~120).
const rareIDFShare = 0.5

// unknownTerms are the query's specific terms no memory holds, in query
// order, each once, and the idf mass they add to the gate's total: each at
// its weight × the index's maximum idf. cut are the words of the periods
// the query names. Caller must not hold a View.
func (r *recallRun) unknownTerms(cut map[string]bool) ([]string, unknownMass) {
	v := r.e.View()
	defer v.Close()
	markers := MarkerTerms(r.q.Text)
	found := map[string]bool{} // query terms some memory holds through a partner
	for o, src := range r.expandedFrom {
		if v.DocFreq(r.docFreq, o) > 0 {
			found[src] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range r.terms {
		if seen[t] {
			continue
		}
		seen[t] = true
		if r.generic[t] || markers[t] || cut[t] || found[t] || utf8.RuneCountInString(t) < 2 || hasDigit(t) || textnorm.IsGeneric(t) {
			continue
		}
		if _, partner := r.expandedFrom[t]; partner || v.DocFreq(r.docFreq, t) > 0 {
			continue
		}
		if isHangul(t) && r.insideCandidate(t) {
			continue
		}
		out = append(out, t)
	}
	var mass unknownMass
	for _, t := range out {
		if isHangul(t) {
			mass.hangul += r.weights[t] * v.IDF(1)
		} else {
			mass.other += r.weights[t] * v.IDF(1)
		}
	}
	return out, mass
}

// insideCandidate reports whether some candidate's text holds t inside a
// longer word (a Korean compound: "동물병원" in "동물병원에서").
func (r *recallRun) insideCandidate(t string) bool {
	for _, c := range r.live {
		if strings.Contains(c.m.Content, t) {
			return true
		}
	}
	return false
}

// periodWords are the query terms of the periods the query names: the
// query's terms that its text without them (rest, readPeriods) lacks.
func periodWords(text, rest string) map[string]bool {
	all, _ := textnorm.QueryTerms(text)
	left, _ := textnorm.QueryTerms(rest)
	keep := make(map[string]bool, len(left))
	for _, t := range left {
		keep[t] = true
	}
	out := map[string]bool{}
	for _, t := range all {
		if !keep[t] {
			out[t] = true
		}
	}
	return out
}

// unknownNote renders the unknown terms for the rerank stage's trace.
func unknownNote(unknown []string, mass unknownMass) string {
	return fmt.Sprintf("%s: no memory holds them; each counts at the index's maximum idf in the gate's idf mass (+%s) of the memories written in its script, not in bm25_norm_score",
		strings.Join(unknown, " "), f3(mass.total()))
}

func hasDigit(t string) bool { return strings.ContainsFunc(t, unicode.IsDigit) }

func isHangul(t string) bool {
	r, _ := utf8.DecodeRuneInString(t)
	return unicode.Is(unicode.Hangul, r)
}
