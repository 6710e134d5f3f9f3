package recall

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"memtrace/engine"
	"memtrace/engine/textnorm"
	"memtrace/engine/wordnet"
)

// Names (preprocess, after the concept table and WordNet): a person or a
// pet is named in the script the user happened to type ("Sena" and
// "세나가 감기 걸렸어", "Mochi" and "모찌 병원 갔다옴"), and is asked about
// by role as often as by name ("what does my wife do", "우리 강아지",
// "how heavy is my cat"). Three gated expansions, read from the store's own
// words:
//
//   - across scripts: a name in the query — a Latin word capitalised where
//     no sentence opens, or one the store writes so; a Hangul word of two
//     or three syllables — brings the store's words of the other script
//     that sound the same (nameSound: consonant classes and vowel classes
//     of the Revised Romanization read both ways, so 세나 ~ Sena, 승호 ~
//     Seungho, 모찌 ~ Mochi, 보리 ~ Bori; 시내 is not Sena). A Latin
//     query word that is no English word (foreignWord: chungju, busan)
//     counts as a name in any case, so a romanised place meets its Hangul
//     form (chungju → 충주) wherever the query puts it. The Latin side
//     is only the store's names, so a Korean word never finds an English
//     common noun;
//   - by role: a query term, or a concept partner of one ("spouse" →
//     "husband", "강아지" → "dog"), that the store writes as an appositive
//     before a name after a possessive ("my wife Sena", "our rabbit
//     Mochi", "Doyun's younger brother Taeho") brings that name and the
//     name's other-script forms. A role the store gives more than
//     maxRoleNames names to ("my friend …") names nobody and brings none.
//     Only a query that speaks of the user (speaksOfSelf) expands a role;
//   - Hangul compounds: a Hangul query word of two syllables or more brings
//     the store's longer Hangul words that end in it (병원 → 동물병원,
//     백신 → 종합백신), unless it ends more than maxCompounds of them
//     (then it is a suffix, not a word).
//
// Every expansion joins r.expandedFrom under the query term it comes from,
// so the relevance gate counts it in that term's slot (queryMass), at
// ConceptWeight; the preprocess note name_expansions names each one and
// why (script or role).

const maxRoleNames = 2

// nameBook is what the store says about names: each name-like index term
// under its sound, the Latin terms written as names, and the names each
// role word stands before. It is built once — its Hangul terms from the
// lexical index's vocabulary (the terms a memory not quarantined holds:
// no text is read for them), its Latin names and roles from the texts
// that write a capital where a name can stand — and then kept current
// from the change log.
type nameBook struct {
	seq     int64
	bySound map[string][]string
	latin   map[string]bool
	roles   map[string][]string
	sound   map[string]string // term → its sound, read from the word as written
	// heads maps a Hangul word of two syllables or more to the longer
	// Hangul index terms that end in it: the compounds it heads (백신 →
	// 종합백신, 병원 → 동물병원), at most maxCompounds each.
	heads map[string][]string
	// hangul are the Hangul index terms filed so far.
	hangul map[string]struct{}
	// words are the capitalised Latin words read so far, as written.
	words map[string]nameWord
}

// nameWord is what read makes of a capitalised Latin word: the word
// lower-cased and, when it can be a name, its index term (ok).
type nameWord struct {
	lw, t string
	ok    bool
}

// maxCompounds bounds the compounds filed under one head: a head in more
// compounds than that (a suffix like 하기) is a grammatical ending, not a
// word, and expands into none of them.
const maxCompounds = 6

// names holds a book per engine (a server may serve several spaces, one
// engine each, and alternate between them), at most maxNameBooks: past
// that the map starts over, so engines opened and closed one after another
// (tests, one-shot commands) do not accumulate.
var names struct {
	sync.Mutex
	books map[*engine.Engine]*nameBook
}

const maxNameBooks = 16

// nameBookOf returns e's name book, current at the view's seq.
func nameBookOf(e *engine.Engine) *nameBook {
	names.Lock()
	defer names.Unlock()
	v := e.View()
	defer v.Close()
	if names.books == nil || len(names.books) >= maxNameBooks && names.books[e] == nil {
		names.books = map[*engine.Engine]*nameBook{}
	}
	b := names.books[e]
	var ids []int64
	if b != nil {
		if b.seq == v.Seq() {
			return b
		}
		changed, ok := v.ChangedSince(b.seq)
		for _, id := range changed {
			if m := v.Memory(id); m == nil || m.Status == engine.StatusQuarantined || m.Status == engine.StatusErased {
				ok = false // a memory gone, quarantined or erased: its names must go too, so read the store again
				break
			}
		}
		if ok {
			ids = changed
		} else {
			b = nil
		}
	}
	if b == nil {
		b = &nameBook{bySound: map[string][]string{}, latin: map[string]bool{}, roles: map[string][]string{}, sound: map[string]string{}, heads: map[string][]string{}, hangul: map[string]struct{}{}}
		// What the book files of a Hangul term depends on the term alone
		// and not on the order terms come in (a sound's terms and a head's
		// compounds are sets), so the vocabulary gives them all at once.
		v.HeldTerms(isHangul, b.hangulTerm)
		for _, id := range v.IDs() {
			if m := v.Memory(id); m != nil && m.Status != engine.StatusQuarantined && mayName(m.Content) {
				b.read(m.Content)
			}
		}
		ids = nil
	}
	for _, id := range ids {
		if m := v.Memory(id); m != nil && m.Status != engine.StatusQuarantined {
			// The changed memory's Hangul index terms, as the index
			// tokenised them, and its Latin names.
			textnorm.Words(m.Content, func(w string, hangul bool) {
				if t, ok := textnorm.Term(w, hangul); ok && hangul {
					b.hangulTerm(t)
				}
			})
			if mayName(m.Content) {
				b.read(m.Content)
			}
		}
	}
	b.seq = v.Seq()
	names.books[e] = b
	return b
}

// possessives open the noun phrase of an appositive role ("my wife Sena").
var possessives = map[string]bool{"my": true, "our": true, "his": true, "her": true, "their": true}

// hangulTerm files Hangul index term t: under its sound when it has two or
// three syllables (a name's length), and under the heads it ends in; once.
func (b *nameBook) hangulTerm(t string) {
	if _, seen := b.hangul[t]; seen {
		return
	}
	b.hangul[t] = struct{}{}
	if c := utf8.RuneCountInString(t); c >= 2 && c <= 3 {
		b.file(t, t)
	}
	b.compound(t)
}

// mayName: text writes a capital letter after its first character, the
// least a Latin name needs where no sentence opens (read files none in a
// text without one).
func mayName(text string) bool {
	for i := 1; i < len(text); i++ {
		c := text[i]
		if 'A' <= c && c <= 'Z' {
			return true
		}
		if c >= 0xEB && c <= 0xED {
			// U+B000–U+DFFF: Hangul syllables and jamo (no case) or
			// surrogates (not UTF-8): no capital, nothing to decode.
			continue
		}
		if c >= utf8.RuneSelf && utf8.RuneStart(c) {
			r, n := utf8.DecodeRuneInString(text[i:])
			if r >= 0xAC00 && r <= 0xD7A3 { // a Hangul syllable: no case
				i += n - 1
				continue
			}
			if unicode.IsUpper(r) {
				return true
			}
			i += n - 1
		}
	}
	return false
}

// read files one memory's Latin names and appositive roles (its Hangul
// words come from the index: hangulTerm).
func (b *nameBook) read(text string) {
	// The words before the current one, last three, as written: lowered
	// only when a name needs its role (most words are no name).
	var buf [3]string
	prev := buf[:0]
	start := true
	i := 0
	for i < len(text) {
		r, n := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[i:])
		}
		if r < utf8.RuneSelf && !asciiAlnum(byte(r)) || r >= utf8.RuneSelf && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			switch r {
			case '.', '!', '?', ':', '\n':
				start, prev = true, prev[:0]
			case '\'', '’':
				if len(prev) > 0 && i+n < len(text) && text[i+n] == 's' {
					prev[len(prev)-1] = "'s" // "Doyun's": a possessive
				}
			}
			i += n
			continue
		}
		hangul := unicode.Is(unicode.Hangul, r)
		j := scriptRunEnd(text, i, hangul)
		w := text[i:j]
		if !hangul && !start && unicode.IsUpper(r) && len(w) >= 3 {
			nw, seen := b.words[w]
			if !seen {
				// A capitalised word is the same name (or none) wherever
				// it stands: lower it and find its term once.
				nw.lw = strings.ToLower(w)
				if isNameWord(nw.lw) {
					nw.t, nw.ok = textnorm.Term(nw.lw, false)
				}
				if b.words == nil {
					b.words = map[string]nameWord{}
				}
				b.words[strings.Clone(w)] = nw // not the text it stands in
			}
			if t := nw.t; nw.ok {
				b.latin[t] = true
				b.file(t, nw.lw)
				var low [3]string
				for k, p := range prev {
					low[k] = strings.ToLower(p)
				}
				if role := roleBefore(low[:len(prev)]); role != "" && !slices.Contains(b.roles[role], t) {
					b.roles[role] = append(b.roles[role], t)
				}
			}
		}
		if len(prev) == 3 {
			prev[0], prev[1], prev = prev[1], prev[2], prev[:2]
		}
		prev = append(prev, w)
		start = false
		i = j
	}
}

// file puts index term t under the sound of w, its word as written, once.
func (b *nameBook) file(t, w string) {
	if _, ok := b.sound[t]; ok {
		return
	}
	k := nameSound(w)
	b.sound[t] = k
	if k != "" {
		b.bySound[k] = append(b.bySound[k], t)
	}
}

// compound files Hangul term t under each of its endings of two syllables
// or more, once.
func (b *nameBook) compound(t string) {
	rs := []rune(t)
	for i := 1; i+2 <= len(rs); i++ {
		h := string(rs[i:])
		if l := b.heads[h]; len(l) <= maxCompounds && !slices.Contains(l, t) {
			b.heads[h] = append(l, t) // one past the bound marks a suffix
		}
	}
}

// isNameWord: a capitalised word that is not a month, a weekday or an
// adjective of a people or language (entityTerms' rule).
func isNameWord(lw string) bool {
	if _, month := monthNames[lw]; month {
		return false
	}
	if _, day := weekdayIndex[lw]; day {
		return false
	}
	return !isAdjectiveWord(lw)
}

// roleBefore is the role term of an appositive that ends in prev (its last
// word, after a possessive at most three words back), "" when prev is none.
func roleBefore(prev []string) string {
	if len(prev) < 2 {
		return ""
	}
	role := prev[len(prev)-1]
	if possessives[role] || role == "'s" || textnorm.IsStopWord(role) {
		return ""
	}
	for _, p := range prev[:len(prev)-1] {
		if possessives[p] || p == "'s" {
			if t, ok := textnorm.Term(role, false); ok && !textnorm.IsGeneric(t) {
				return t
			}
		}
	}
	return ""
}

// expandNames adds the query's names in the other script and the names of
// its roles to weights and from, at weight × the source term's weight, and
// returns each added term's reason for the trace.
func expandNames(e *engine.Engine, text string, terms []string, weights map[string]float64, from map[string]string, skip func(string) bool, weight float64) map[string]string {
	b := nameBookOf(e)
	caps := capitalised(text)
	why := map[string]string{}
	full := false // the expansion is the referent of a role the query names
	self := speaksOfSelf(text)
	add := func(t, src, reason string) {
		if _, ok := weights[t]; ok {
			return
		}
		weights[t] = weights[src]
		if !full {
			weights[t] = weight * weights[src]
		}
		from[t] = src
		why[t] = reason
	}
	across := func(name, src string) {
		k, ok := b.sound[name]
		if !ok {
			k = nameSound(caps[name])
			if isHangul(name) {
				k = nameSound(name)
			}
		}
		if k == "" {
			return
		}
		for _, o := range b.bySound[k] {
			if isHangul(o) != isHangul(name) && (isHangul(name) || b.latin[name] || caps[name] != "") && (!isHangul(name) || b.latin[o]) {
				add(o, src, "script of "+name)
			}
		}
	}
	for _, t := range slices.Sorted(maps.Keys(weights)) {
		src := t
		if s, ok := from[t]; ok {
			src = s
		}
		if !isHangul(t) || skip(src) || utf8.RuneCountInString(t) < 2 {
			continue
		}
		if l := b.heads[t]; len(l) <= maxCompounds {
			for _, c := range l {
				add(c, src, "compound of "+t)
			}
		}
	}
	for _, t := range terms {
		if skip(t) {
			continue
		}
		if isHangul(t) && utf8.RuneCountInString(t) <= 3 || !isHangul(t) && (caps[t] != "" || b.latin[t]) {
			full = false
			across(t, t)
		}
		if !self {
			continue
		}
		roles := []string{t}
		for p, s := range from {
			if s == t {
				roles = append(roles, p)
			}
		}
		sort.Strings(roles[1:])
		for _, role := range roles {
			ns := b.roles[role]
			if len(ns) == 0 || len(ns) > maxRoleNames {
				continue
			}
			full = true
			for _, n := range ns {
				add(n, t, "role "+role)
				across(n, t)
			}
		}
	}
	return why
}

// firstPerson are the English words by which a query speaks of the user.
var firstPerson = map[string]bool{"i": true, "me": true, "my": true, "mine": true, "we": true, "us": true, "our": true, "i'm": true, "i've": true, "i'd": true}

// speaksOfSelf: the query asks about the user's own people, so a role in
// it ("my wife", "the friend I went with") is the user's role, the one
// the book reads from "my wife Sena". An English query with no
// first-person word asks about someone else ("What does Melanie's husband
// do?"), whose roles the book cannot tell from the user's, so it expands
// no role. A query with Hangul counts as the user's own: Korean leaves the
// speaker out ("와이프 요즘 뭐 해?").
func speaksOfSelf(text string) bool {
	for _, r := range text {
		if unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\'' && r != '’'
	}) {
		if firstPerson[strings.ReplaceAll(w, "’", "'")] {
			return true
		}
	}
	return false
}

// capitalised maps the index terms of the query's Latin words that read as
// names to the words, lower-cased ("Bori's": bory → bori): a word written
// with a capital where no sentence opens, or a word of four letters or more
// that is no English word (foreignWord), in any case and anywhere — a
// place romanised from Korean opens a query as often as not ("Chungju
// apples", "busan trip").
func capitalised(text string) map[string]string {
	out := map[string]string{}
	sentenceWords(text, func(w string, hangul, opens bool) {
		if !hangul && len(w) >= 3 && (!opens && startsUpper(w) || foreignWord(w)) {
			lw := strings.ToLower(w)
			if t, ok := textnorm.Term(lw, false); ok {
				out[t] = lw
			}
		}
	})
	return out
}

// foreignWord: a Latin word of four letters or more, ASCII letters only,
// that WordNet knows as no noun, verb, adjective or adverb by its own
// morphology, and no month or weekday — so a romanised Korean word
// (chungju, haeundae), not an English one.
func foreignWord(w string) bool {
	if len(w) < 4 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	lw := strings.ToLower(w)
	if !isNameWord(lw) || textnorm.IsStopWord(lw) {
		return false
	}
	for _, p := range []byte{'n', 'v', 'a', 'r'} {
		if len(wordnet.Lemmas(lw, p)) > 0 {
			return false
		}
	}
	return true
}

// nameNote renders the name expansions: "sena → 세나 ×0.500 (script of sena)".
func nameNote(why map[string]string, from map[string]string, weights map[string]float64) string {
	ts := make([]string, 0, len(why))
	for t := range why {
		ts = append(ts, t)
	}
	sort.Strings(ts)
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = fmt.Sprintf("%s → %s ×%s (%s)", from[t], t, f3(weights[t]), why[t])
	}
	return strings.Join(parts, "; ")
}
