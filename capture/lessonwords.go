package capture

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"memtrace/engine/textnorm"
	"memtrace/engine/wordnet"
)

// One word of a lesson to its canonical term: ranks, carriers, the
// glossary and WordNet lemma, Korean negation auxiliaries (lessoncanon.go
// reads the clauses that use them).

func bare(t string) string {
	return strings.TrimPrefix(strings.TrimPrefix(t, notPrefix), aboutPrefix)
}

// termRank orders the terms a key keeps when there are too many: a
// forbidden term or a name in Latin script that neither the glossary nor
// WordNet knows (a tool or identifier: pytest, dataclass, ctx — the rule's
// value) first, then known words, then the rest.
func termRank(t string) int {
	switch {
	case strings.HasPrefix(t, notPrefix), !isHangul(t) && !knownTerm(t):
		return 0
	case knownTerm(t):
		return 1
	}
	return 2
}

// knownTerm reports whether a term is in the glossary or WordNet.
func knownTerm(t string) bool {
	t = bare(t)
	if _, ok := glossary().en[t]; ok {
		return true
	}
	return !isHangul(t) && wordnet.Known(t)
}

// carrierTerms are the verbs that only carry a lesson's object (add,
// insert, include, put; 넣, 추가, 붙, 달): "이모지 넣지 마" and "no emojis"
// forbid the emoji, not the adding, so a carrier is no term and a
// negation next to it falls on its object — Korean puts the negation on
// the verb, English on the object.
// Writing and leaving carry their object too: "write durations in
// seconds" ~ "초 단위로 써줘" (쓰다 is a generic verb), "don't leave
// trailing whitespace" ~ "공백 남기지 마" forbids the whitespace.
var carrierTerms = map[string]bool{"add": true, "붙": true, "달": true, "give": true, "write": true, "적": true, "leave": true}

// carrierStems start a carrier's Korean forms (붙여줘, 달아줘, 적어줘,
// 남기지).
var carrierStems = []string{"붙이", "붙여", "달아", "적어", "남기", "남겨"}

func carrier(t string) bool {
	if carrierTerms[t] {
		return true
	}
	for _, p := range carrierStems {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// canonTerm is the canonical term of one word ("" to drop it).
func canonTerm(w string, hangul bool) string {
	if t := canonWord(w, hangul); !carrier(t) {
		return t
	}
	return ""
}

func canonWord(w string, hangul bool) string {
	skip := nonLessonTerms()
	if hangul {
		if textnorm.IsStopWord(w) || skip[w] || !keyTerm(w) {
			return ""
		}
		if forgetStem(w) {
			return "" // 까먹었어요, 잊어버리지: a forgetting verb (lessonremember.go)
		}
		if i := koNegatorInside(w); i > 0 {
			w = w[:i] // 하지말고 → 하, 넣지마 → 넣: the verb before the negation
		}
		if polarVerb(w, true) {
			return "" // 허용, 제외해줘, 꺼줘: the rule's polarity (lessonlexicon.go)
		}
		if g := glossKorean(w); g != "" {
			return g
		}
		if e := conceptKorean(w); e != "" {
			return e
		}
		base := koKeyStem(w) // 비밀번호는, 비밀번호야 → 비밀번호 (lessonkostem.go)
		if base == "" || textnorm.IsStopWord(base) || skip[base] || !keyTerm(base) {
			return ""
		}
		if g := glossKorean(base); g != "" {
			return g
		}
		return base
	}
	if _, num := numberWords[w]; num || skip[w] || textnorm.IsStopWord(w) || !keyTerm(w) || len(w) < 2 {
		return ""
	}
	if g, ok := glossary().en[w]; ok {
		return g
	}
	l := englishLemma(w)
	if skip[l] || textnorm.IsStopWord(l) || polarVerb(w, false) || polarVerb(l, false) {
		return "" // allow, forbid, excluded: the rule's polarity (lessonlexicon.go)
	}
	if g, ok := glossary().en[l]; ok {
		return g
	}
	return l
}

// titleBeforeName is a title before a name ("Mr. Kim", "Ms Park", "Dr.
// Lee"): it says how politely, not what the lesson is about, and "ms"
// alone is a unit (milliseconds).
var titleBeforeName = regexp.MustCompile(`\b(?:Mrs?|Ms|Dr|mrs?|ms|dr)\.\s*([A-Za-z가-힣])|\b(?:Mrs?|Ms|Dr) +([A-Z])`)

// unitSymbols are the written symbols of units, read as their words
// ("°C랑 km" names Celsius as "섭씨로" and "in Celsius" do).
var unitSymbols = strings.NewReplacer("°C", " celsius ", "℃", " celsius ", "°F", " fahrenheit ", "℉", " fahrenheit ", "°c", " celsius ", "°f", " fahrenheit ")

// formatPattern is a date or time format written in its placeholder
// letters (YYYY-MM-DD, DD/MM/YYYY, HH:mm): one value, read as one term in
// its order ("yyyymmdd", "ddmmyyyy"), so two formats are two values of one
// slot rather than the same three words.
var formatPattern = regexp.MustCompile(`\b(?:Y{2,4}|y{2,4}|M{1,2}|m{1,2}|D{1,2}|d{1,2}|H{1,2}|h{1,2}|s{2}|S{2})(?:[-/:.](?:Y{2,4}|y{2,4}|M{1,2}|m{1,2}|D{1,2}|d{1,2}|H{1,2}|h{1,2}|s{2}|S{2}))+\b`)

// koNegAux reports whether a Korean word is the negative auxiliary of a
// "-지 말다 / -지 않다" form (말고, 마, 마세요, 말아줘, 않게).
func koNegAux(w string) bool {
	for _, p := range []string{"말", "마", "않"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// koBeforeNegation is the verb stem of a Korean word written before a
// negative auxiliary: its connective -지 cut ("달지" → 달, "붙이지" → 붙이),
// so the stem is read as the verb it is (a carrier is dropped and the
// negation falls on the object, as in "넣지마").
func koBeforeNegation(w string) string {
	if s, ok := strings.CutSuffix(w, "지"); ok && s != "" && isHangul(s) {
		return s
	}
	return w
}

// koNegatorInside is where a negation written into a Korean word starts
// (하지말고, 넣지마: at 지), or -1.
func koNegatorInside(w string) int {
	for _, f := range []string{"지말", "지마"} {
		if i := strings.Index(w, f); i > 0 {
			return i
		}
	}
	return -1
}

// englishLemma is the shortest WordNet base form of w as a verb or noun
// (morphy: nesting → nest, files → file), else w itself — adjective and
// adverb detachment would make "after" "aft".
func englishLemma(w string) string {
	best := ""
	for _, pos := range []byte{'v', 'n'} {
		for _, l := range wordnet.Lemmas(w, pos) {
			if best == "" || len(l) < len(best) {
				best = l
			}
		}
	}
	if best == "" {
		return w
	}
	if best != w && len(best) < len(w) {
		// A base form may itself be inflected ("endings" → ending → end,
		// as "ending" reads): read it once more, so every form of one
		// word meets on one base.
		if again := englishLemma(best); len(again) < len(best) {
			return again
		}
	}
	return best
}

// hangulEnd reports whether s ends with a Hangul syllable (a Latin word
// with its Korean particle: "subject는").
func hangulEnd(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r >= 0xAC00 && r <= 0xD7A3
}

// isHangul reports whether s starts with a Hangul syllable.
func isHangul(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r >= 0xAC00 && r <= 0xD7A3
}
