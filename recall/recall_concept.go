package recall

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"memtrace/engine/concept"
	"memtrace/engine/textnorm"
	"memtrace/engine/tuning"
)

// Concept expansion (preprocess): a specific query term that belongs to a
// group of the bilingual concept table (engine/concept) brings the group's
// other terms into the query at ExpansionWeight × its own weight, so
// "knee" finds "무릎" and "회사" finds "company". Gated: generic words and
// time markers do not expand, and at most maxExpansionsPerTerm terms join
// per query term. Down-weighted and counted once: a concept is one slot of
// the query's idf mass, at the strongest of its forms (queryMass), so a
// memory that holds only a partner word carries ExpansionWeight of that
// slot, never more than one holding the query's own word. The trace shows
// each expansion (preprocess note concept_expansions) and the memories'
// matched terms include the expansions they hold.

// ExpansionWeight is the BM25 and evidence weight of a concept partner,
// relative to the query term it came from.
// The default (engine/tuning); a recall reads its own from Config.Tuning.
const ExpansionWeight = tuning.ExpansionWeight

const maxExpansionsPerTerm = 6

// conceptTerms maps an index term to the index terms of its groups'
// other words, in table order, built once from the table.
var conceptTerms = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	for _, g := range concept.Groups() {
		var terms []string
		for _, w := range g {
			for _, t := range textnorm.Tokens(w) {
				if !slices.Contains(terms, t) {
					terms = append(terms, t)
				}
			}
		}
		for _, t := range terms {
			for _, o := range terms {
				if o != t && !slices.Contains(out[t], o) {
					out[t] = append(out[t], o)
				}
			}
		}
	}
	return out
})

// expandConcepts adds the concept partners of the specific query terms to
// weights, and returns each added term's source term.
func expandConcepts(terms []string, weights map[string]float64, skip func(t string) bool, weight float64) map[string]string {
	from := map[string]string{}
	for _, t := range terms {
		if skip(t) {
			continue
		}
		n := 0
		for _, o := range conceptTerms()[t] {
			if _, ok := weights[o]; ok || n == maxExpansionsPerTerm {
				continue
			}
			weights[o] = weight * weights[t]
			from[o] = t
			n++
		}
	}
	return from
}

// expansionNote renders the expansions for the trace: "무릎 → knee ×0.5".
func expansionNote(from map[string]string, weights map[string]float64) string {
	exp := make([]string, 0, len(from))
	for o := range from {
		exp = append(exp, o)
	}
	sort.Slice(exp, func(i, j int) bool {
		if from[exp[i]] != from[exp[j]] {
			return from[exp[i]] < from[exp[j]]
		}
		return exp[i] < exp[j]
	})
	parts := make([]string, len(exp))
	for i, o := range exp {
		parts[i] = fmt.Sprintf("%s → %s ×%s", from[o], o, f3(weights[o]))
	}
	return strings.Join(parts, "; ")
}
