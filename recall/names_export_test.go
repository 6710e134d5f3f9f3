package recall

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine"
	"memtrace/engine/textnorm"
)

// NameBookDump is e's name book (nameBookOf: built once, then kept current
// from the change log) as text, for the tests of recall_test.
func NameBookDump(e *engine.Engine) string { return nameBookOf(e).dump() }

// NameBookFromTexts is the book read the way it was before the vocabulary
// gave its Hangul terms: every text of a memory not quarantined, word by
// word, in id order — the reference the book must equal.
func NameBookFromTexts(e *engine.Engine) string {
	b := &nameBook{bySound: map[string][]string{}, latin: map[string]bool{}, roles: map[string][]string{}, sound: map[string]string{}, heads: map[string][]string{}, hangul: map[string]struct{}{}}
	v := e.View()
	defer v.Close()
	for _, id := range v.IDs() {
		if m := v.Memory(id); m != nil && m.Status != engine.StatusQuarantined {
			readAllWords(b, m.Content)
		}
	}
	return b.dump()
}

// readAllWords is the former nameBook.read: Hangul words and Latin names
// in one pass over the text, every word lower-cased as it goes.
func readAllWords(b *nameBook, text string) {
	var prev []string
	start := true
	i := 0
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			switch r {
			case '.', '!', '?', ':', '\n':
				start, prev = true, prev[:0]
			case '\'', '’':
				if len(prev) > 0 && i+n < len(text) && text[i+n] == 's' {
					prev[len(prev)-1] = "'s"
				}
			}
			i += n
			continue
		}
		hangul := unicode.Is(unicode.Hangul, r)
		j := scriptRunEnd(text, i, hangul)
		w := text[i:j]
		lw := strings.ToLower(w)
		if hangul {
			if t, ok := textnorm.Term(w, true); ok {
				if _, seen := b.hangul[t]; !seen {
					b.hangul[t] = struct{}{}
					if c := utf8.RuneCountInString(t); c >= 2 && c <= 3 {
						b.file(t, t)
					}
					b.compound(t)
				}
			}
		} else if !start && unicode.IsUpper(r) && len(w) >= 3 && isNameWord(lw) {
			if t, ok := textnorm.Term(lw, false); ok {
				b.latin[t] = true
				b.file(t, lw)
				if role := roleBefore(prev); role != "" && !slices.Contains(b.roles[role], t) {
					b.roles[role] = append(b.roles[role], t)
				}
			}
		}
		if len(prev) == 3 {
			prev = append(prev[:0], prev[1:]...)
		}
		prev = append(prev, lw)
		start = false
		i = j
	}
}

// dump writes what expandNames reads of the book: a sound's terms and a
// head's compounds as sets (the order they were filed in changes nothing
// it adds), a head past maxCompounds as a suffix, a role's names in order
// (the order of their expansions' reasons).
func (b *nameBook) dump() string {
	var sb strings.Builder
	for _, k := range slices.Sorted(maps.Keys(b.bySound)) {
		fmt.Fprintf(&sb, "sound %q: %v\n", k, slices.Sorted(slices.Values(b.bySound[k])))
	}
	for _, t := range slices.Sorted(maps.Keys(b.sound)) {
		fmt.Fprintf(&sb, "term %q: %q latin=%v\n", t, b.sound[t], b.latin[t])
	}
	for _, t := range slices.Sorted(maps.Keys(b.latin)) {
		fmt.Fprintf(&sb, "latin %q\n", t)
	}
	for _, r := range slices.Sorted(maps.Keys(b.roles)) {
		fmt.Fprintf(&sb, "role %q: %v\n", r, b.roles[r])
	}
	for _, h := range slices.Sorted(maps.Keys(b.heads)) {
		if l := b.heads[h]; len(l) > maxCompounds {
			fmt.Fprintf(&sb, "head %q: suffix\n", h)
		} else {
			fmt.Fprintf(&sb, "head %q: %v\n", h, slices.Sorted(slices.Values(l)))
		}
	}
	return sb.String()
}
