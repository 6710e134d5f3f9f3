package capture

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// wordSet finds which entries of a word list occur in a lexNorm'd text with
// hasWord's meaning — "w*" a word starting with w, "w" the whole word —
// in one pass over the text's words and a map lookup or two per word,
// instead of one substring search of the text per entry. A phrase of such
// words is looked up by its first word and compared where that word
// starts. An entry with characters lexNorm never keeps is searched with
// hasWord as before, so the answer is the same for any text.
type wordSet struct {
	whole   map[string][]int32         // a word → the whole-word entries equal to it
	prefix  map[int]map[string][]int32 // by byte length: a word's prefix → entries
	lengths []int                      // the lengths of prefix, ascending
	phrase  map[string][]int32         // a phrase's first word → the phrases
	slow    []int32                    // entries hasWord searches
	words   []string                   // entry i without its '*'
	isWhole []bool
}

func newWordSet(entries []string) *wordSet {
	ws := &wordSet{whole: map[string][]int32{}, prefix: map[int]map[string][]int32{}, phrase: map[string][]int32{}}
	for i, e := range entries {
		w, whole := e, true
		if len(e) > 0 && e[len(e)-1] == '*' {
			w, whole = e[:len(e)-1], false
		}
		ws.words, ws.isWhole = append(ws.words, w), append(ws.isWhole, whole)
		first, _, multi := strings.Cut(w, " ")
		switch {
		case multi && phraseLike(w):
			ws.phrase[first] = append(ws.phrase[first], int32(i))
		case !tokenLike(w):
			ws.slow = append(ws.slow, int32(i))
		case whole:
			ws.whole[w] = append(ws.whole[w], int32(i))
		default:
			m := ws.prefix[len(w)]
			if m == nil {
				m = map[string][]int32{}
				ws.prefix[len(w)] = m
				ws.lengths = append(ws.lengths, len(w))
			}
			m[w] = append(m[w], int32(i))
		}
	}
	slices.Sort(ws.lengths)
	return ws
}

// tokenLike: w is non-empty and made only of what lexNorm keeps in a word
// (letters, digits, '), lower-case.
func tokenLike(w string) bool {
	if w == "" || !utf8.ValidString(w) {
		return false
	}
	for _, r := range w {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'') || unicode.ToLower(r) != r {
			return false
		}
	}
	return true
}

// phraseLike: w is words that are tokenLike, separated by single spaces,
// none of them empty.
func phraseLike(w string) bool {
	for part := range strings.SplitSeq(w, " ") {
		if !tokenLike(part) {
			return false
		}
	}
	return true
}

// each calls fn with the index of every entry found in norm (an entry may
// be reported more than once).
func (ws *wordSet) each(norm string, fn func(int)) {
	for i := 0; i < len(norm); {
		// A word, for hasWord, starts after a space and ends before one;
		// the whole-word test also needs the space after it.
		if i == 0 || norm[i-1] != ' ' || norm[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(norm) && norm[j] != ' ' {
			j++
		}
		word := norm[i:j]
		if j < len(norm) {
			for _, e := range ws.whole[word] {
				fn(int(e))
			}
		}
		if j < len(norm) {
			// A phrase starts with this word and a space, as hasWord would
			// find it here.
			for _, e := range ws.phrase[word] {
				w := ws.words[e]
				if end := i + len(w); strings.HasPrefix(norm[i:], w) && (!ws.isWhole[e] || end < len(norm) && norm[end] == ' ') {
					fn(int(e))
				}
			}
		}
		for _, n := range ws.lengths {
			if n > len(word) {
				break
			}
			for _, e := range ws.prefix[n][word[:n]] {
				fn(int(e))
			}
		}
		i = j
	}
	for _, e := range ws.slow {
		if hasWord(norm, ws.words[e], ws.isWhole[e]) {
			fn(int(e))
		}
	}
}
