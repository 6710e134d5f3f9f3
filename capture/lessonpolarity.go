package capture

import (
	"regexp"
	"strings"
)

// Polarity beside the rule: what a complaint or statement next to a
// corrective sentence names (no polarity of its own), a negation that
// falls on a quotation, and a NOT that belongs to a code construct. The
// terms themselves are read in lessoncanon.go.

// aboutPrefix marks a term named only in a complaint or statement beside
// the rule ("pip 너무 느려요 ㅠ uv로 설치해줘", "The stack traces you paste are
// enormous — only show …"): what went wrong, or what the rule is about,
// with no polarity of its own — it matches a term of either polarity
// (polarityAgrees). An unread Korean word of such a clause is its
// predicate and no term.
const aboutPrefix = "re_"

// englishStatement reports whether an English clause is a statement: it
// opens with a subject pronoun or a reason's opener ("it's", "I", "they"),
// or a finite verb (is, are, keeps, takes …) stands among its first words
// after a subject ("the stack traces you paste are enormous") — not an
// imperative, whose first word is its verb ("round percentages to one
// decimal place": percentages is a plural, not a verb).
func englishStatement(words []string) bool {
	if len(words) < 3 || isHangul(words[0]) || imperativeVerbs[words[0]] {
		return false
	}
	if reasonOpeners[words[0]] || words[0] == "you" || words[0] == "we" {
		return true
	}
	for _, w := range words[1:min(len(words), 6)] {
		if finiteVerbs[w] {
			return true
		}
	}
	return false
}

// polarityAgrees reports whether two matched terms are said the same way:
// both forbidden, both prescribed, or one only named beside the rule.
func polarityAgrees(x, y string) bool {
	if strings.HasPrefix(x, aboutPrefix) || strings.HasPrefix(y, aboutPrefix) {
		return true
	}
	return strings.HasPrefix(x, notPrefix) == strings.HasPrefix(y, notPrefix)
}

// complains reports whether a clause that does not prescribe is a
// statement beside the rule: an English subject and finite verb, a
// recounting, or a Korean clause ending in a predicate (느려요, 깨졌어,
// 지옥이네, 힘듦) — not a topic or condition ("파이썬에서 데이터만 담는 건",
// "커밋할 때는").
func complains(cl string) bool {
	words := strings.Fields(lexNorm(cl))
	for len(words) > 0 && jamoRun(words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return false
	}
	if recounts(words) || englishStatement(words) {
		return true
	}
	last := words[len(words)-1]
	if !isHangul(last) || koCondition(last) {
		return false
	}
	for _, end := range []string{"요", "어", "아", "네", "다", "함", "음", "됨", "임", "져", "워"} {
		if strings.HasSuffix(last, end) {
			return true
		}
	}
	return false
}

// keywordNot is NOT between two upper-case keywords (SQL's IF NOT EXISTS,
// IS NOT NULL, NOT IN after a keyword): a construct the rule names, one
// term, not a negation of the rule ("don't add IF NOT EXISTS" forbids the
// construct "write migrations with IF NOT EXISTS" prescribes).
var keywordNot = regexp.MustCompile(`\b([A-Z]{2,}) NOT ([A-Z]{2,})\b`)

// codeNegation joins each keywordNot construct into one lower-case word
// (IF NOT EXISTS → ifnotexists).
func codeNegation(s string) string {
	if !strings.Contains(s, " NOT ") {
		return s
	}
	return keywordNot.ReplaceAllStringFunc(s, func(m string) string { return strings.ToLower(strings.ReplaceAll(m, " ", "")) })
}

// negateQuoted extends a negation that falls on a quoted word over the
// whole quotation: "No 'Best regards'", "don't open with 'Hey guys'",
// "'혼란을 드려 죄송합니다' 같은 말 빼고" forbid the phrase, not its first or
// last word. forward: the negated word opens the quotation (an English
// pre-negator), else it closes it (a Korean post-negator).
func negateQuoted(out []termMention, raw []string, at int, forward bool) {
	if at < 0 || at >= len(raw) {
		return
	}
	opens := func(w string) bool { return strings.ContainsAny(w[:min(len(w), 3)], "'\"‘“") }
	closes := func(w string) bool {
		w = strings.TrimRightFunc(w, func(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 || strings.ContainsRune(".,;:!?)", r) })
		return len(w) > 0 && strings.ContainsAny(w[max(0, len(w)-3):], "'\"’”")
	}
	from, to := at, at
	if forward {
		if !opens(raw[at]) || closes(raw[at]) {
			return
		}
		for to+1 < len(raw) && to-at < 8 {
			to++
			if closes(raw[to]) {
				break
			}
		}
		if !closes(raw[to]) {
			return
		}
	} else {
		if !closes(raw[at]) || opens(raw[at]) {
			return
		}
		for from > 0 && at-from < 8 {
			from--
			if opens(raw[from]) {
				break
			}
		}
		if !opens(raw[from]) {
			return
		}
	}
	for w := from; w <= to; w++ {
		negateWord(out, w)
	}
}
