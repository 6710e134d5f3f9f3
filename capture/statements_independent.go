package capture

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine/textnorm"
)

// Whether a part of a message is a statement of its own after the part
// before it, read from the parts' content, not from the types a judge
// gives them (issue 29). A part that stands alone (aloneWhy says nothing against it: its own
// predicate, enough words, nothing pointing back) is independent of the
// part before when
//
//   - the speaker marks it as an item of its own ("…, also …", "Two
//     things: …", a bulleted or numbered line), or
//   - one of the two is a standing instruction and the other is not (a
//     rule and a fact: "my shoe size is 270 and always reply in Korean"),
//     or
//   - it speaks of another subject: another owner (the speaker, a person
//     word, a name: "My sister lives in Daejeon and I'm allergic to
//     peanuts"), or the same owner's other thing — no slot of the
//     supersession lexicon (home, employer, car …) and no head noun in
//     common ("생일은 3월 2일이고 혈액형은 O형이야": 생일 / 혈액형).
//
// It stays with the part before when it says more of the same subject
// ("We moved CI to GitHub Actions, and the Jenkins box is off": both ci),
// when it qualifies that part with a condition or an exception ("I walk to
// work and I take the bus home when it rains", "…면", "…때는"), and when it
// goes on with the same account: two past events of the same people, the
// later without a time of its own ("We won the futsal final on Saturday!!
// I scored the winner", "친구 만나고, 저녁 먹었어"). Reasons, results and
// contrasts never divide a message: "because", "so", "but", "-아서",
// "-니까", "그래서", "근데" are no boundary, and a part that opens with one
// points back.

// partTopic is what a part speaks of: its owners (person words, names,
// "self" for the speaker or none), the lexicon slots it names, and its
// head nouns (content terms, people and predicates aside).
type partTopic struct {
	owners, slots, heads []string
}

// topicOfPart reads part's topic; rule may be nil (no slots then).
func topicOfPart(part string, rule *supersedeRule) partTopic {
	norm := lexNorm(part)
	var t partTopic
	t.owners = ownersOf(part)
	if rule != nil {
		t.slots = rule.subjectsOf(norm)
	}
	for _, w := range topicTerms(part) {
		if predicateTerm[w] || matchAny(" "+w+" ", personWords) != "" || slices.Contains(t.owners, w) || koPredicate(w) {
			continue
		}
		if !slices.Contains(t.heads, w) {
			t.heads = append(t.heads, w)
		}
	}
	return t
}

// ownersOf lists whom part is about: the person words and names in its
// subject position (an English clause's first three words, a Korean word
// marked 은/는/이/가/도, a Korean name), each person word by its relation
// in either script (엄마 = mom); "self" when it names no one there.
func ownersOf(part string) []string {
	var out []string
	add := func(o string) {
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	words := strings.Fields(part)
	for i, w := range words {
		lw := strings.ToLower(strings.Trim(w, ",.!?\"'()"))
		lw = strings.TrimSuffix(strings.TrimSuffix(lw, "'s"), "’s")
		if isHangulWord(w) {
			if matchAny(" "+lw+" ", personWords) != "" { // "내 여동생 이름은 …"
				add(personKey(lw))
			} else if base := personBase(lw); base != lw { // "형도", "딸이"
				add(personKey(base))
			}
			continue
		}
		if i < 3 && matchAny(" "+lw+" ", personWords) != "" {
			add(personKey(lw))
		}
	}
	for _, n := range leadingNames(part) {
		add(n)
	}
	for _, n := range koSubjectNames(part) {
		if n2, p := koName(n + "이는"); n2 != "" && p != "" && strings.Contains(part, n+"이") {
			add(n) // a name with the affectionate -이 (태민이는); a bare noun with 가 (호수가) may be no one
		}
	}
	if len(out) == 0 {
		out = append(out, "self")
	}
	return out
}

// personKey is the relation person word w names, one key for both
// scripts (the first word of its personGroups entry).
func personKey(w string) string {
	w = personBase(w)
	for _, g := range personGroups {
		if slices.Contains(g, w) {
			return g[0]
		}
	}
	return w
}

// predicateTerm are content terms that say what is the case rather than
// what it is about: a shared one ("lives", "like") is no shared subject.
var predicateTerm = map[string]bool{
	"live": true, "lives": true, "lived": true, "work": true, "works": true, "like": true, "love": true, "hate": true,
	"prefer": true, "want": true, "need": true, "allerg": true, "start": true, "started": true, "moved": true, "move": true,
	"got": true, "went": true, "new": true, "favorite": true, "favourite": true, "usual": true, "usually": true,
	"im": true, "i'm": true, "ive": true, "i've": true, "always": true, "never": true, "reply": true, "answer": true,
}

// koPredicate: a Korean term that is a predicate (a verb or adjective with
// its ending: 살아, 좋아해, 있어), not a noun the part is about.
func koPredicate(w string) bool {
	if !isHangulWord(w) {
		return false
	}
	for _, e := range []string{"어", "아", "야", "요", "다", "고", "해", "했", "함", "음", "지", "네", "게", "며"} {
		if strings.HasSuffix(w, e) && utf8.RuneCountInString(w) >= 2 {
			return true
		}
	}
	return false
}

// sameSubject reports whether b speaks of a's subject, and which.
func sameSubject(a, b partTopic) (bool, string) {
	owner := ""
	for _, o := range b.owners {
		if slices.Contains(a.owners, o) {
			owner = o
			break
		}
	}
	if owner == "" {
		return false, "owners " + strings.Join(a.owners, "+") + " / " + strings.Join(b.owners, "+")
	}
	for _, s := range b.slots {
		if slices.Contains(a.slots, s) {
			return true, s
		}
	}
	for _, h := range b.heads {
		for _, g := range a.heads {
			if h == g || textnorm.Stem(h) == textnorm.Stem(g) || koSameNoun(h, g) {
				return true, h
			}
		}
	}
	return false, "subjects " + topicLabel(a) + " / " + topicLabel(b)
}

// sharesOwner: a and b are about one of the same owners.
func sharesOwner(a, b partTopic) bool {
	for _, o := range b.owners {
		if slices.Contains(a.owners, o) {
			return true
		}
	}
	return false
}

// topicLabel names a topic for the trail: its slots, else its first head
// nouns, else its owner.
func topicLabel(t partTopic) string {
	if len(t.slots) > 0 {
		return strings.Join(t.slots, "+")
	}
	if len(t.heads) > 0 {
		return strings.Join(t.heads[:min(len(t.heads), 2)], "+")
	}
	return strings.Join(t.owners, "+")
}

// independentOf decides whether cur (a part that stands alone) is a
// statement of its own after prev (the text of the statement so far,
// whose last part is prevPart; clause: cur divides a sentence rather than
// starting one); why says so for the trail.
func independentOf(prev, prevPart, cur string, item, clause bool, rule *supersedeRule) (ok bool, why string) {
	if item {
		return true, "the speaker adds it as an item of its own"
	}
	pr, cr := instruction(prev), instruction(cur)
	if conditional(cur) && !cr {
		return false, "it qualifies the statement before (a condition or an exception)"
	}
	if cr && reporting.MatchString(prevPart) {
		return false, "it is what someone was reported to say, not an instruction of the speaker's"
	}
	if pr && !cr {
		// "앞으로 릴리스 노트는 두 언어로 써줘. 사용자 절반이 한국 사람이야":
		// a statement after an instruction is most often its reason.
		return false, "it gives the reason or the context of the instruction before"
	}
	if pr != cr {
		return true, "a standing instruction and a statement"
	}
	if rule != nil && !cr {
		if f := rule.find(prevPart); f.Marker != "" && f.Guard == "" && f.Retract {
			return false, "it explains the retraction before (" + strconv.Quote(f.Marker) + ")"
		}
	}
	pt, ct := topicOfPart(prev, rule), topicOfPart(cur, rule)
	if endsKorean(cur) && !koOwnSubject(cur) && (!clause || !slices.Contains(pt.owners, "self")) {
		// Korean leaves out a subject it keeps: a sentence without one goes
		// on about the sentence before ("설 연휴에 경주 내려가. 2/14 토요일
		// 출발해서 …"); a clause after "…고," may leave out the speaker.
		return false, "its subject is left out: it goes on about the part before"
	}
	same, what := sameSubject(pt, ct)
	if same {
		return false, "same subject (" + what + ")"
	}
	if !clause && !endsKorean(cur) && sharesOwner(pt, ct) && speakerOpens(cur) {
		// A sentence in which the speaker goes on ("packing is hell. we
		// have 14 boxes of books", "We hiked Jirisan. I twisted my ankle")
		// more often tells more of the account than starts a statement; a
		// clause of its own subject, a sentence that opens with a topic of
		// its own ("My favourite band is …") or about someone else does not.
		return false, "another sentence about the same people (" + strings.Join(ct.owners, "+") + ") goes on with the one before"
	}
	if continuesAccount(prev, cur, pt, ct) {
		return false, "it goes on with the account before (the same people, no time of its own)"
	}
	return true, "different " + what
}

// reporting: a verb of saying that makes the instruction after it
// reported speech ("physio said …, don't jump off", "…래", "…했대").
var reporting = regexp.MustCompile(`(?i)\b(?:said|says|told|tells|asked|warned|recommended|suggested)\b|(?:했대|하래|하라고|랬어|라고\s*했)`)

// koOwnSubject: a Korean part names its own topic or subject — a word
// marked 은/는/이/가, or the speaker (나, 저 …).
func koOwnSubject(part string) bool {
	for _, w := range strings.Fields(part) {
		w = strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if selfWords[w] {
			return true
		}
		if utf8.RuneCountInString(w) >= 2 && isHangulWord(w) && koTopicMarked(w) && !koAdverbI[w] {
			return true
		}
	}
	return false
}

// koAdverbI are adverbs that end in 이 or 가 like a subject particle.
var koAdverbI = map[string]bool{"같이": true, "많이": true, "깊이": true, "높이": true, "굳이": true, "일찍이": true,
	"틈틈이": true, "곰곰이": true, "나란히": true, "함께": true, "가끔": true, "겨우": true}

// koTopicMarked: Korean word w ends in a topic or subject particle.
func koTopicMarked(w string) bool {
	for _, p := range []string{"은", "는", "이", "가", "도"} {
		if strings.HasSuffix(w, p) {
			return true
		}
	}
	return false
}

// standing: text holds a standing-instruction marker.
func standing(text string) bool { return kwFind(lexNorm(text), standingLexicon()) != "" }

// conditionalEN / conditionalKO: a condition or exception inside a clause.
var (
	conditionalEN = regexp.MustCompile(`(?i)\b(?:when|whenever|if|unless|except|only\s+when|on\s+days|otherwise)\b`)
	conditionalKO = regexp.MustCompile(`\S(?:으면|면|때는|때만|때엔|경우엔|경우에는|빼고|말고는)(?:\s|$|,)`)
)

// conditional: text states its fact under a condition ("… when it
// rains", "비 오면 …").
func conditional(text string) bool {
	return conditionalEN.MatchString(text) || hasHangul(text) && conditionalKO.MatchString(text)
}

// timeAnchor: a part names a time of its own.
var (
	timeAnchorEN = regexp.MustCompile(`(?i)\b(?:yesterday|today|tonight|tomorrow|ago|last|next|now|currently|these\s+days|nowadays|this\s+(?:morning|afternoon|evening|week|month|year|weekend|spring|summer|fall|autumn|winter)|(?:on|since|in|by)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:in|since|by|from)\s+(?:january|february|march|april|may|june|july|august|september|october|november|december|\d{4})|(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d)\b`)
	timeAnchorKO = regexp.MustCompile(`어제|오늘|내일|그저께|지난|이번|다음|작년|올해|내년|주말|\d+월|\d+일|아침|저녁|어릴|예전|요즘|지금`)
)

func timeAnchor(text string) bool {
	return timeAnchorEN.MatchString(text) || hasHangul(text) && timeAnchorKO.MatchString(text)
}

// continuesAccount: cur goes on with the events prev tells — a past
// event (a Korean clause in -고 without a tense of its own takes the tense
// of the clause after it) followed, without a time of its own, by another
// past event, or by a state that does not open with the speaker ("went
// bouldering … my forearms are dead", "보리 백신 맞췄어. 45,000원 나옴"),
// about the speaker or people the account already names.
func continuesAccount(prev, cur string, pt, ct partTopic) bool {
	if timeAnchor(cur) || !(pastEvent(prev) || tenselessGo(prev) && pastEvent(cur)) {
		return false
	}
	if !pastEvent(cur) && speakerOpens(cur) {
		return false // "I moved to Busan last year and I'm allergic to peanuts"
	}
	lower := strings.ToLower(prev)
	for _, o := range ct.owners {
		if o != "self" && !slices.Contains(pt.owners, o) && !strings.Contains(lower, o) {
			return false
		}
	}
	return true
}

// speakerOpens: text opens with the speaker as its subject (I, I'm, we,
// 나, 저 …).
func speakerOpens(text string) bool {
	w := strings.Fields(strings.ToLower(text))
	if len(w) == 0 {
		return false
	}
	first := strings.Trim(w[0], ",.!?\"()")
	return selfWords[first] && first != "my" && first != "our" && first != "내" && first != "제"
}

// instruction: a standing instruction to the assistant — a standing
// marker in a part that addresses the assistant (you, reply, answer,
// 답, 말해 …) or is an imperative (a request ending, "always …", "don't
// …"); "에피펜 항상 들고 다녀" (I always carry an EpiPen) is a habit.
func instruction(text string) bool {
	if !standing(text) {
		return false
	}
	norm := lexNorm(text)
	if kwFind(norm, addressLexicon) != "" || hasHangul(text) && koRequest(text) {
		return true
	}
	ws := strings.Fields(norm)
	for len(ws) > 1 && leadFillers[ws[0]] {
		ws = ws[1:]
	}
	if len(ws) == 0 {
		return false
	}
	switch ws[0] {
	case "always", "never", "don't", "dont", "do", "from", "stop", "make", "keep", "use", "write", "call", "remind":
		return true
	}
	t := trimKoTail(text)
	for _, e := range []string{"지 마", "지마", "지 말아", "지 말고", "해라", "하세요", "하지 마세요"} {
		if strings.HasSuffix(t, e) {
			return true
		}
	}
	return false
}

// addressLexicon: words that address the assistant or its replies.
var addressLexicon = lexicon{
	en: []string{"you", "your", "reply", "replies", "answer*", "respond*", "response*", "tell me", "remind me", "call me", "explain*", "suggest*", "recommend*", "code", "commit*"},
	ko: []string{"답", "대답", "답변", "말해", "알려", "불러", "설명", "추천", "존댓말", "반말", "코드", "커밋"},
}

// irregularPast are English past forms of common event verbs.
var irregularPast = map[string]bool{
	"went": true, "ate": true, "got": true, "won": true, "made": true, "took": true, "saw": true, "met": true,
	"had": true, "did": true, "came": true, "ran": true, "bought": true, "told": true, "said": true, "left": true,
	"found": true, "gave": true, "felt": true, "lost": true, "fell": true, "broke": true, "drove": true, "flew": true,
	"wrote": true, "spent": true, "sent": true, "slept": true, "caught": true, "brought": true, "thought": true,
	"swam": true, "sang": true, "drank": true, "began": true, "kept": true, "paid": true, "sat": true, "stood": true,
	"threw": true, "hit": true, "rode": true, "woke": true, "chose": true, "forgot": true, "built": true, "heard": true,
}

// pastEvent: text tells a past event — an English past verb (a past form
// or a -ed word), or a Korean predicate in the past tense (a syllable with
// final ㅆ, 있 aside) or in the diary's nominal ending (…함, …옴, …했음).
func pastEvent(text string) bool {
	if hasHangul(text) {
		for _, w := range strings.Fields(text) {
			if koPast(w) {
				return true
			}
		}
		if endsKorean(text) {
			words := strings.Fields(trimKoTail(text))
			r, _ := utf8.DecodeLastRuneInString(words[len(words)-1])
			if r >= 0xAC00 && r <= 0xD7A3 && (r-0xAC00)%28 == 16 { // final ㅁ
				return true
			}
		}
	}
	words := strings.Fields(lexNorm(text))
	for i, w := range words {
		if irregularPast[w] {
			return true
		}
		if len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && !(i > 0 && stateCopula[words[i-1]]) {
			return true // not "is called", "are married": a state
		}
	}
	return false
}

// stateCopula: a present copula before a participle makes it a state.
var stateCopula = map[string]bool{"is": true, "are": true, "am": true, "i'm": true, "it's": true, "he's": true,
	"she's": true, "we're": true, "they're": true, "be": true, "been": true, "get": true, "gets": true}

// koPast: a Korean word holds a syllable with final ㅆ (했, 갔, 먹었),
// 있 (to be, present) aside.
func koPast(w string) bool {
	for _, r := range w {
		if r >= 0xAC00 && r <= 0xD7A3 && (r-0xAC00)%28 == 20 && r != '있' {
			return true
		}
	}
	return false
}

// tenselessGo: a Korean clause ending in a verb's -고 without a tense of
// its own ("친구 만나고"): its tense is the next clause's.
func tenselessGo(text string) bool {
	if !hasHangul(text) {
		return false
	}
	words := strings.Fields(trimKoTail(text))
	if len(words) == 0 {
		return false
	}
	last := words[len(words)-1]
	return strings.HasSuffix(last, "고") && !strings.HasSuffix(last, "이고") && !koPast(last)
}

// koSameNoun: Korean nouns a and b share a stem of two syllables or more
// that is the whole of one of them (조개 and 조개류, 알레르기 and 알레르기가).
func koSameNoun(a, b string) bool {
	if !isHangulWord(a) || !isHangulWord(b) {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return utf8.RuneCountInString(a) >= 2 && strings.HasPrefix(b, a)
}
