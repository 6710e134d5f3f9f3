package capture

import (
	"slices"
	"sync"

	bilingual "memtrace/engine/concept"
	"memtrace/engine/textnorm"
)

// crossPartners maps a topic term (textnorm.Tokens of a word of the
// bilingual concept table, engine/concept) to the terms of its partners in
// the other script, so that an open marker's object in one language finds
// an older memory naming it in the other ("요즘은 자전거 말고 지하철 타"
// over "I bike to work"). Partners in the same script are left out: the
// table's synonyms ("boss", "lead") are looser than a translation, and a
// wrong supersession hides a true fact.
var crossPartners = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	for _, g := range bilingual.Groups() {
		var terms []string
		for _, w := range g {
			terms = append(terms, textnorm.Tokens(w)...)
		}
		for _, a := range terms {
			for _, b := range terms {
				if isHangul(a) != isHangul(b) && !slices.Contains(out[a], b) {
					out[a] = append(out[a], b)
				}
			}
		}
	}
	return out
})

// partnersOf are the cross-script concept partners of terms that terms do
// not hold already, less words that never carry a subject (notTopic).
func partnersOf(terms []string) []string {
	var out []string
	for _, t := range terms {
		for _, p := range crossPartners()[t] {
			if !notTopic[p] && !slices.Contains(terms, p) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}
