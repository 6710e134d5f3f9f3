package textnorm

import "strings"

// Memo is Tokens with a cache of each word's term: stemming and particle
// stripping are the cost of tokenising, and text repeats its words (Zipf),
// so a bulk load — the engine's index rebuild at open — tokenises each
// distinct word once. A Memo is not safe for concurrent use; its zero value
// is not usable: call NewMemo.
type Memo struct {
	terms map[string]memoTerm
	limit int
}

type memoTerm struct {
	term string
	ok   bool
}

// NewMemo returns a memo that remembers up to limit distinct words (it
// forgets them all when full, so memory stays bounded).
func NewMemo(limit int) *Memo {
	return &Memo{terms: make(map[string]memoTerm), limit: limit}
}

// Tokens is Tokens(s), with word terms taken from the memo.
func (mm *Memo) Tokens(s string) []string {
	var out []string
	eachWord(s, func(w string, hangul bool) {
		mt, hit := mm.terms[w]
		if !hit {
			mt.term, mt.ok = term(w, hangul)
			if len(mm.terms) >= mm.limit {
				clear(mm.terms)
			}
			mm.terms[strings.Clone(w)] = mt
		}
		if mt.ok {
			out = append(out, mt.term)
		}
	})
	return out
}
