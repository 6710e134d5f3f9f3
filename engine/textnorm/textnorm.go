// Package textnorm turns English and Korean text into the terms the lexical
// index and the query preprocessor work with: lower-cased, Hangul-aware
// (particles and common verb endings stripped from the end of a word),
// English irregular verb forms taken to their base form (irregular.go) and
// English words stemmed by Porter2 (Stem), and bilingual stop words.
//
// Korean is agglutinative: "사과가", "사과를", "사과는" are one word with
// different particles. Stripping the particle is what lets a two-syllable word
// such as "사과" match at all — SQLite FTS5's trigram tokenizer cannot.
package textnorm

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// Normalize lower-cases s and folds runs of white space to one space.
func Normalize(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// Tokens returns the index terms of s: content words only (stop words
// dropped), Korean particles stripped, English irregular verb forms taken
// to their base form and English words stemmed. The order of
// words is kept; duplicates are kept (term frequency matters).
func Tokens(s string) []string {
	var out []string
	eachWord(s, func(w string, hangul bool) {
		if t, ok := term(w, hangul); ok {
			out = append(out, t)
		}
	})
	return out
}

// StableTokens is Tokens without the irregular-verb table ("bought" stays
// "bought"): the tokens of what a database stores derived from text — the
// hashed embedder's vectors (hashed-ngram-v2) and the lesson keys — so a
// database written before the table was added reads the same and compares
// like with like. Search and ranking use Tokens.
func StableTokens(s string) []string {
	var out []string
	eachWord(s, func(w string, hangul bool) {
		if t, ok := stableTerm(w, hangul); ok {
			out = append(out, t)
		}
	})
	return out
}

// QueryTerms splits a query into the terms that are searched for and the
// words the preprocessor dropped (stop words, particles-only words), so the
// trace can show both.
func QueryTerms(s string) (kept, dropped []string) {
	eachWord(s, func(w string, hangul bool) {
		if t, ok := term(w, hangul); ok {
			kept = append(kept, t)
		} else {
			dropped = append(dropped, w)
		}
	})
	return kept, dropped
}

// Surface returns the query with stop words removed and particles stripped,
// as a human would write it: "그 프로젝트의 진행 상황을 알려줘" → "프로젝트 진행 상황".
// Unlike Tokens it does not stem English words.
func Surface(s string) string {
	var parts []string
	eachWord(s, func(w string, hangul bool) {
		if hangul {
			base := stripKorean(w)
			if base == "" || IsStopWord(base) || IsStopWord(w) {
				return
			}
			parts = append(parts, base)
			return
		}
		if IsStopWord(w) {
			return
		}
		parts = append(parts, w)
	})
	return strings.Join(parts, " ")
}

// Words calls fn for every word of s — a run of letters and digits,
// lower-cased — and says whether it is Hangul. It is the tokeniser's first
// half; Term is the second. A caller that sees the same words again and
// again (the index rebuild at open) can remember Term's answer per word.
func Words(s string, fn func(w string, hangul bool)) { eachWord(s, fn) }

// Term is the index term of one word from Words, or false for a stop word,
// a particle alone or a single Latin letter.
func Term(w string, hangul bool) (string, bool) { return term(w, hangul) }

// eachWord calls fn for every run of letters and digits in s, lower-cased.
// A run is split where the script changes between Hangul and anything else,
// so "memtrace의" yields "memtrace" and "의".
//
// It lowers word by word (rune by rune, as strings.ToLower does), so a word
// with no capital letters is passed as a substring of s: lowering the whole
// text first cost an allocation and a copy of every Korean text.
func eachWord(s string, fn func(w string, hangul bool)) {
	start := -1
	startHangul, upper := false, false
	initial := true // the next word opens a sentence
	emit := func(w string, rest string) {
		if upper && !(w == monthMay && (!initial || startsWithDigit(rest))) {
			w = strings.ToLower(w)
		}
		fn(w, startHangul)
	}
	for i, r := range s {
		lr := r
		if r >= utf8.RuneSelf || ('A' <= r && r <= 'Z') {
			lr = unicode.ToLower(r)
		}
		var isWord bool
		if lr < utf8.RuneSelf {
			isWord = ('a' <= lr && lr <= 'z') || ('0' <= lr && lr <= '9')
		} else {
			isWord = unicode.IsLetter(lr) || unicode.IsDigit(lr)
		}
		h := isHangul(lr)
		if start >= 0 && (!isWord || h != startHangul) {
			emit(s[start:i], s[i:])
			start = -1
			initial = false
		}
		if !isWord {
			switch r {
			case '.', '!', '?', '\n', ':', '"', '(':
				initial = true
			}
		}
		if isWord && start < 0 {
			start, startHangul, upper = i, h, false
		}
		if isWord && lr != r {
			upper = true
		}
	}
	if start >= 0 {
		emit(s[start:], "")
	}
}

// term is the index term of w: stableTerm after the irregular-verb table
// ("bought" → "buy", irregular.go), its stem conflated (Conflate). The
// month "May" reaches it unlowered (eachWord) and is the term "may", which
// the modal "may" (a stop word) never becomes.
func term(w string, hangul bool) (string, bool) {
	if hangul {
		return stableTerm(w, hangul)
	}
	if w == monthMay {
		return "may", true
	}
	if base, ok := irregularEN[w]; ok {
		w = base
	}
	t, ok := stableTerm(w, hangul)
	if ok {
		t = Conflate(w, t)
	}
	return t, ok
}

// startsWithDigit reports whether s, after spaces, begins with a digit
// ("May 3": the month even when it opens a sentence).
func startsWithDigit(s string) bool {
	s = strings.TrimLeft(s, " ")
	return s != "" && '0' <= s[0] && s[0] <= '9'
}

// monthMay is the one word eachWord passes as written: a capitalised "May"
// that does not open a sentence, or is followed by a number, names the
// month ("we met in May", "May 3");
// lower-case or sentence-initial, "may" is the modal verb.
const monthMay = "May"

// Conflate folds the Porter2 stems of one English word family that Porter2
// leaves apart onto one term, for search and ranking (Tokens, QueryTerms):
// an adjective in "-ic"
// whose stem Porter2 cut to the bare root takes the noun's "-y"
// ("allergic" → "allergy" as "allergies", "ironic" → "irony"; "music" and
// "public" keep their stem, "artistic" is "artist"); and a final "e" that
// Stem kept goes where Porter2 drops it (dropE: "approve", "approved" and
// "approval" are "approv"; measured on LoCoMo: pipeline R@5/10/25/50
// 0.684/0.769/0.834/0.858 → 0.689/0.772/0.838/0.863). StableTokens does
// not conflate: what a database stores derived from text keeps reading the
// same.
func Conflate(w, t string) string {
	n := len(t)
	if !isASCIILetters(t) {
		return t
	}
	switch {
	case len(w) >= 6 && strings.HasSuffix(w, "ic") && len(w) == n+2 && !strings.HasSuffix(t, "ist"):
		return t + "y"
	case n > 3 && t[n-1] == 'e':
		return dropE(w, t)
	}
	return t
}

// dropE is the term of a word whose stem kept its final "e" (Stem keeps
// it; Porter2 proper would drop it): the stem without it, so that
// "approve" meets "approved" and "approval" ("approv"), "dance" meets
// "dancing". A final "e" Porter2 itself keeps stays ("hike", as "hiking"
// gives). Remembered per word: Porter2 is most of tokenising.
func dropE(w, t string) string {
	if u, ok := dropECache.Load(w); ok {
		return u.(string)
	}
	u := readable(porter2(w, false))
	if u == "" {
		u = t
	}
	if dropECacheSize.Load() < termCacheMax {
		if _, loaded := dropECache.LoadOrStore(strings.Clone(w), strings.Clone(u)); !loaded {
			dropECacheSize.Add(1)
		}
	}
	return u
}

var (
	dropECache     sync.Map // word → term
	dropECacheSize atomic.Int64
)

// stableTerm is the term of w without the irregular-verb table: the
// tokenisation that derived data stored in a database was built with
// (StableTokens).
func stableTerm(w string, hangul bool) (string, bool) {
	if t, ok := termCache.Load(termKey{w, hangul}); ok {
		t := t.(cachedTerm)
		return t.term, t.ok
	}
	term, ok := stableTermOf(w, hangul)
	if termCacheSize.Load() < termCacheMax {
		// Copies, so that the cache holds no text it was handed.
		if _, loaded := termCache.LoadOrStore(termKey{strings.Clone(w), hangul}, cachedTerm{strings.Clone(term), ok}); !loaded {
			termCacheSize.Add(1)
		}
	}
	return term, ok
}

// The terms of the words seen so far, up to termCacheMax words (a few MB):
// stemming is most of tokenising, and text repeats its words.
var (
	termCache     sync.Map // termKey → cachedTerm
	termCacheSize atomic.Int64
)

const termCacheMax = 1 << 17

type termKey struct {
	w      string
	hangul bool
}

type cachedTerm struct {
	term string
	ok   bool
}

// stableTermOf is stableTerm without the cache.
func stableTermOf(w string, hangul bool) (string, bool) {
	if hangul {
		if IsStopWord(w) {
			return "", false
		}
		base := stripKorean(w)
		if base == "" || IsStopWord(base) {
			return "", false
		}
		return base, true
	}
	if IsStopWord(w) {
		return "", false
	}
	if utf8.RuneCountInString(w) == 1 && !unicode.IsDigit(rune(w[0])) && w[0] < utf8.RuneSelf {
		return "", false // single Latin letters carry no meaning on their own
	}
	return Stem(w), true
}

func isHangul(r rune) bool {
	return (r >= 0xAC00 && r <= 0xD7A3) || (r >= 0x1100 && r <= 0x11FF) || (r >= 0x3130 && r <= 0x318F)
}

// koSuffixes are particles and common verb endings, longest first. A suffix
// is stripped only when at least minStem syllables remain: one-syllable
// particles need two syllables left ("사과" keeps its 과, "사과가" loses 가),
// longer endings need one ("맛있었어" → "맛있").
var koSuffixes = func() []string {
	list := []string{
		// verb and adjective endings
		"었습니다", "았습니다", "했습니다", "하였다", "었어요", "았어요", "했어요", "였어요",
		"합니다", "습니다", "입니다", "이에요", "예요", "해줘요", "해주세요", "주세요",
		"었는데", "았는데", "했는데", "는데요", "었어", "았어", "했어", "였어", "었지", "았지", "했지",
		"었다", "았다", "했다", "였다", "해요", "어요", "아요", "네요", "군요", "지요", "죠",
		"하고", "해서", "해줘", "했던", "하는", "하던", "한테", "에게", "에서", "으로", "부터",
		"까지", "처럼", "보다", "이랑", "하고", "에는", "에도", "으로는", "로는", "에서는", "께서",
		"이라고", "라고", "이다", "이야", "이지", "인데", "이고",
		// one-syllable particles
		"은", "는", "이", "가", "을", "를", "의", "에", "도", "만", "과", "와", "로", "랑", "야", "요",
	}
	return list
}()

// looseParticles are one-syllable particles that almost never end a noun,
// so they are stripped even from a two-syllable word ("시에" → "시").
var looseParticles = map[string]bool{"를": true, "은": true, "는": true, "에": true}

func stripKorean(w string) string {
	n := utf8.RuneCountInString(w)
	for _, suf := range koSuffixes {
		if !strings.HasSuffix(w, suf) {
			continue
		}
		sl := utf8.RuneCountInString(suf)
		minStem := 1
		if sl == 1 && !looseParticles[suf] {
			minStem = 2
		}
		if n-sl >= minStem {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

func isASCIILetters(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// Memo numbers the terms of many texts, turning each distinct word into its
// term number once: a word's term (stemming, particle stripping) and its
// number are the cost of tokenising, and text repeats its words (Zipf). The
// zero Memo is ready; it is not safe for concurrent use.
type Memo struct {
	words map[string]int32 // word → term number, -1: no term
}

// memoLimit bounds a Memo: past it the memo starts over.
const memoLimit = 1 << 18

// Nos appends to dst the numbers no gives the terms of text's words (Words,
// Term), in order, and returns it.
func (m *Memo) Nos(dst []int32, text string, no func(term string) int32) []int32 {
	if m.words == nil {
		m.words = make(map[string]int32, 1<<14)
	}
	Words(text, func(w string, hangul bool) {
		n, hit := m.words[w]
		if !hit {
			n = -1
			if t, ok := Term(w, hangul); ok {
				n = no(t)
			}
			if len(m.words) >= memoLimit {
				clear(m.words)
			}
			m.words[strings.Clone(w)] = n
		}
		if n >= 0 {
			dst = append(dst, n)
		}
	})
	return dst
}
