package capture

// Finding the lesson inside a message (lessonText): the sentences and
// clauses that prescribe, without the status talk, recounting, openers and
// reasons around them. The canonicaliser that keys what it finds is
// lessonkey.go.

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lessonText is the part of a message that states its lesson: the
// sentences that prescribe (a lesson marker or negator, a modal — should,
// must, need, 해야 — or an imperative: an English sentence that opens with
// a base verb, a Korean one that ends in a request or command form); a
// message none of whose sentences prescribes is read whole. So in a status
// update only the corrective sentence keys the lesson, and a reason added
// after it ("4칸은 너무 넓어", "I can't track them" in its own sentence) does
// not.
func lessonText(text string) string {
	// A question mark standing alone between words is an operator
	// (Rust's "?", "lib 코드에선 ? 써서 …"), not a sentence end: a
	// question's mark follows its last word.
	if strings.Contains(text, " ? ") {
		return strings.ReplaceAll(lessonTextOf(strings.ReplaceAll(text, " ? ", " "+loneQuestion+" ")), loneQuestion, "?")
	}
	return lessonTextOf(text)
}

// loneQuestion holds a lone "?" while lessonText cuts sentences.
const loneQuestion = "\ue000"

func lessonTextOf(text string) string {
	ss := splitSentences(text)
	var keep []string
	for _, s := range ss {
		if len(ss) > 1 {
			s = fromRule(s)
		}
		if prescribes(s) || clausePrescribes(s) {
			keep = append(keep, dropOpeners(trimLeadingContext(trimReasons(s))))
		}
	}
	if len(keep) == 0 {
		return strings.TrimSpace(strings.Join(ss, ". "))
	}
	return strings.Join(keep, ". ")
}

// splitAtLaughter cuts a chat sentence at a run of Hangul jamo used as
// laughter or tears (ㅋㅋ, ㅎㅎ, ㅠㅠ) followed by more text: Korean chat
// ends a sentence with it instead of a period ("test도 다 green이에요 ㅎㅎ
// btw … 써주세요" is two sentences).
func splitAtLaughter(s string) []string {
	var out []string
	f := strings.Fields(s)
	start := 0
	for i, w := range f {
		if i == 0 || i == len(f)-1 || !jamoRun(w) {
			continue
		}
		out = append(out, strings.Join(f[start:i+1], " "))
		start = i + 1
	}
	if start < len(f) {
		out = append(out, strings.Join(f[start:], " "))
	}
	return out
}

// fromRule is a chat sentence of a longer message from its first part
// (cut at laughter, splitAtLaughter) that prescribes: the status talk
// before it ("telemetry parser 거의 끝났고 … ㅎㅎ") is not the rule, what
// follows it ("var 금지요 ㅋㅋ const 기본, let은 …") elaborates it. A
// message of one sentence is all about its rule: a complaint before it
// ("set -euo pipefail 빠졌어요 ㅠ 항상 첫 줄에 넣어주세요") names its object.
func fromRule(s string) string {
	parts := splitAtLaughter(s)
	for i, p := range parts {
		if prescribes(p) || clausePrescribes(p) {
			if i == 0 {
				return s
			}
			return strings.Join(parts[i:], " ")
		}
	}
	return s
}

// dropOpeners cuts the chat openers a lesson sentence starts with ("btw",
// "also —", "oh and").
func dropOpeners(s string) string {
	for {
		f := strings.Fields(s)
		if len(f) < 2 || !discourseOnly(strings.Fields(lexNorm(f[0]))) {
			return s
		}
		s = strings.TrimLeftFunc(strings.TrimSpace(s[strings.Index(s, f[0])+len(f[0]):]), func(r rune) bool {
			return unicode.IsSpace(r) || strings.ContainsRune(",—–-", r)
		})
	}
}

// jamoRun reports whether a written word is only Hangul jamo (and
// trailing punctuation): ㅋㅋ, ㅎㅎ, ㅠㅠ, ㅜ.
func jamoRun(w string) bool {
	w = strings.TrimRightFunc(w, unicode.IsPunct)
	if w == "" {
		return false
	}
	for _, r := range w {
		if r < 0x3131 || r > 0x318E {
			return false
		}
	}
	return true
}

// clausePrescribes reports whether a clause after the first of a sentence
// (cut at , ; — :) prescribes: "in the README you wrote docker-compose up
// again; it's docker compose now, use that everywhere" states its rule in
// its last clause.
//
// The first clause counts too when the sentence has more than one: a
// Korean request ending closes it ("duration은 그냥 minutes로 적어줘요, 2.25
// hours 이런 거 헷갈려요" states its rule first and its complaint after).
func clausePrescribes(s string) bool {
	cls := ruleClauses(s)
	if len(cls) < 2 {
		return false
	}
	for _, cl := range cls {
		if prescribes(cl) {
			return true
		}
	}
	return false
}

// ruleClauses cuts a sentence at , ; — – : (not inside a word: "14:30").
func ruleClauses(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if strings.ContainsRune(",;—–", r) || r == ':' && (i+1 >= len(s) || s[i+1] == ' ') {
			out = append(out, s[start:i])
			start = i + utf8.RuneLen(r)
		}
	}
	return append(out, s[start:])
}

// trimLeadingContext cuts from a prescribing sentence the clauses before
// its rule that only recount what happened: a clause that does not
// prescribe and reads as a past or reproachful statement ("btw 아까 날씨
// 알려줄 때 Fahrenheit로 말했잖아, 앞으로 …", "you wrote docker-compose
// again, …"), while a later clause prescribes. The rule's own leading
// clause ("For plain data holders in Python use a dataclass, not a
// dict") is no statement and stays.
func trimLeadingContext(s string) string {
	cls := ruleClauses(s)
	cut := 0
	for i := 0; i < len(cls)-1; i++ {
		cl := strings.TrimSpace(cls[i])
		words := strings.Fields(lexNorm(cl))
		if len(words) == 0 || prescribes(cl) || !recounts(words) && !discourseOnly(words) {
			break
		}
		cut = i + 1
	}
	if cut == 0 {
		return s
	}
	rest := strings.Join(cls[cut:], ",")
	for i := cut; i < len(cls); i++ {
		if prescribes(cls[i]) {
			return strings.TrimSpace(rest)
		}
	}
	return s
}

// recounts reports whether a clause's words recount rather than prescribe:
// a Korean clause ending in a past or reproachful form (말했잖아, 붙였네,
// 나왔어, 했는데), an English clause with a subject and a past verb ("you
// wrote …", "it broke …").
func recounts(words []string) bool {
	last := words[len(words)-1]
	if isHangul(last) {
		for _, end := range []string{"잖아", "잖아요", "었어", "았어", "였어", "했어", "었네", "았네", "였네", "했네", "는데", "었는데", "았는데", "했는데", "었어요", "았어요", "했어요", "네요"} {
			if strings.HasSuffix(last, end) {
				return true
			}
		}
		return false
	}
	for i, w := range words[:len(words)-1] {
		if reasonOpeners[w] || w == "you" || w == "we" {
			v := words[i+1]
			return len(v) > 3 && strings.HasSuffix(v, "ed") || pastVerbs[v]
		}
	}
	return false
}

// discourseOnly reports whether a clause is only chat openers ("Also",
// "btw", "oh and").
func discourseOnly(words []string) bool {
	for _, w := range words {
		switch w {
		case "also", "btw", "oh", "and", "anyway", "so", "ok", "okay", "그리고", "아", "근데":
		default:
			return false
		}
	}
	return true
}

var pastVerbs = map[string]bool{"wrote": true, "gave": true, "made": true, "put": true, "said": true, "used": true, "did": true, "forgot": true, "broke": true, "left": true, "told": true, "sent": true, "ran": true}

// trimReasons cuts from a prescribing sentence the clauses after its rule
// that give a reason or context ("…, grep takes forever on node_modules",
// "…, it's a work chat not a birthday card", "빼줘요 🚀 이런거 너무 많아서 읽기
// 힘듦"). A clause ends at , ; — ! ? or an emoji; from the end, a clause is
// cut while it opens with a statement's subject or because (reasonOpeners),
// or is a statement of three words or more that does not prescribe (a
// subject and its finite verb: "grep takes", "reviewers keep"; a Korean
// nominalised ending: 힘듦, 폭발함). Elliptical clauses ("not 4", "slog.Info
// with key-value pairs", "one concern per PR") carry the rule's value and
// stay; the first clause always stays.
func trimReasons(s string) string {
	var starts []int
	for i, r := range s {
		if i > 0 && (strings.ContainsRune(",;—–!?", r) || unicode.Is(unicode.So, r)) {
			starts = append(starts, i)
		}
	}
	end := len(s)
	for i := len(starts) - 1; i >= 0; i-- {
		cl := strings.TrimLeftFunc(s[starts[i]:end], func(r rune) bool {
			return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.Is(unicode.So, r)
		})
		words := strings.Fields(lexNorm(cl))
		if len(words) == 0 || reasonOpeners[words[0]] || len(words) >= 3 && !prescribes(cl) && statement(words) {
			end = starts[i]
			continue
		}
		break
	}
	return strings.TrimSpace(s[:end])
}

// statement reports whether a clause's words read as a statement: an
// English subject followed by a finite verb, or a Korean clause ending in
// a nominalised form (-ㅁ/-음: 힘듦, 폭발함, 무시함).
func statement(words []string) bool {
	last := []rune(words[len(words)-1])
	if r := last[len(last)-1]; r >= 0xAC00 && r <= 0xD7A3 && (r-0xAC00)%28 == 16 {
		return true
	}
	switch words[0] {
	case "the", "a", "an", "our", "my", "your", "these", "those", "every", "all":
		words = words[1:] // "the reviewers keep asking": the subject's head
	}
	if len(words) < 2 || imperativeVerbs[words[0]] || isHangul(words[0]) {
		return false
	}
	v := words[1]
	return finiteVerbs[v] || len(v) > 4 && strings.HasSuffix(v, "es") || len(v) > 3 && strings.HasSuffix(v, "ed")
}

var finiteVerbs = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "keep": true, "keeps": true, "has": true, "have": true,
	"had": true, "get": true, "gets": true, "got": true, "take": true, "takes": true, "looks": true, "breaks": true,
	"broke": true, "goes": true, "does": true, "did": true, "can't": true, "cant": true, "won't": true, "will": true,
}

// reasonOpeners open a clause that explains rather than prescribes.
var reasonOpeners = map[string]bool{
	"it's": true, "its": true, "it": true, "that's": true, "thats": true, "this": true, "because": true,
	"since": true, "cause": true, "cuz": true, "coz": true, "i": true, "i'm": true, "im": true,
	"they": true, "there": true, "which": true, "왜냐하면": true, "왜냐면": true, "그래야": true,
}
