package recall

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"memtrace/engine"
	"memtrace/engine/textnorm"
	"memtrace/engine/tuning"
	"memtrace/engine/wordnet"
)

// WordNet expansion (preprocess, after the concept table): a specific
// English query word brings in, from Princeton WordNet (engine/wordnet),
// the other lemmas of its most frequent senses (synonyms, SynonymWeight)
// and the lemmas of the senses' hyponyms one and two levels down
// (HyponymWeight, Hyponym2Weight): "sofa" finds "couch", "dog" finds
// "poodle", "sport" finds "surfing". Query-side only: the index holds the
// memories' own words.
//
// Gated, so that a word with a thousand kinds brings none of them and a
// rare sense does not speak for the word:
//   - the query word is not generic, not a time marker, not Hangul, at
//     least three letters;
//   - synonyms come from its most frequent sense only ("type" is "case"
//     only as a printer's word), hyponyms from its first wordnetSenses
//     senses; its noun senses when it
//     has any, else its verb senses (noun and verb senses together:
//     LoCoMo R@10 0.771 against 0.772, and the held-out "which camera do I
//     shoot with" lost its camera to the verb "shoot"'s synonyms);
//   - a sense expands into its hyponyms only when it has at most
//     maxHyponyms of them within two levels ("activity" and "food" have
//     hundreds, "dessert" a few dozen);
//   - an expansion is a single index term some memory holds, not another
//     word the stemmer made of it ("afters" is not "after"), not common
//     (at most one memory in maxExpansionShare, or two), not generic and
//     not already a query term;
//   - at most maxWordnetPerTerm expansions per query word, nearest
//     relation first.
//
// Expansions join r.expandedFrom like the concept table's partners, so the
// relevance gate counts a concept once (queryMass); the trace's preprocess
// note wordnet_expansions names each one, its source, relation and weight.

// The BM25 and evidence weights of WordNet expansions, relative to the
// query word they come from: below the concept table's curated partners
// (ExpansionWeight).
// These are the defaults (engine/tuning); a recall reads its own from
// Config.Tuning.
const (
	SynonymWeight  = tuning.SynonymWeight
	HyponymWeight  = tuning.HyponymWeight
	Hyponym2Weight = tuning.Hyponym2Weight
)

const (
	wordnetSenses     = 2
	maxHyponyms       = 80
	maxWordnetPerTerm = 8
	maxExpansionShare = 6 // an expansion more than 1/6 of the memories (and more than two) hold is common; LoCoMo R@50 0.859 at 1/10, 0.863 at 1/6
)

// Relations of a WordNet expansion, as the trace names them.
const (
	relSynonym  = "synonym"
	relHyponym  = "hyponym"
	relHyponym2 = "hyponym2"
)

type wordnetCandidate struct {
	word, rel string
	weight    float64
}

// wordnetCandidates lists word's expansion candidates, nearest relation
// first, each lemma once.
func wordnetCandidates(word string, tu *tuning.Tuning) []wordnetCandidate {
	var out []wordnetCandidate
	seen := map[string]bool{word: true}
	add := func(ws []string, rel string, w float64) {
		for _, x := range ws {
			if !seen[x] {
				seen[x] = true
				out = append(out, wordnetCandidate{x, rel, w})
			}
		}
	}
	var senses, first []wordnet.Synset
	for _, pos := range []byte{'n', 'v'} {
		for _, l := range wordnet.Lemmas(word, pos) {
			seen[l] = true
			ss := wordnet.Senses(l, pos)
			senses = append(senses, ss[:min(len(ss), wordnetSenses)]...)
			if len(ss) > 0 {
				first = append(first, ss[0])
			}
		}
		if len(senses) > 0 {
			break // a word with noun senses is read as a noun: "dog" does not bring "chase"
		}
	}
	for _, s := range first {
		add(wordnet.Words(s), relSynonym, tu.SynonymWeight)
	}
	for _, s := range senses {
		h1 := wordnet.Hyponyms(s)
		n := len(h1)
		for _, h := range h1 {
			n += len(wordnet.Hyponyms(h))
		}
		if n == 0 || n > maxHyponyms {
			continue
		}
		for _, h := range h1 {
			add(wordnet.Words(h), relHyponym, tu.HyponymWeight)
		}
		for _, h := range h1 {
			for _, h2 := range wordnet.Hyponyms(h) {
				add(wordnet.Words(h2), relHyponym2, tu.Hyponym2Weight)
			}
		}
	}
	return out
}

// expandWordNet adds the WordNet expansions of the query's specific English
// words to weights and from (expansion → source term), and returns each
// added term's relation and the query's names it left unexpanded.
//
// A name is not a common noun: a capitalised word that does not open a
// sentence (entityTerms, the two-hop round's reading) is not expanded, so
// "John" does not bring "bathroom" and "head" (a john is a toilet), nor
// "Max" "soap", nor "Sam" anything (LoCoMo, conversations 0–4 / 5–9, R@10
// 0.7823 → 0.7826 / 0.7754 → 0.7759, no cut-off worse).
func expandWordNet(e *engine.Engine, text string, weights map[string]float64, from map[string]string, skip func(t string) bool) (map[string]string, []string) {
	surface := map[string]string{} // query term → its first surface word
	var order, unexpanded []string
	names := map[string]bool{}
	for _, t := range entityTerms(text) {
		names[t] = true
	}
	textnorm.Words(text, func(w string, hangul bool) {
		if hangul || len(w) < 3 {
			return
		}
		t, ok := textnorm.Term(w, false)
		if ok && names[t] {
			if !slices.Contains(unexpanded, t) && wordnet.Known(strings.ToLower(w)) {
				unexpanded = append(unexpanded, t)
			}
			return
		}
		if ok && surface[t] == "" && !skip(t) {
			if _, partner := from[t]; !partner {
				surface[t] = w
				order = append(order, t)
			}
		}
	})
	if len(order) == 0 {
		return nil, unexpanded
	}
	rel := map[string]string{}
	v := e.View()
	defer v.Close()
	total := len(v.IDs())
	tu := e.Config().Tuning
	for _, t := range order {
		n := 0
		for _, c := range wordnetCandidates(strings.ToLower(surface[t]), &tu) {
			if n == maxWordnetPerTerm {
				break
			}
			toks := textnorm.Tokens(c.word)
			if len(toks) != 1 {
				continue
			}
			o := toks[0]
			if _, ok := weights[o]; ok || o == t || textnorm.IsGeneric(o) || stemmedAway(c.word, o) {
				continue
			}
			if f := v.DocFreq(nil, o); f == 0 || (f > 2 && f*maxExpansionShare > total) {
				continue
			}
			weights[o] = c.weight * weights[t]
			from[o] = t
			rel[o] = c.rel
			n++
		}
	}
	return rel, unexpanded
}

// stemmedAway reports whether the stemmer turned word into another word
// WordNet knows that is not its base form: "afters" (a dessert) is the
// term "after", which would find every memory saying "after".
func stemmedAway(word, term string) bool {
	if term == word || !wordnet.Known(term) {
		return false
	}
	for _, pos := range []byte{'n', 'v', 'a'} {
		if slices.Contains(wordnet.Lemmas(word, pos), term) {
			return false
		}
	}
	return true
}

// wordnetNote renders the WordNet expansions for the trace:
// "dessert → pudding ×0.35 (hyponym)".
func wordnetNote(rel, from map[string]string, weights map[string]float64) string {
	exp := make([]string, 0, len(rel))
	for o := range rel {
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
		parts[i] = fmt.Sprintf("%s → %s ×%s (%s)", from[o], o, f3(weights[o]), rel[o])
	}
	return strings.Join(parts, "; ")
}
