package capture

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"memtrace/engine/wordnet"
)

// The rule-verb lexicon: the everyday verbs a rule is said with in either
// language, read for their polarity rather than as terms of the lesson.
//
// A polar pair is a verb that permits or prescribes its object and its
// antonym that forbids it — allow/forbid, enable/disable, include/exclude,
// show/hide, use/avoid. Their English forms are WordNet synonyms of one
// synset (permit ~ allow, forbid ~ prohibit ~ disallow), and the two heads
// of a pair are WordNet antonyms (wordnet.Opposed; lessonlexicon_test.go
// checks both against the table); the Korean side is curated. The
// forbidding verb of a pair reads as a negator of its object ("forbid
// trailing commas", "exclude vendor/", "telemetry 꺼줘", "내부 필드 숨겨줘"
// say not_ of what they name, as "no trailing commas" does), so "forbid X"
// and "don't allow X" are one lesson and "allow X" and "forbid X" two; the
// permitting verb is no term ("allow X" prescribes X as "use X" does), and
// when negated ("don't expose X", "보여주지 마") the negation passes on to
// its object. Phrasal verbs are read as the single verb WordNet holds
// ("turn off" → disable, "turn on" → enable, "leave out" → omit).
//
// Besides the pairs, any two terms WordNet holds as antonyms (ascending ~
// descending, increase ~ decrease, top ~ bottom, first ~ last) are two
// values of one frame, never one word: two lessons that differ by them are
// two lessons (opposedOdd, lessonmatch.go).

// polarPair is one permitting verb and its forbidding antonym.
type polarPair struct {
	allow, forbid     string   // the WordNet heads, antonyms ("" when WordNet has none)
	allowEN, forbidEN []string // English forms (WordNet synonyms of the head; base forms, as a rule is said)
	allowKO, forbidKO []string // Korean stems and forms
}

func polarPairs() []polarPair {
	return []polarPair{
		{allow: "permit", forbid: "forbid",
			allowEN: []string{"allow", "permit"}, forbidEN: []string{"forbid", "prohibit", "disallow", "ban"},
			allowKO: []string{"허용"}, forbidKO: []string{"금하", "불허"}},
		{allow: "enable", forbid: "disable",
			allowEN: []string{"enable"}, forbidEN: []string{"disable"},
			allowKO: []string{"켜"}, forbidKO: []string{"꺼", "끄"}},
		{allow: "activate", forbid: "deactivate",
			allowEN: []string{"activate"}, forbidEN: []string{"deactivate"},
			allowKO: []string{"활성화"}, forbidKO: []string{"비활성화"}},
		{allow: "include", forbid: "exclude",
			allowEN: []string{"include"}, forbidEN: []string{"exclude", "omit"},
			allowKO: []string{"포함"}, forbidKO: []string{"제외"}},
		{allow: "show", forbid: "hide",
			allowEN: []string{"show", "expose", "reveal", "display"}, forbidEN: []string{"hide", "conceal"},
			allowKO: []string{"보여주", "보여줘", "노출"}, forbidKO: []string{"숨기", "숨겨"}},
		{allow: "accept", forbid: "reject",
			allowEN: []string{"accept"}, forbidEN: []string{"reject", "refuse"},
			allowKO: []string{"수락"}, forbidKO: []string{"거절", "거부"}},
		// Avoid has no WordNet antonym: what it stands against is "use",
		// a generic verb of every rule (nonLessonWords).
		{allow: "", forbid: "avoid",
			allowEN: nil, forbidEN: []string{"avoid", "shun", "eschew"},
			allowKO: nil, forbidKO: []string{"피하", "피해", "지양"}},
	}
}

// phrasalVerbs are verb phrases read as the one verb WordNet holds for
// them ("turn telemetry off" → "disable telemetry"): the object may stand
// inside the phrase.
var phrasalVerbs = []struct {
	re   *regexp.Regexp
	verb string
}{
	{regexp.MustCompile(`(?i)\b(?:turn|switch|shut)(?:ed|ing|s)? off\b`), "disable"},
	{regexp.MustCompile(`(?i)\b(?:turn|switch)(?:ed|ing|s)? on\b`), "enable"},
	{regexp.MustCompile(`(?i)\b(?:turn|switch|shut)(?:ed|ing|s)? ((?:the |your |all )?[\w.-]+(?: [\w.-]+)?) off\b`), "disable $1"},
	{regexp.MustCompile(`(?i)\b(?:turn|switch)(?:ed|ing|s)? ((?:the |your |all )?[\w.-]+(?: [\w.-]+)?) on\b`), "enable $1"},
	{regexp.MustCompile(`(?i)\bleave(?:s)? out\b`), "omit"},
}

// readPhrasal rewrites the phrasal verbs of s as their one verb.
func readPhrasal(s string) string {
	if !strings.Contains(s, "urn") && !strings.Contains(s, "witch") && !strings.Contains(s, "hut") && !strings.Contains(s, "eave") {
		return s
	}
	for _, p := range phrasalVerbs {
		s = p.re.ReplaceAllString(s, p.verb)
	}
	return s
}

// polarLexicon indexes polarPairs: the forbidding verbs as negators (an
// English one before its object, a Korean one after it), every polar
// verb as no term, the permitting ones as verbs a negation passes over.
type polarLexicon struct {
	preEN    []string        // forbidding English verbs: pre-negators
	postKO   []string        // forbidding Korean forms: post-negators
	enVerb   map[string]bool // every polar English verb
	permitEN map[string]bool // the permitting English verbs and their canonical terms
	ko       []string        // every polar Korean stem
	permitKO []string
}

var polarWords = sync.OnceValue(func() polarLexicon {
	l := polarLexicon{enVerb: map[string]bool{}, permitEN: map[string]bool{}}
	for _, p := range polarPairs() {
		l.preEN = append(l.preEN, p.forbidEN...)
		for _, w := range p.forbidEN {
			l.enVerb[w] = true
		}
		for _, w := range p.allowEN {
			l.enVerb[w], l.permitEN[w] = true, true
		}
		for _, k := range p.forbidKO {
			l.ko = append(l.ko, k)
			// A Korean negator is the verb with an ending: 제외해, 꺼줘,
			// 숨겨줘, 끄고, 피해줘 — read where the stem ends a word's
			// first syllables (koPolarAt).
			l.postKO = append(l.postKO, k)
		}
		l.ko = append(l.ko, p.allowKO...)
		l.permitKO = append(l.permitKO, p.allowKO...)
	}
	return l
})

// polarVerb reports whether a word (an English word or its base form, or
// a Korean word) is a verb of a polar pair that the glossary does not
// read: it says the rule's polarity, and is no term. A verb the glossary
// reads (show, display, 보여주 → show; include → add, a carrier) keeps its
// term; negated, the negation passes over it (permitVerb).
func polarVerb(w string, hangul bool) bool {
	l := polarWords()
	if !hangul {
		_, glossed := glossary().en[w]
		return l.enVerb[w] && !glossed
	}
	return koPolarStem(w, l.ko) && glossKorean(w) == ""
}

// permitVerb reports whether a term is the canonical term of a permitting
// verb of a polar pair, which a negation before it (English) or after it
// (Korean) passes over to its object: "don't expose internal fields" and
// "내부 필드 보여주지 마" forbid the fields, as "hide internal fields" does.
func permitVerb(t string) bool {
	return permitTerms()[t]
}

var permitTerms = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for w := range polarWords().permitEN {
		if g, ok := glossary().en[w]; ok {
			out[g] = true
		}
	}
	return out
})

// koPolarStem reports whether a Korean word is one of stems with an
// ending (a one-syllable stem only before a verb ending: 꺼줘, 끄고, not
// 꺼내).
func koPolarStem(w string, stems []string) bool {
	for _, s := range stems {
		if koStemMatch(w, s) && !strings.HasPrefix(w, s+"내") {
			return true
		}
	}
	return false
}

// polarNegatorsKO are the Korean post-negator forms of the forbidding
// verbs, matched as substrings (lessonsig_scan.go): a stem of two
// syllables as it is (제외, 숨겨, 비활성화 start every form), a stem of one
// (꺼, 끄) or one that is also a noun (피해, damage) only with the endings
// a request puts after it (꺼줘, 끄고, 피해줘), so 꺼내 and 피해가 are none.
var polarNegatorsKO = sync.OnceValue(func() []string {
	var out []string
	for _, s := range polarWords().postKO {
		if utf8.RuneCountInString(s) >= 2 && s != "피해" {
			out = append(out, s)
			continue
		}
		for _, end := range []string{"줘", "주", "고", "기", "요", "세요", "둬", "두", "놔", "놓", " "} {
			out = append(out, s+end)
		}
	}
	return out
})

// opposedTerms reports whether two English terms are antonyms in WordNet
// (ascending ~ descending, first ~ last): two values of one frame.
func opposedTerms(a, b string) bool {
	a, b = bare(a), bare(b)
	if a == b || isHangul(a) || isHangul(b) {
		return false
	}
	return wordnet.Opposed(a, b)
}
