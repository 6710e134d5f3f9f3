package capture

import (
	"strconv"
	"strings"
	"unicode"

	"memtrace/engine/textnorm"
)

// How a part of a message reads on its own, for aloneWhy: whether it
// points back, leaves its subject out, or has a predicate of its own (EN),
// and the English verb cues those readings use.

// laterWhy is why a part after the first cannot be a statement of its
// own, read from its content ("" when it can): it points back (a pronoun
// in its first clause, a pro-form, a reason's ending), leaves its subject out, or has
// no subject or predicate of its own.
func laterWhy(part string) string {
	first, _, _ := strings.Cut(strings.NewReplacer(";", ",", " — ", ",", " - ", ",").Replace(part), ",")
	fw := strings.Fields(lexNorm(first))
	for i, w := range fw { // "my blood type is A+, needed it for …": its own "it"
		if anaphor[w] || w == "one" && i > 0 && (fw[i-1] == "old" || fw[i-1] == "new" || fw[i-1] == "that" || fw[i-1] == "this") {
			return "it points back (" + strconv.Quote(w) + ")"
		}
	}
	if endsKorean(part) {
		if koProVerb(part) {
			return "a pro-form stands for the part before"
		}
		if koReasonEnd(part) {
			return "it gives the reason or the background of the part before"
		}
		return "" // Korean states a fact without a verb ("혈액형 O형", "다음 주 출장"): no predicate is required
	}
	if ellipsisStart(part) {
		return "its subject is left out (the part before's)"
	}
	if !standing(part) && !imperative(part) && !enVerbCue(part) {
		return "no predicate of its own"
	}
	return ""
}

// imperative: an English part opens with a plea and a verb ("please keep
// …", "pls use …", "kindly reply …").
func imperative(part string) bool {
	ws := strings.Fields(lexNorm(part))
	return len(ws) >= 2 && (ws[0] == "please" || ws[0] == "pls" || ws[0] == "plz" || ws[0] == "kindly")
}

// endsKorean: the last word of part (laughter and emoji aside) is Korean,
// so its predicate is read by the Korean endings.
func endsKorean(part string) bool {
	ws := strings.Fields(strings.TrimRightFunc(part, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) || r >= 0x3131 && r <= 0x318E // ㅋㅋ, ㅠㅠ
	}))
	return len(ws) > 0 && hasHangul(ws[len(ws)-1])
}

// firstWhy is why the first part cannot open a statement of its own: no
// predicate ("ok so big thing", "dentist tomorrow 10am").
func firstWhy(part string) string {
	if endsKorean(part) {
		return ""
	}
	if !standing(part) && !imperative(part) && !enVerbCue(part) {
		return "no predicate of its own"
	}
	return ""
}

// anaphor are words that refer to something named before them, anywhere
// in a part: a part with one is not a statement by itself.
var anaphor = map[string]bool{
	"it": true, "it's": true, "its": true, "there": true, "them": true, "they": true, "they're": true, "their": true,
	"he": true, "he's": true, "him": true, "his": true, "she": true, "she's": true, "her": true, "same": true,
	"거기": true, "거기서": true, "거기에": true, "그거": true, "그게": true, "그건": true, "걔": true, "걔가": true, "걔는": true,
	"그분": true, "그분이": true, "그곳": true, "그곳에": true,
}

// koReasonEnd: a Korean part ends in an ending that gives a reason or the
// background of what is said beside it (…거든, …니까, …어서, …는데).
func koReasonEnd(part string) bool {
	t := trimKoTail(part)
	for _, e := range []string{"거든", "거든요", "니까", "니깐", "어서", "아서", "해서", "라서", "여서", "길래", "는데", "은데", "던데", "때문에", "땜에"} {
		if strings.HasSuffix(t, e) {
			return true
		}
	}
	return false
}

// subjectBefore: the words before words[i] can be a subject noun phrase
// that opens the part — a name or noun of up to two words ("Bori hates
// …", "Minji Kang works …"), or a determiner or possessive and up to three
// words ("my older sister lives …").
func subjectBefore(words []string, i int) bool {
	if i < 1 || i > 4 || nounOpener[words[i-1]] || startsWithDigit(words[i-1]) {
		return false
	}
	if i <= 2 && !isAdverb(words[0]) && !leadFillers[words[0]] && !textnorm.IsStopWord(words[0]) {
		return true // "Bori hates …", "Minji Kang works …", "Jiwoo's dad runs …"
	}
	return enDeterminer[words[0]] || words[0] == "my" || words[0] == "a" || words[0] == "an"
}

// presentS: w may be a verb's third person (-s), not a plural after a
// determiner (nounOpener) or a number.
func presentS(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") &&
		!strings.HasSuffix(w, "'s") && !strings.HasSuffix(w, "ics")
}

// presentVerb are common verbs in the present after a plural subject
// ("my parents live in Busan").
var presentVerb = map[string]bool{"live": true, "work": true, "have": true, "like": true, "love": true, "use": true,
	"want": true, "need": true, "own": true, "play": true, "run": true, "drive": true, "eat": true,
	"speak": true, "study": true, "teach": true, "take": true, "make": true, "hate": true, "prefer": true, "visit": true}

// nounOpener: a word before a noun (a determiner, a number word, a
// preposition, a conjunction), so the -s word after it is a plural.
var nounOpener = map[string]bool{"my": true, "our": true, "the": true, "a": true, "an": true, "his": true, "her": true,
	"their": true, "your": true, "some": true, "many": true, "few": true, "two": true, "three": true, "four": true,
	"five": true, "several": true, "these": true, "those": true, "no": true, "all": true, "both": true,
	"about": true, "of": true, "in": true, "on": true, "at": true, "with": true, "for": true, "from": true, "to": true, "and": true, "or": true}

// subjectPronoun: a word after one is a verb ("I walk …", "we rent …").
var subjectPronoun = map[string]bool{"i": true, "we": true, "you": true, "they": true, "he": true, "she": true}

// enVerbCue: an English part holds a finite verb — an auxiliary, a
// copula or its contraction, a past form, or a verb after the speaker.
func enVerbCue(part string) bool {
	words := strings.Fields(lexNorm(part))
	for i, w := range words {
		if elidedSubjectVerb[w] || irregularPast[w] || len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") {
			return true
		}
		for _, c := range []string{"'s", "'m", "'re", "'ve", "'d", "'ll", "n't"} {
			if strings.HasSuffix(w, c) {
				return true
			}
		}
		if i > 0 && subjectPronoun[words[i-1]] {
			return true // "I walk …", "we rent …"
		}
		if subjectBefore(words, i) && (presentVerb[w] || presentS(w)) {
			return true // "my sister lives …", "my parents own …", "Bori hates baths"
		}
	}
	return false
}

// ellipsisStart: an English part after the first that opens with a verb
// or an auxiliary, its subject left out ("… is a chef", "ate way too much
// pizza", "love it here"): the subject is the part before's.
func ellipsisStart(part string) bool {
	if f := strings.Fields(part); len(f) == 0 || hasHangul(f[0]) {
		return false
	}
	words := strings.Fields(lexNorm(part))
	for len(words) > 1 && leadFillers[words[0]] {
		words = words[1:]
	}
	if len(words) == 0 {
		return false
	}
	w := words[0]
	return elidedSubjectVerb[w] || irregularPast[w] || len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") ||
		len(w) > 4 && strings.HasSuffix(w, "ing") && !strings.HasSuffix(w, "thing")
}

// elidedSubjectVerb open a clause whose subject is left out.
var elidedSubjectVerb = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "am": true, "has": true, "have": true, "had": true,
	"will": true, "would": true, "can": true, "could": true, "should": true, "must": true, "does": true, "did": true,
	"love": true, "loves": true, "like": true, "likes": true, "hate": true, "miss": true, "hope": true, "think": true,
	"feel": true, "feels": true, "looks": true, "seems": true, "sounds": true, "gets": true, "makes": true,
	"couldn't": true, "can't": true, "didn't": true, "wasn't": true, "won't": true, "isn't": true, "aren't": true,
	"doesn't": true, "hasn't": true, "haven't": true, "been": true, "being": true,
}

// koProVerb: a Korean pro-form that stands for the clause before ("그랬어",
// "그렇대", "그래서", "그런"): the part says nothing of its own.
func koProVerb(part string) bool {
	for _, w := range strings.Fields(part) {
		w = strings.TrimRightFunc(w, func(r rune) bool { return !unicode.Is(unicode.Hangul, r) })
		if strings.HasPrefix(w, "그랬") || strings.HasPrefix(w, "그렇") || w == "그래" || w == "그래요" || w == "그런" ||
			strings.HasPrefix(w, "그래서") || strings.HasPrefix(w, "마찬가지") {
			return true
		}
	}
	return false
}
