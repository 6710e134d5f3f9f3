package capture

import (
	"regexp"
	"strings"
	"sync"

	"memtrace/engine"
)

// Kind from content (issue 29): a memory is a fact (a state that lasts:
// who the user is, what they have, where they live, what they do
// habitually, what they cannot stand) or an episode (something that
// happened or will happen at a time). The rule judge reads the kind from
// the type first, then from the statement's predicate:
//
//  1. correction, rule, preference, health, habit, current_project and
//     milestone are facts; achievement and gift are episodes;
//  2. a lasting condition, fear, allergy or trait (standingConditions) is
//     a fact however it is told ("Needles freak me out, I nearly fainted
//     …");
//  3. a period of life is a fact: a stative predicate over years or since
//     a time ("I lived in Vancouver for six years", "대학 때 4년 동안 부산에서
//     자취했어", "ever since I was little"), and the verbs of where one
//     lived or grew up (lifePeriod);
//  4. a time-bound cue ("today", "last night", "next week", "오늘", "어제",
//     "다음 주") makes an episode;
//  5. a decision or standing cue ("decided", "always", "기로 했") a fact;
//  6. a change of state ("switched to", "joined", "started", "quit",
//     "stopped", "이직했어", "그만뒀어") is the fact it starts or ends, even
//     in the past tense;
//  7. an event verb in the past makes an episode (English: a past form of
//     a common verb or a -ed word that is no participle of state — "was
//     called", "a dog named", "have finished" are not events; Korean: a
//     syllable closed by the past ㅆ);
//  8. otherwise — a present or stative predicate: be, have, own, live,
//     있다/없다/이다 — a fact.

// kindOf decides fact vs episode (see above) of text, whose lexNorm is
// norm.
func kindOf(typ, text, norm string) engine.Kind {
	switch typ {
	case "correction", "rule", "preference", "health", "habit", "current_project", "milestone":
		return engine.KindFact
	case "achievement", "gift":
		return engine.KindEpisode
	}
	if kwFind(norm, standingConditions()) != "" {
		// A condition, fear, allergy or trait is a standing fact however it
		// is told ("Terrified of dogs since one bit me",
		// "폐소공포증 있어서 …"): never a 14-day episode.
		return engine.KindFact
	}
	if lifePeriod(norm) {
		return engine.KindFact
	}
	if kwFind(norm, timeBound) != "" {
		return engine.KindEpisode
	}
	if kwFind(norm, standingCue) != "" {
		return engine.KindFact // a decision or a standing statement, even in the past tense
	}
	if kwFind(norm, changeOfState) != "" {
		return engine.KindFact
	}
	if pastTense(norm) && !presentHead(text) {
		return engine.KindEpisode
	}
	return engine.KindFact
}

// presentHead: the first finite verb of the head clause of an English
// statement — its first clause, up to a comma, dash, colon or sentence
// end — is in the present: the statement is the state it names, and a past
// event told after it is its evidence ("Needles freak me out, I nearly
// fainted at my last blood test", "I have a herniated disc …, so I
// couldn't …").
func presentHead(text string) bool {
	head := text
	for i, r := range text {
		if strings.ContainsRune(",;—–\n", r) || strings.ContainsRune(".!?:", r) && (i+1 == len(text) || text[i+1] == ' ') {
			head = text[:i] // "1.0" and "10:30" do not end it
			break
		}
	}
	if hasHangul(head) {
		return false
	}
	words := strings.Fields(lexNorm(head))
	for i, w := range words {
		switch w {
		case "am", "is", "are", "i'm", "we're", "they're", "it's", "have", "has", "can't", "cannot", "don't", "doesn't":
			return true
		}
		if enPastAt(words, i) {
			return false // the head's first finite verb is past
		}
		if i > 0 && subjectPronoun[words[i-1]] && !strings.HasSuffix(w, "ed") {
			return true // "I carry …", "we rent …"
		}
		if subjectBefore(words, i) && (presentVerb[w] || presentS(w) || i+1 < len(words) && objectPronoun[words[i+1]] && !nounOpener[w]) {
			if i+1 < len(words) && (finiteVerb(words[i+1]) || enPastAt(words, i+1)) {
				continue // "museum tickets were …": w was the subject's noun
			}
			return true // "needles freak me out", "my son plays …"
		}
	}
	return false
}

// timeBound: words that date a statement to a day or a short span.
var timeBound = lexicon{
	en: []string{"today", "yesterday", "tonight", "this morning", "last night", "last week", "last weekend", "just now",
		"earlier today", "this afternoon", "this week", "this weekend", "next week", "tomorrow", "just got back",
		"thinking about", "planning to", "plan to"},
	ko: []string{"오늘", "어제", "방금", "아까", "지난주", "지난 주", "어젯밤", "이번 주", "이번주", "다음 주", "다음주", "내일", "주말에"},
}

// standingCue: a decision or a standing statement.
var standingCue = lexicon{
	en: []string{"decided", "we're going with", "going with", "we chose", "always", "usually", "prefer"},
	ko: []string{"기로 했", "기로 정했", "결정", "항상", "보통"},
}

// changeOfState: verbs whose past is the start of a state that lasts —
// the new job, home, tool or habit is the fact ("I switched to a standing
// desk last month", "회사 옮겼어").
var changeOfState = lexicon{
	en: []string{"switched to", "switched from", "changed to", "joined", "quit", "retired", "became", "adopted", "converted to",
		"enrolled", "transferred to", "relocated", "started working", "started at", "got a new job", "signed up for", "took up", "gave up",
		"moved to", "moved back", "moved in", "moved out", "moved here", "moved there", "settled in", "started", "began", "stopped",
		"learned to", "picked up", "changed jobs", "changed my", "left my job", "got a job"},
	ko: []string{"이직했", "입사했", "퇴사했", "그만뒀", "그만 뒀", "옮겼", "바꿨", "갈아탔", "끊었", "입양했", "등록했", "시작했", "전학"},
}

// lifePeriod: norm states a period of life — a stative predicate over a
// span of years or since a time ("for six years", "for a decade", "since
// 2019", "ever since", "4년 동안", "10년째", "3년 넘게"), a stage of life
// ("in college", "as a kid", "대학 때", "어릴 때"), where one lived or grew
// up, or what one studied. The fixed phrases are a lexicon; the patterns
// with a number or a subject run only where their word occurs.
func lifePeriod(norm string) bool {
	if kwFind(norm, lifeStage) != "" {
		return true
	}
	return strings.Contains(norm, " for ") && (strings.Contains(norm, " year") || strings.Contains(norm, " decade")) && spanOfYears.MatchString(norm) ||
		strings.Contains(norm, " since ") && sinceStage.MatchString(norm) ||
		strings.Contains(norm, " when i was ") && whenIWas.MatchString(norm) ||
		strings.Contains(norm, "년") && koSpanOfYears.MatchString(norm) ||
		strings.Contains(norm, " lived ") && livedRE.MatchString(norm)
}

// lifeStage: the fixed phrases of lifePeriod.
var lifeStage = lexicon{
	en: []string{"ever since", "in college", "in high school", "in university", "at university", "as a kid", "as a child", "as a teenager",
		"growing up", "grew up", "raised", "brought up", "born and", "majored in", "studied at", "studied in", "trained as", "served in",
		"graduated from"},
	ko: []string{"살았", "자랐", "자취했", "거주했", "전공했", "복무했", "어릴 때", "어렸을 때", "대학 때", "학생 때", "고등학교 때", "중학교 때", "초등학교 때"},
}

// The patterns of lifePeriod.
var (
	spanOfYears   = regexp.MustCompile(`\bfor (?:[0-9]+|a|one|two|three|four|five|six|seven|eight|nine|ten|many|several|a few) (?:years?|decades?)\b`)
	sinceStage    = regexp.MustCompile(`\bsince (?:i was|childhood|high school|college|university|middle school|elementary school|[0-9]{4})\b`)
	whenIWas      = regexp.MustCompile(`\bwhen i was (?:a kid|a child|little|young|younger|a teenager|[0-9]+)\b`)
	koSpanOfYears = regexp.MustCompile(`[0-9]+\s?년\s?(?:동안|간|째|넘게|이상)`)
	livedRE       = regexp.MustCompile(`\b(?:i|we|she|he|they)(?: \w+)? lived\b`)
)

// standingConditions are the words of a lasting condition, fear, allergy
// or trait, in both languages. (A relationship is a fact by default; a
// relative named in a story of the day — "엄마가 … 잔소리함" — is not one.)
var standingConditions = sync.OnceValue(func() lexicon {
	return lexicon{
		en: []string{"allergic", "allerg*", "afraid of", "scared of", "terrified of", "fear of", "phobia", "phobic", "claustrophob*",
			"diabet*", "asthma", "chronic", "syndrome", "disorder", "condition", "bad knee", "bad back", "left-handed", "right-handed",
			"left handed", "right handed", "colorblind", "colour blind", "color blind", "vegetarian", "vegan", "intolerant", "blood type",
			"diagnosed with", "diagnosis of"}, // a diagnosis names the condition it starts, even dated ("diagnosed with ADHD last spring")
		ko: []string{"알레르기", "공포증", "무서워", "겁나", "두려워", "당뇨", "천식", "만성", "증후군", "장애", "왼손잡이", "오른손잡이",
			"색맹", "채식", "비건", "혈액형", "진단 받", "진단받", "진단을 받"},
	}
})

// pastTense reports an English past-tense verb of an event, or a Korean
// verb in the past tense (a syllable closed by ㅆ — 먹었, 샀, 했 — followed by
// an ending; 있 "to be" and 겠 "will" are not past).
func pastTense(norm string) bool {
	if enPastEvent(norm) {
		return true
	}
	rs := []rune(norm)
	for i := 0; i+1 < len(rs); i++ {
		r := rs[i]
		if r < 0xAC00 || r > 0xD7A3 || (r-0xAC00)%28 != 20 || r == '있' || r == '겠' {
			continue
		}
		switch rs[i+1] {
		case '어', '다', '습', '지', '는', '고', '대', '더', '네': // 나왔네, 샀네: a past event noticed
			return true
		}
	}
	return false
}

// enPastEvent: an English past form of an event verb — "was", "were",
// "had", an irregular past (gave, broke, spent …) or a -ed word — that is
// not a participle of state: after a copula or "have" ("is called", "have
// finished"), or a participle that names a state ("named", "based",
// "married", "used to").
func enPastEvent(norm string) bool {
	words := strings.Fields(norm)
	for i, w := range words {
		if i > 1 && relativizer[w] {
			break // "I own an old Vespa that I restored myself": the main predicate is before it
		}
		if enPastAt(words, i) {
			return true
		}
	}
	return false
}

// enPastAt: words[i] is an English past form of an event (enPastEvent).
func enPastAt(words []string, i int) bool {
	w := words[i]
	if w == "was" || w == "were" {
		return true
	}
	past := irregularPast[w] || enPastExtra[w] || len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && !stativeParticiple[w]
	if !past || i > 0 && (stateCopula[words[i-1]] || perfectAux[words[i-1]] || nounOpener[words[i-1]] && !irregularPast[w] || degreeWord[words[i-1]]) {
		return false // "is called", "have finished", "a herniated disc", "so tired": states
	}
	if i > 0 && (w == "won" && startsWithDigit(words[i-1]) || w == "left" && nounOpener[words[i-1]]) {
		return false // "3,000 won" is a price, "my left knee" a side
	}
	if i > 0 && words[i-1] == "i" && (w == "said" || w == "meant") {
		return false // "no, I said Postgres 16": what the speaker said in this conversation
	}
	return true
}

// objectPronoun: a word before one is a transitive verb ("crowds make me
// anxious").
var objectPronoun = map[string]bool{"me": true, "us": true}

// degreeWord: an adverb of degree before a participle makes it an
// adjective ("so tired", "really stressed").
var degreeWord = map[string]bool{"so": true, "very": true, "really": true, "quite": true, "too": true, "super": true,
	"pretty": true, "totally": true, "extremely": true, "slightly": true, "mildly": true, "severely": true}

// relativizer opens a relative clause: a past verb after it tells of the
// thing the main clause names, not the statement's own time.
var relativizer = map[string]bool{"that": true, "which": true, "who": true, "whom": true, "whose": true}

// enPastExtra are past forms of event verbs irregularPast does not hold.
var enPastExtra = map[string]bool{"brought": true, "visited": true, "watched": true, "tried": true, "booked": true,
	"finished": true, "taught": true, "blew": true, "dug": true, "fought": true, "hid": true, "spoke": true,
	"stole": true, "stuck": true, "tore": true, "wore": true, "grew": true, "understood": true, "overslept": true}

// perfectAux: "have" before a participle makes a perfect (a result or an
// experience that holds now), not a dated event.
var perfectAux = map[string]bool{"have": true, "has": true, "i've": true, "we've": true, "you've": true, "they've": true,
	"ive": true, "weve": true, "never": true, "already": true}

// stativeParticiple: -ed words that name a state, not an event.
var stativeParticiple = map[string]bool{"named": true, "called": true, "based": true, "located": true, "married": true,
	"interested": true, "excited": true, "tired": true, "bored": true, "worried": true, "obsessed": true, "related": true,
	"supposed": true, "used": true, "allowed": true, "required": true, "involved": true, "engaged": true, "divorced": true,
	"retired": true, "qualified": true, "certified": true, "skilled": true, "experienced": true, "vaccinated": true,
	"lived": true, "worked": true, "owned": true, "loved": true, "liked": true, "hated": true, "wanted": true, "needed": true,
	"stayed": true, "remained": true, "belonged": true, "preferred": true, "enjoyed": true, "seemed": true, "stressed": true,
	"scared": true, "terrified": true, "attached": true, "addicted": true, "unemployed": true, "employed": true, "self-employed": true,
	"hundred": true, "talented": true, "detailed": true, "limited": true, "united": true, "beloved": true, "wicked": true,
	"inspired": true, "handed": true, "minded": true, "haired": true, "eyed": true, "sighted": true, "annoyed": true, "embarrassed": true, "confused": true, "disappointed": true, "surprised": true}
