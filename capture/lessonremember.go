package capture

import (
	"regexp"
	"strings"

	"memtrace/engine/filter"
)

// Memory requests and forgetting verbs.
//
// "Don't forget", "remember", "잊지 마", "기억해" ask for one of two things:
// to keep a fact in mind ("don't forget that my sister's birthday is May
// 3", "잊지 마, 내 동생 생일은 5월 3일이야") — a memory, not a lesson about
// how the assistant works — or to keep doing something ("don't forget to
// run the tests", "테스트 돌리는 거 잊지 마") — a lesson. memoryRequest tells
// them apart by the complement of the request, in the grammar of each
// language: an English complement that is a to-infinitive, or that
// prescribes, is an instruction; one that is a that-clause, a clause after
// a colon or comma, or a statement (a subject and its finite verb) is a
// fact. A Korean complement that prescribes or names an action (돌리는 거,
// 하기) is an instruction; one ending in a declarative or copula ending
// (이야, 이다, 예요, 입니다, 거든) or reporting one (…라는 거, …인 거) is a
// fact. A message whose every prescribing sentence is such a fact is a
// memory request, not a lesson.
//
// A forgetting verb (forget, 잊다, 까먹다, 빼먹다) is itself a negation: a
// negator on it affirms ("don't forget to run the tests" prescribes running
// them, as "always run the tests" does), so cancelForgetting drops the
// negators that fall on one, and the verb is no key term.

var (
	rememberEN = regexp.MustCompile(`\b(?:(?:don't|dont|do not|never) forget|remember|keep in mind|bear in mind)\b`)
	rememberKO = regexp.MustCompile(`(?:잊지 ?말|잊지 ?마|잊으면 안|까먹지 ?마|까먹지 ?말|기억해|기억해 ?둬|기억해 ?줘|기억하고|명심해)[가-힣]*`)
)

// koFactReports nominalise a reported fact. A Korean statement of fact
// ends on a declarative-only or a reported ending of engine/filter's one
// ending table (filter.KoStatesFact): an informal …어/…해 may be a command.
var koFactReports = []string{"라는 거", "라는 것", "다는 거", "다는 것", "인 거", "인 것", "이란 거", "이란 것"}

// memoryRequest returns the request ("don't forget", "잊지 마") when text
// only asks to keep facts in mind: it holds a memory request, and each of
// its prescribing sentences is a memory request of a fact; else "".
func memoryRequest(text string) string {
	found := ""
	for _, s := range splitSentences(text) {
		phrase, fact, ok := rememberComplement(s)
		switch {
		case ok && fact:
			found = phrase
		case ok || prescribes(s):
			return "" // an instruction: to keep doing something, or another rule
		}
	}
	return found
}

// rememberComplement reads one sentence: ok when it holds a memory request
// (phrase), fact when that request's complement states a fact.
func rememberComplement(s string) (phrase string, fact, ok bool) {
	low := strings.ToLower(strings.ReplaceAll(s, "’", "'"))
	if loc := rememberEN.FindStringIndex(low); loc != nil {
		phrase = low[loc[0]:loc[1]]
		rest := strings.TrimSpace(low[loc[1]:])
		sep := strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, ",") || strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "-")
		rest = strings.TrimSpace(strings.TrimLeft(rest, ":,—- "))
		if strings.HasPrefix(rest, "to ") || rest == "" {
			return phrase, false, true
		}
		words := strings.Fields(lexNorm(rest))
		if len(words) == 0 || prescribes(rest) && !worldFact(rest) {
			return phrase, false, true
		}
		if w, that := strings.CutPrefix(rest, "that "); that {
			return phrase, !prescribes(w) || worldFact(w), true
		}
		return phrase, sep || len(words) >= 2 && statement(words), true
	}
	loc := rememberKO.FindStringIndex(s)
	if loc == nil {
		return "", false, false
	}
	phrase = s[loc[0]:loc[1]]
	rest := strings.TrimSpace(s[:loc[0]] + " " + s[loc[1]:])
	rest = strings.Trim(rest, " ,.!?:~")
	if rest == "" || prescribes(rest) && !worldFact(rest) {
		return phrase, false, true
	}
	for _, r := range koFactReports {
		if strings.Contains(rest, r) {
			return phrase, true, true
		}
	}
	f := strings.Fields(rest)
	return phrase, filter.KoStatesFact(f[len(f)-1]), true
}

// worldFact reports whether a memory request's complement is a
// declarative clause stating a fact — English: a subject that is not the
// addressee and its finite verb ("the staging DB is read-only on
// Fridays"); Korean: a close of the declarative-only or reported class
// (filter.KoStatesFact: "금요일엔 스테이징이 읽기 전용이야") — that carries no
// deontic marker (deonticMarkers). Inside such a clause a restrictive or
// frequency adverb and a negation ("only", "always", "never", "not",
// 만, 항상, 안) restrict the fact; they do not prescribe, so the rule markers
// that make other sentences rules do not turn it into one: a memory
// request stating a fact about the world is a memory, not a lesson.
func worldFact(s string) bool {
	norm := lexNorm(s)
	if kwFind(norm, deonticMarkers()) != "" {
		return false
	}
	words := strings.Fields(norm)
	if len(words) < 2 {
		return false
	}
	if hasHangul(s) {
		return filter.KoStatesFact(words[len(words)-1])
	}
	return declarativeEN(words)
}

// deonticMarkers oblige, forbid or ask: what makes even a declarative
// clause a rule ("the tests must pass", "force push is not allowed",
// "금요일엔 배포 금지야").
func deonticMarkers() lexicon {
	return lexicon{
		en: []string{"should", "shouldn't", "must", "mustn't", "need to", "needs to", "have to", "has to", "please", "pls", "make sure",
			"banned", "forbidden", "prohibited", "not allowed", "is a no", "you", "from now on"},
		ko: []string{"해야", "하도록", "부탁", "금지", "안 돼", "안돼", "지 마", "지마", "지 말", "말고", "앞으로"},
	}
}

// clauseAdverbs may stand between an English subject and its verb.
var clauseAdverbs = map[string]bool{"only": true, "always": true, "never": true, "usually": true, "still": true, "also": true,
	"often": true, "sometimes": true, "rarely": true, "just": true, "now": true, "actually": true, "not": true}

// declarativeEN: words open with a subject (a determiner or possessive,
// up to three noun words) and a finite verb, adverbs allowed between —
// not with an imperative verb, a negator or the addressee.
func declarativeEN(words []string) bool {
	switch words[0] {
	case "the", "a", "an", "our", "my", "your", "these", "those", "every", "all", "his", "her", "their":
		words = words[1:]
	}
	if len(words) < 2 || imperativeVerbs[words[0]] || clauseAdverbs[words[0]] || words[0] == "you" || words[0] == "u" ||
		words[0] == "don't" || words[0] == "dont" || words[0] == "do" {
		return false
	}
	for i := 1; i < min(len(words), 5); i++ {
		v := words[i]
		if clauseAdverbs[v] {
			continue
		}
		// A verb in -s counts after an adverb ("the shuttle never runs"),
		// where a plural noun does not stand.
		if finiteVerbs[v] || len(v) > 4 && strings.HasSuffix(v, "es") || len(v) > 3 && strings.HasSuffix(v, "ed") ||
			len(v) > 3 && strings.HasSuffix(v, "s") && clauseAdverbs[words[i-1]] {
			return true
		}
	}
	return false
}

// forgetEN are the English forgetting verbs; koForgetStems start the
// Korean ones.
var (
	forgetEN      = map[string]bool{"forget": true, "forgets": true, "forgot": true, "forgetting": true, "neglect": true, "omit": true}
	koForgetStems = []string{"잊", "까먹", "까묵", "빼먹"}
)

// cancelForgetting drops from the negator positions of norm (lexNorm) the
// ones that fall on a forgetting verb: an English pre-negator whose next
// word is one ("don't forget", "never forget"), a Korean post-negator right
// after one's stem ("잊지 마", "까먹지 말고").
func cancelForgetting(norm string, pre, post []int) ([]int, []int) {
	var keepPre, keepPost []int
	for _, q := range pre {
		if f := strings.Fields(norm[q:]); len(f) >= 2 && forgetEN[f[1]] {
			continue
		}
		keepPre = append(keepPre, q)
	}
	for _, q := range post {
		before := strings.Fields(norm[:q])
		if len(before) > 0 {
			w := strings.TrimSuffix(before[len(before)-1], "지")
			if forgetStem(w) {
				continue
			}
		}
		keepPost = append(keepPost, q)
	}
	return keepPre, keepPost
}

// forgetStem reports whether a Korean word starts with a forgetting verb's
// stem (잊, 잊어버리, 까먹).
func forgetStem(w string) bool {
	for _, s := range koForgetStems {
		if strings.HasPrefix(w, s) {
			return true
		}
	}
	return false
}
