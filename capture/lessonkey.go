package capture

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"memtrace/engine"
	"memtrace/engine/textnorm"
)

// The rule-based lesson canonicaliser. A lesson is read from its
// corrective sentences (lessonText). When they name a convention of the
// bilingual concept table specifically enough (lessonSig.keyed), the lesson
// is keyed by its signature ("concept:spaces" for "don't use tabs",
// "concept:answer+korean", "concept:indent+spaces+value_2"; lessonsig.go)
// and counted under a
// recorded lesson with the same signature, or one that names one subject
// more or less and prescribes nothing different (compareSigs). Any other
// lesson is keyed by its canonical terms with their polarity
// ("terms:call+jun+not_kim", "terms:not_grep+rg+search"), read by the
// canonicaliser of lessoncanon.go:
//
//  1. the words of each clause, negation read per clause (not_ + term);
//  2. without the words that only say it is a correction or how politely —
//     the lesson markers (don't, stop, never, always, please, just, instead,
//     not, no …; 하지 마, 말고, 항상, 앞으로, 그냥, 제발 …), generic verbs
//     (use, do, make; 쓰다, 하다 forms) and titles (Mr., Mrs., Ms., Dr.) —
//     and without numbers (digits or number words), any token holding a
//     digit (hex ids, versions from a pasted log) or a lone jamo (ㅠ, ㅋㅋ);
//  3. each word to its canonical term (the bilingual developer glossary,
//     WordNet base forms, Korean stems);
//  4. deduplicated, at most lessonTermsMaxCanon (known terms, then the
//     longest), sorted.
//
// Rewordings rarely produce the same set, so a new terms key is matched
// against the lessons already recorded (lessonOverlap): terms match by
// canonical form, WordNet synonymy, a long common stem, a Korean stem
// prefix (불러 ~ 불러줘) or a loanword's sound (티켓 ~ ticket); enough shared
// terms of one polarity make one lesson, opposite polarity or one swapped
// value makes two. The best match wins; ties go to the older key (the lower
// one). "Don't call me Mr. Kim, just call me Jun.", "Stop calling me Mr.
// Kim, call me Jun." and "Please call me Jun, not Mr. Kim." are one lesson.
// A key that meets no recorded lesson of its kind is matched against the
// lessons of the other kind by their terms (lessonidentity.go).
// Limits: rewordings that share too few terms (a Korean rewording in words
// the glossary does not hold) are counted apart — the curator sees each
// lesson with its occurrences before promoting.
// nonLessonWords are the words that say a text is a correction, and how
// politely, rather than what it is about.
func nonLessonWords() []string {
	return []string{
		// English markers, politeness, negation and generic verbs.
		"don't", "dont", "do", "not", "no", "never", "stop", "always", "please", "just", "instead", "prefer",
		"rather", "from", "now", "on", "going", "forward", "every", "time", "again", "anymore", "ever", "more",
		"use", "using", "make", "let", "want", "like", "okay", "ok", "kindly", "pls", "plz",
		"mr", "mrs", "dr", "sir", "madam", // "Ms." as a title: titleBeforeName (ms alone is milliseconds)
		// Korean titles after a name ("김 선생님", "민수 씨", "준 님"): how politely.
		"선생님", "씨", "님", "선배님", "교수님",
		// Discourse openers of chat: "btw, …", "also — …", "oh and …".
		"btw", "also", "anyway", "oh",
		// Negators that are prepositions: the negation is read (preNegators), the word is no term.
		"without",
		// Forgetting and remembering verbs: "don't forget to X" prescribes X
		// (lessonremember.go).
		"forget", "forgets", "forgot", "forgetting", "remember", "잊", "잊지", "잊어", "까먹", "까먹지", "빼먹", "빼먹지", "기억해",
		// Korean markers, adverbs and generic verb forms.
		"마", "마라", "말고", "말구", "말아", "말아줘", "말아요", "말고요", "항상", "앞", "앞으로", "그냥", "제발", "꼭", "반드시",
		"매번", "언제나", "절대", "절대로", "이제", "더", "더는", "좀", "그만", "막", "너무", "같이", "또", "다시", "써", "쓰지", "쓰세요", "써줘", "써주세요",
		"써요", "하지", "해", "해줘", "해주세요", "하세요", "해요", "주세요", "줘", "부탁해", "부탁해요", "부탁드려요",
		"마세요", "마세", "마시고", "했잖아요", "했잖아", "했잖", "하라고", "하라니까", "했어", "했는데",
		"금지", "요즘", "누가", "아까", "건", "걸", "게", "거야", "쓰",
		// "When" and "like" in Korean (때, 이런, 이렇게, 처럼: English's are
		// stop words) and indefinite pronouns.
		"때", "때는", "때만", "때마다", "땐", "이런", "이렇게", "이러", "이러면", "이런거", "저런", "처럼", "같은", "같", "something", "anything",
		// Where and which way (쪽: "generator 쪽을", the side of).
		"쪽",
		// Existence and cause, Korean's "be" and "because": "관련 있는
		// 프레임", "공백 없는", "DefaultClient 때문에" say nothing of the rule.
		"있", "있는", "있어", "없", "없는", "때문", "때문에",
	}
}

var nonLessonTerms = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, w := range nonLessonWords() {
		set[w] = true
		for _, t := range textnorm.StableTokens(w) {
			set[t] = true
		}
	}
	return set
})

// keyTerm reports whether a token may be a key term: no number, no
// hex id or version (any token with a digit), no lone Hangul jamo (ㅠ, ㅋㅋ).
func keyTerm(t string) bool {
	for _, r := range t {
		if unicode.IsDigit(r) || r >= 0x3131 && r <= 0x318E {
			return false
		}
	}
	return true
}

const termsPrefix = "terms:"

func termsKey(terms []string) string { return termsPrefix + strings.Join(terms, "+") }

// keyTerms recovers the terms of a terms key (nil for any other key).
func keyTerms(key string) []string {
	rest, ok := strings.CutPrefix(key, termsPrefix)
	if !ok || rest == "" {
		return nil
	}
	return strings.Split(rest, "+")
}

// canonicalLessonKey returns the key a finding (key, the sentence it was
// read from) is counted under: its own when that lesson exists, else the
// best-matching recorded lesson of the same kind (sameLesson), else the
// best-matching one of the other kind (crossLesson, lessonidentity.go),
// else its own. all is every recorded lesson's head (no occurrences), read
// once per sighting (nil for a key that is matched only exactly).
func canonicalLessonKey(ctx context.Context, q engine.Queries, key, lesson string) (string, []*engine.Correction, error) {
	if _, isSig := sigFromKey(key); keyTerms(key) == nil && !isSig {
		return key, nil, nil
	}
	all, err := q.LessonHeads(ctx)
	if err != nil {
		return "", nil, fmt.Errorf("lessons: %w", err)
	}
	best, bestShared := "", 0
	nums := lessonNumbers(lesson)
	for _, c := range all {
		if c.LessonKey == key {
			return key, all, nil
		}
		if nums != nil && !numbersAgree(nums, lessonNumbers(c.Lesson)) {
			continue
		}
		shared, same := sameLesson(key, c.LessonKey)
		if same && (best == "" || shared > bestShared || shared == bestShared && c.LessonKey < best) {
			best, bestShared = c.LessonKey, shared
		}
	}
	if best != "" {
		return best, all, nil
	}
	for _, c := range all {
		if nums != nil && !numbersAgree(nums, lessonNumbers(c.Lesson)) {
			continue
		}
		shared, same := crossLesson(key, lesson, c)
		if same && (best == "" || shared > bestShared || shared == bestShared && c.LessonKey < best) {
			best, bestShared = c.LessonKey, shared
		}
	}
	if best == "" {
		best = key
	}
	return best, all, nil
}

// lessonNumbers are the numbers a lesson sentence states on their own
// ("40 lines", "15줄", "₩1,350,000" → 1350000, "one serving" → 1, "10am"
// → 10; not in an example: withoutExamples), not digits inside a name
// or version (uint32_t, v1.2, python:3.12): a number is a value of the
// rule, and no key holds it (keys are words), so it is compared here.
func lessonNumbers(s string) map[string]bool {
	if !strings.ContainsAny(s, "0123456789") && !countWord.MatchString(s) {
		return nil
	}
	var out map[string]bool
	s = clockTime.ReplaceAllString(s, " ") // 14:30, 18:00: an example of a format, not a value
	s = withoutExamples(s)
	s = clockHour.ReplaceAllString(s, " $1 ") // 10am, 4 pm: the hour is the value
	for _, m := range namedNumber.FindAllStringSubmatch(s, -1) {
		if out == nil {
			out = map[string]bool{}
		}
		out[m[1]] = true
	}
	for _, m := range countWord.FindAllStringSubmatch(s, -1) {
		if !notCounted[strings.ToLower(m[2])] {
			if out == nil {
				out = map[string]bool{}
			}
			out[numberWords[strings.ToLower(m[1])]] = true
		}
	}
	for _, m := range standaloneNumber.FindAllStringSubmatch(s, -1) {
		n := strings.TrimLeft(strings.ReplaceAll(m[1], ",", ""), "0")
		if n == "" {
			n = "0"
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[n] = true
	}
	return out
}

var clockTime = regexp.MustCompile(`\b\d{1,2}:\d{2}\b`)

// namedNumber is the number of a standard or format's name ("UTF-8",
// "UTF-16": one or two digits, so "ES-2015" is not), the value that tells
// one from another; a version (v1.2, python:3.12) is not one.
var namedNumber = regexp.MustCompile(`\b[A-Za-z]{2,}-(\d{1,2})\b`)

// countWord is an English number word counting the noun after it ("one
// serving", "six people"): the same value as its digits.
var countWord = regexp.MustCompile(`(?i)\b(one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|twenty) +([a-z]+)`)

// notCounted follow a number word that counts nothing ("one of", "one
// more", "one or two").
var notCounted = map[string]bool{"of": true, "more": true, "another": true, "or": true, "and": true, "by": true, "at": true, "thing": true, "way": true, "day": true}

var clockHour = regexp.MustCompile(`(?i)\b(\d{1,2}) ?(?:am|pm|a\.m\.|p\.m\.)`)

// exampleMarkers open the example of a rule ("like 90 minutes", "e.g.
// 12.3%", "135분이라고", "'3월 12일 목요일'처럼"): a number there shows
// the format, it is not the value the rule sets.
var exampleMarkers = regexp.MustCompile(`(?i)(?:^|\s)(?:like|e\.g\.?|eg|for example|such as|for instance)\s|처럼|예를 들어|예시|예:|이라고`)

// exampleClauseEnd ends a clause for withoutExamples: clause punctuation
// before a space or the end, so "1,350,000" stays one number.
var exampleClauseEnd = regexp.MustCompile(`[,;—–!?]\s|[.]\s|\n`)

// withoutExamples is s without its example clauses: the clauses that hold
// an example marker.
func withoutExamples(s string) string {
	if !exampleMarkers.MatchString(s) {
		return s
	}
	var keep []string
	for _, cl := range exampleClauseEnd.Split(s, -1) {
		if !exampleMarkers.MatchString(cl) {
			keep = append(keep, cl)
		}
	}
	return strings.Join(keep, " ; ")
}

var standaloneNumber = regexp.MustCompile(`(?:^|[^\w.:\-])(\d{1,3}(?:,\d{3})+|\d+)(?:[^\w.\-]|$|[가-힣])`)

// numbersAgree reports whether two lessons' numbers allow one rule: when
// both state numbers, they share one ("keep functions under 40 lines" is
// not "15줄 안쪽으로": another value of the same frame).
func numbersAgree(a, b map[string]bool) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	for n := range a {
		if b[n] {
			return true
		}
	}
	return false
}

// sameLesson reports whether two keys of the same kind are one lesson
// (concept keys by compareSigs, terms keys by lessonOverlap), and how many
// elements they share.
func sameLesson(a, b string) (int, bool) {
	if sa, ok := sigFromKey(a); ok {
		sb, ok := sigFromKey(b)
		if !ok {
			return 0, false
		}
		shared, same, _ := compareSigs(sa, sb)
		return shared, same
	}
	ta, tb := keyTerms(a), keyTerms(b)
	if ta == nil || tb == nil {
		return 0, a == b
	}
	return lessonOverlap(ta, tb)
}

// supersedeOpposites marks superseded the open lessons of all that c
// opposes: the same subject with another value or the opposite polarity
// ("reply in English" after "reply in Korean", "4 spaces" after "2
// spaces"). The later lesson replaces the earlier one instead of counting
// toward it; a promoted lesson is left to the curator.
//
// A terms lesson opposes an earlier terms lesson that says the same terms
// with the polarity of some flipped or a value swapped for its WordNet
// antonym, and nothing else ("allow trailing commas in arrays" after
// "forbid trailing commas in arrays": termsOppose).
func supersedeOpposites(ctx context.Context, q engine.Queries, c *engine.Correction, all []*engine.Correction) error {
	sig, isSig := sigFromKey(c.LessonKey)
	terms := keyTerms(c.LessonKey)
	if !isSig && terms == nil {
		return nil
	}
	for _, old := range all {
		if old.Status != engine.CorrectionPending && old.Status != engine.CorrectionCandidate || old.LessonKey == c.LessonKey {
			continue
		}
		if isSig {
			if other, ok := sigFromKey(old.LessonKey); !ok || !opposes(sig, other) {
				continue
			}
		} else if other := keyTerms(old.LessonKey); other == nil || !termsOppose(terms, other) {
			continue
		}
		old.Status = engine.CorrectionSuperseded
		if err := q.SaveCorrection(ctx, old); err != nil {
			return fmt.Errorf("supersede lesson %s: %w", old.LessonKey, err)
		}
	}
	return nil
}

// prescribes reports whether one sentence tells the agent what to do.
func prescribes(s string) bool {
	norm := lexNorm(s)
	if kwFind(norm, lessonMarkers()) != "" || kwFind(norm, prescriptionMarkers()) != "" ||
		len(formPositions(norm, preNegators())) > 0 || len(formPositions(norm, postNegators())) > 0 {
		return true
	}
	words := strings.Fields(norm)
	for len(words) > 0 && politeOpeners[words[0]] {
		words = words[1:]
	}
	last := strings.TrimRightFunc(strings.TrimSpace(norm), func(r rune) bool { return r >= 0x3131 && r <= 0x318E })
	if len(words) > 0 && imperativeVerbs[words[0]] && !koreanClause(last) {
		return true
	}
	if f := strings.Fields(last); len(f) > 0 {
		w := f[len(f)-1]
		for _, end := range koreanCommandEndings() {
			if strings.HasSuffix(w, end) {
				return true
			}
		}
	}
	return false
}

// koreanClause reports whether a normalised clause ends in a Korean word:
// its grammar is Korean, so an English word opening it is a noun of the
// clause, not an imperative ("load test 아직 40%쯤 진행 중": load is no verb
// there); its own ending says whether it requests.
func koreanClause(norm string) bool {
	f := strings.Fields(norm)
	return len(f) > 1 && isHangul(f[len(f)-1])
}

// prescriptionMarkers are modals and requests that make a sentence a rule.
func prescriptionMarkers() lexicon {
	return lexicon{
		en: []string{"should", "must", "need", "needs", "have to", "has to", "please", "pls", "plz", "make sure", "only", "from now on"},
		ko: []string{"해야", "할 것", "하도록", "부탁", "라고 했", "라니까"},
	}
}

// koreanCommandEndings end a Korean request or command (해줘, 써, 돌려봐,
// 하세요, 형식으로 — an elliptical "do it in …").
func koreanCommandEndings() []string {
	return []string{"줘", "줘요", "주세요", "해", "해요", "하세요", "봐", "봐요", "써", "써요", "라", "마", "세요", "자", "로", "으로", "것", "빼"}
}

var politeOpeners = map[string]bool{"please": true, "pls": true, "plz": true, "just": true, "always": true, "never": true, "and": true, "also": true, "so": true, "btw": true, "ok": true, "okay": true}

// imperativeVerbs are the base verbs an English instruction opens with.
var imperativeVerbs = map[string]bool{
	"use": true, "write": true, "run": true, "keep": true, "put": true, "read": true, "add": true, "ask": true,
	"explain": true, "return": true, "log": true, "wrap": true, "answer": true, "reply": true, "respond": true,
	"indent": true, "commit": true, "push": true, "call": true, "make": true, "avoid": true, "format": true,
	"name": true, "pin": true, "squash": true, "mock": true, "test": true, "check": true, "follow": true,
	"remove": true, "delete": true, "leave": true, "start": true, "end": true, "give": true, "tell": true,
	"show": true, "send": true, "set": true, "prefer": true, "stop": true, "quit": true, "skip": true,
	"document": true, "comment": true, "sort": true, "split": true, "move": true, "rename": true, "store": true,
	"load": true, "save": true, "print": true, "default": true, "lint": true, "build": true, "merge": true,
	"rebase": true, "review": true, "reference": true, "link": true, "include": true, "mention": true,
	// The rule-verb lexicon's (lessonlexicon.go).
	"allow": true, "permit": true, "enable": true, "activate": true, "increase": true, "decrease": true,
	"accept": true, "reveal": true, "expose": true, "display": true,
}
