package capture

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Two clauses joined without a comma, each with a subject of its own
// (issue 29): "my brother lives in Ulsan and I teach piano on weekends",
// "my wife is a pharmacist and our son plays the violin", "나 판교에서
// 일하고 여자친구는 수원에 살아", "회사는 강남인데 집은 일산이야". The
// connective (a bare "and"; a Korean verb's -고, -고 있고, the
// background ending -는데 / -은데 / -인데, or the contrast -지만) is a candidate boundary only
// where
//
//   - the clause before it has a predicate of its own (an English finite
//     verb, a Korean verb the connective ends) and at least three words
//     (two in Korean), so a coordinated subject ("my sister and I run …",
//     "엄마하고 나는 …") is never divided; and
//   - the clause after it opens with a new subject and its verb: an
//     English "I" or "we" after a clause the speaker does not open, a possessive
//     noun phrase ("my …", "our …") or a
//     capitalised name followed by a finite verb; a Korean word marked by
//     the contrastive topic 은/는, or a person word or name marked 이/가
//     ("비가 오고 바람이 불어": 바람이 is no one, and no boundary).
//
// A clause after the connective that repeats the subject ("I went to the
// market and bought …") has none and is no boundary. Whether a candidate
// part becomes a statement of its own is then decided as for any part
// (independentOf): another owner or another subject, not the same account.

// joinBoundaries are the [start, end) spans of s's bare connectives before
// a clause with its own subject (see above); the clause before keeps the
// connective's Korean ending, an English "and" is dropped.
func joinBoundaries(s string) [][]int {
	var out [][]int
	if strings.Contains(s, " and ") || strings.Contains(s, " And ") {
		out = append(out, enJoins(s)...)
	}
	if hasHangul(s) {
		out = append(out, koJoins(s)...)
	}
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}

// mayJoin is joinBoundaries' cheap test: a bare " and ", or a Korean word
// ending in -고 / -데 / -지만 before another word.
func mayJoin(s string) bool {
	return (strings.Contains(s, " and ") || strings.Contains(s, " And ") || strings.Contains(s, "고 ") || strings.Contains(s, "데 ") || strings.Contains(s, "지만 ")) &&
		len(joinBoundaries(s)) > 0
}

// enJoins: the English half of joinBoundaries.
func enJoins(s string) [][]int {
	var out [][]int
	start := 0
	lower := strings.ToLower(s) // ASCII "and" keeps its offsets
	if len(lower) != len(s) {
		lower = s
	}
	for i := 0; i < len(s); {
		j := strings.Index(lower[i:], " and ")
		if j < 0 {
			break
		}
		at := i + j
		i = at + len(" and ")
		before := s[start:at]
		if k := strings.LastIndexAny(before, ",;:.!?"); k >= 0 {
			before = before[k+1:] // the clause the connective ends
		}
		if len(strings.Fields(before)) < 3 || !enVerbCue(before) || strings.HasSuffix(strings.TrimSpace(before), ",") {
			continue
		}
		after := s[at+len(" and "):]
		if !enSubjectVerb(after) || speakerOpens(after) && speakerOpens(strings.TrimSpace(before)) {
			continue // "We moved to Seoul and we live in Mapo now": the speaker goes on (clauseBoundary reads "and I'm …")
		}
		out = append(out, []int{at, at + len(" and")})
		start = at + len(" and ")
	}
	return out
}

// enSubjectVerb: English text opens with a subject of its own and its
// finite verb — "I teach", "we rent", "my brother lives", "our son
// plays", "Minji works" — not a verb whose subject is left out ("bought
// some apples") nor a pronoun that points back ("he rides it").
func enSubjectVerb(text string) bool {
	raw := strings.Fields(text)
	words := strings.Fields(lexNorm(text))
	if len(words) < 2 || len(raw) < 2 {
		return false
	}
	switch words[0] {
	case "i'm", "i’m", "i've", "i’ve", "we're", "we’re", "we've", "we’ve":
		return true
	case "i", "we":
		return !nounOpener[words[1]] // "I teach …", "we rent …"
	case "my", "our":
		for k := 2; k < min(len(words), 5); k++ {
			if finiteVerb(words[k]) {
				return true
			}
			if nounOpener[words[k]] && words[k] != "and" {
				return false
			}
		}
		return false
	}
	if r, _ := utf8.DecodeRuneInString(raw[0]); unicode.IsUpper(r) && words[0] != "and" && !textnormStop(words[0]) {
		for k := 1; k < min(len(words), 3); k++ {
			if finiteVerb(words[k]) {
				return true // "Minji works …", "Jae Kim lives …"
			}
		}
	}
	return false
}

// finiteVerb: an English word that reads as the finite verb after a
// subject — a copula or auxiliary, a present -s form, a common present
// verb, or a past form.
func finiteVerb(w string) bool {
	switch w {
	case "is", "are", "was", "were", "has", "have", "had", "does", "did", "will", "can", "'s":
		return true
	}
	return presentVerb[w] || presentS(w) || irregularPast[w] || len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed")
}

// textnormStop: a capitalised sentence word that is no name ("The",
// "This", "On").
func textnormStop(w string) bool {
	return nounOpener[w] || pointsBack[w] || anaphor[w] || w == "this" || w == "these" || w == "then"
}

// koJoins: the Korean half of joinBoundaries.
func koJoins(s string) [][]int {
	var out [][]int
	words := wordSpans(s)
	last := 0 // the first word of the clause the connective ends
	for k := 0; k+1 < len(words); k++ {
		w := strings.TrimRightFunc(s[words[k][0]:words[k][1]], func(r rune) bool { return !isHangulRune(r) })
		if w != s[words[k][0]:words[k][1]] || !koConnective(w) || k-last < 1 {
			continue // a comma or a mark after the word: the other boundaries read it
		}
		next := s[words[k+1][0]:words[k+1][1]]
		if k+2 >= len(words) || !koNewSubject(next, s[words[k+2][0]:words[k+2][1]]) {
			continue
		}
		out = append(out, []int{words[k][1], words[k+1][0]})
		last = k + 1
	}
	return out
}

// koConnective: a Korean word is a verb or adjective ending in the
// connective -고 (일하고, 있고, 배우고; a person's 하고 "with" aside) or the
// background ending -는데 / -은데 / -인데. The copula's 이고 has its own
// boundary (clauseBoundary).
func koConnective(w string) bool {
	if utf8.RuneCountInString(w) < 2 {
		return false
	}
	switch {
	case strings.HasSuffix(w, "이고"):
		return false
	case strings.HasSuffix(w, "하고"):
		stem := strings.TrimSuffix(w, "하고")
		return stem != "" && matchAny(" "+stem+" ", personWords) == "" && personBase(stem) == stem && !koNamed(stem)
	case strings.HasSuffix(w, "고"):
		return true
	}
	for _, e := range []string{"는데", "은데", "인데", "지만"} { // -지만: a contrast of two subjects ("형은 결혼했지만 나는 …")
		if strings.HasSuffix(w, e) && utf8.RuneCountInString(w) > 2 {
			return true
		}
	}
	return false
}

// koNamed: a Korean word is a given name ("민지").
func koNamed(w string) bool {
	n, _ := koName(w + "하고")
	return n != ""
}

// koNewSubject: a Korean word opens a clause with a subject of its own —
// marked by the contrastive topic 은/는, or a person word or name marked
// 이/가 (바람이, 물가가 are no one). A verb's adnominal -는 / -은 before
// the noun it modifies ("먹는 거", "사는 곳") is no topic: next, the word
// after w, is not a bound noun.
func koNewSubject(w, next string) bool {
	w = strings.TrimRightFunc(w, func(r rune) bool { return !isHangulRune(r) })
	if utf8.RuneCountInString(w) < 2 || !isHangulWord(w) || koAdverbI[w] {
		return false
	}
	if strings.HasSuffix(w, "은") || strings.HasSuffix(w, "는") {
		if koBoundNoun[strings.TrimRightFunc(next, func(r rune) bool { return !isHangulRune(r) })] {
			return false
		}
		return !strings.HasSuffix(w, "하는") && !strings.HasSuffix(w, "있는") && !strings.HasSuffix(w, "없는") && !strings.HasSuffix(w, "되는")
	}
	if strings.HasSuffix(w, "이") || strings.HasSuffix(w, "가") {
		base := personBase(w)
		return base != w && matchAny(" "+base+" ", personWords) != "" || koNamed(strings.TrimSuffix(strings.TrimSuffix(w, "이"), "가"))
	}
	return false
}

// wordSpans are the [start, end) byte spans of s's space-separated words.
func wordSpans(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, [2]int{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// koBoundNoun: nouns an adnominal verb form modifies ("먹는 거", "사는 곳").
var koBoundNoun = map[string]bool{"거": true, "것": true, "게": true, "건": true, "걸": true, "곳": true, "데": true, "때": true,
	"중": true, "날": true, "사람": true, "분": true, "줄": true, "수": true, "적": true, "편": true, "동안": true, "길": true}
