package capture

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reading whose and which thing a change is about from the sentence's
// structure (issue 29), beside supersede_topic.go:
//
//   - head nouns: a change of a thing's value ("The gym raised prices",
//     "김밥집 가격 올랐어요", "Pebblenote is now Quillbox") is about the
//     head noun before the marker; with none (the speaker, a person: "I
//     dropped by", "my son was raised in Busan") it names no subject;
//   - guards in the marker's sentence up to the marker's clause: "I quit
//     the Spanish lessons, … and I never found another one" is no
//     addition — the "another" is a later clause's;
//   - people across the two scripts: 엄마 and Mom, 아들 and son are one
//     person word, so "엄마 … 이사하셨어요" is about "Mom lives in Gimcheon".

// headNouns are the content terms of head (the words before a marker,
// after any colon) that name a thing: without person words, names of
// people, the speaker, and time or place adjuncts.
func headNouns(head string) []string { return topicTerms(headPhrase(head)) }

// headPhrase is the words of head that headNouns reads its terms from.
func headPhrase(head string) string {
	var kept []string
	for _, w := range strings.Fields(head) {
		lw := strings.ToLower(strings.Trim(w, ",.!?\"'()"))
		if clauseOpener[lw] {
			kept = kept[:0] // "I quit pottery because the rent went up": the rent's clause
			continue
		}
		if npEnd[lw] && len(kept) > 0 {
			// A preposition ends the head noun phrase: "the rent on my
			// apartment went up" changes the rent, not the apartment.
			break
		}
		if selfWords[lw] || hasHangulSuffix(w, koAdjunct) || isAdverb(w) || matchAny(" "+lw+" ", personWords) != "" {
			continue
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, " ")
}

// clauseOpener are the words that open a clause of their own inside a
// sentence: a head noun is in its verb's clause.
var clauseOpener = map[string]bool{"because": true, "since": true, "so": true, "and": true, "but": true, "when": true,
	"while": true, "although": true, "though": true, "that": true, "which": true, "who": true, "cause": true, "coz": true}

// upToClause is sentence up to the end of clause (the whole sentence when
// clause is not in it): the part a guard is read in.
func upToClause(sentence, clause string) string {
	if i := strings.Index(sentence, clause); i >= 0 {
		return sentence[:i+len(clause)]
	}
	return sentence
}

// personGroups are the person words that name one relation in English
// and Korean (the stems of personWords).
var personGroups = [][]string{
	{"mom", "mother", "엄마", "어머니"}, {"dad", "father", "아빠", "아버지"},
	{"wife", "spouse", "아내", "와이프"}, {"husband", "spouse", "남편"},
	{"son", "아들"}, {"daughter", "딸"}, {"kid", "kids", "아들", "딸"},
	{"brother", "형", "오빠", "남동생", "동생"}, {"sister", "누나", "언니", "여동생", "동생"},
	{"friend", "친구"}, {"colleague", "동료"}, {"girlfriend", "여자친구"}, {"boyfriend", "남자친구"},
}

// samePerson: person words a and b name one relation (equal, or in one
// group across the scripts).
func samePerson(a, b string) bool {
	a, b = personBase(a), personBase(b)
	if a == b {
		return true
	}
	for _, g := range personGroups {
		if slices.Contains(g, a) && slices.Contains(g, b) {
			return true
		}
	}
	return false
}

// namesPerson: norm (an older memory's, lexNorm'd) names person p, in
// either script.
func namesPerson(norm string, p string) bool {
	if strings.Contains(norm, " "+p) || personBase(p) != p && strings.Contains(norm, " "+personBase(p)) { // 딸이 ~ 딸은
		return true
	}
	for _, g := range personGroups {
		if !slices.Contains(g, p) {
			continue
		}
		for _, q := range g {
			if q != p && (isHangulWord(q) && strings.Contains(norm, " "+q) || hasWord(norm, q, true)) {
				return true
			}
		}
	}
	return false
}

// hangulTail: w ends in a Hangul syllable or jamo (ㅋㅋ, ㅠ).
func hangulTail(w string) bool {
	r, _ := utf8.DecodeLastRuneInString(w)
	return unicode.Is(unicode.Hangul, r)
}

// latinWord: w is written in Latin letters, digits and punctuation only.
func latinWord(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool { return r >= unicode.MaxLatin1 }) < 0 && strings.IndexFunc(w, unicode.IsLetter) >= 0
}

// scriptSwitch splits a code-switched clause where a Korean part ends and
// an English clause of three words or more runs to its end ("드디어 신림
// 원룸 탈출 ㅋㅋ moved into a two-room in Guro"): the English verb's subject
// is not the Korean words before it. A Latin name inside Korean ("Sapporo
// 여행 cancel됐어요") is no switch.
func scriptSwitch(c string) []string {
	words := strings.Fields(c)
	for i := 1; i+2 < len(words); i++ {
		if !hangulTail(words[i-1]) || !latinWord(words[i]) {
			continue
		}
		rest := words[i:]
		if slices.ContainsFunc(rest, func(w string) bool { return !latinWord(w) }) {
			continue
		}
		return []string{strings.Join(words[:i], " "), strings.Join(rest, " ")}
	}
	return []string{c}
}

// jobRE: the frame of a job, "I'm a/an ROLE at/for ORG", "I work as a ROLE"
// (lexNorm'd): the speaker's employer is named by the sentence's
// structure, whatever the role ("I'm an air traffic controller at Gimpo",
// "I'm a backend dev at Musinsa"), so a later "joined Daangn", "이직했어요"
// or "my final shift" replaces it.
var jobRE = regexp.MustCompile(` (?:i'm|i am|im) (?:an?|the) (?:[\pL\d'-]+ ){0,3}?(?:at|for) [\pL\d]| i work as (?:an?|the) `)

// jobFrame: norm (lexNorm'd) states the speaker's job in jobRE's frame.
func jobFrame(norm string) bool {
	if !strings.Contains(norm, " i'm ") && !strings.Contains(norm, " i am ") && !strings.Contains(norm, " im ") &&
		!strings.Contains(norm, " work as ") {
		return false
	}
	return jobRE.MatchString(norm)
}

// nameParticles are the Korean particles after a Latin name that make it
// a person the clause is about ("Hana는", "Theo가", "Hana랑"); "Aurora라는
// 이름" (named Aurora) names a thing.
var nameParticles = map[string]bool{"은": true, "는": true, "이": true, "가": true, "도": true, "랑": true, "이랑": true,
	"하고": true, "와": true, "과": true, "한테": true, "의": true, "네": true}

// thingName: w is a Latin word with a Korean particle that is none of a
// person's (라는, 로, 에서 …).
func thingName(w string) bool {
	i := strings.IndexFunc(w, func(r rune) bool { return unicode.Is(unicode.Hangul, r) })
	if i <= 0 || !latinWord(w[:i]) {
		return false
	}
	return !nameParticles[w[i:]]
}

// differentOther: "another" as a change's destination or setting ("moved
// to another team", "at another company") is a different one, not an
// additional one; the addition guard does not read it.
var differentOther = regexp.MustCompile(`(?i)\b(to|into|for|in|at|with|joined)\s+another\b`)

// personBase is person word w without the Korean particle personWords
// spells it with ("형은", "딸이", "형도" → 형, 딸, 형).
func personBase(w string) string {
	for _, p := range []string{"은", "는", "이", "가", "도", "의"} {
		if t, ok := strings.CutSuffix(w, p); ok && utf8.RuneCountInString(t) == 1 && matchAny(" "+t+" ", personWords) != "" {
			return t
		}
	}
	return w
}

// partnerWords name the speaker's partner: a short statement that names
// one ("남자친구 준서는 요리사예요") is the fact a breakup or a wedding replaces.
var partnerWords = []string{"girlfriend", "boyfriend", "wife", "husband", "fiancé", "fiancée", "fiance", "fiancee", "partner",
	"여자친구*", "남자친구*", "여친*", "남친*", "아내*", "와이프*", "남편*", "약혼자*"}

// koFunction1 are one-syllable Korean words that carry no subject (bound
// nouns, counters, adverbs).
var koFunction1 = map[string]bool{"것": true, "거": true, "걸": true, "수": true, "때": true, "중": true, "번": true, "분": true,
	"개": true, "건": true, "게": true, "데": true, "등": true, "뭐": true, "왜": true, "다": true, "또": true, "꼭": true,
	"잘": true, "안": true, "못": true, "더": true, "좀": true, "딱": true, "막": true, "쭉": true, "한": true, "두": true, "세": true,
	"네": true, "그": true, "이": true, "저": true, "나": true, "너": true, "날": true, "제": true, "내": true, "해": true, "했": true}

// koNoun1: w is a one-syllable Korean noun that may be a change's topic
// ("술 이제 안 해요", "차 바꿨어").
func koNoun1(w string) bool {
	r, size := utf8.DecodeRuneInString(w)
	return size == len(w) && r >= 0xAC00 && r <= 0xD7A3 && !koFunction1[w]
}

// koPluralSubjects are the plural nouns of a Korean head in the case of
// its subject or topic ("테니스 치는 사람들이", "애들은"): the plural 들
// with 이/가/은/는 names people other than the speaker, whose change it is
// ("우리들은" is the speaker).
func koPluralSubjects(head string) []string {
	var out []string
	for _, w := range strings.Fields(head) {
		w = strings.Trim(w, ",.!?\"'()")
		for _, p := range []string{"들이", "들은", "들도", "들가", "들는"} {
			if t, ok := strings.CutSuffix(w, p); ok && t != "" && isHangul(t) && !selfWords[t] && t != "우리" && t != "저희" {
				out = append(out, t+"들")
			}
		}
	}
	return out
}
