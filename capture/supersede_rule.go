package capture

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine/filter"
	"memtrace/engine/textnorm"
)

// The supersession rule (always on, precision first: a wrong supersession
// hides a true fact). A newly stored fact supersedes an older one when
//
//  1. a clause of it carries a change marker (EN "moved to", "now", "no
//     longer", "switched to", "migrated from … to", "new X is", "stopped",
//     "quit", "gave up", "cancelled", "is off", "last day at", "traded in",
//     "instead", "instead of X", "joined", "started", "got married" …; KO
//     "이제", "이제 안 …", "바꿨어", "옮겼어", "그만두고", "끊었어", "접었어",
//     "취소했", "더 이상 … 안", "새로", "이사했", "입사했", "입학했", "X 말고",
//     "결혼했" …); the first such clause states the change;
//  2. it is not a question ("did you switch to Rust?"), a hypothetical
//     ("if I moved to Jeju…", "만약 …면"), an addition ("I now also use
//     Postgres", "second car", "또", "추가로"), or a negated change ("I haven't
//     switched", "안 바꿨어");
//  3. the older memory is active, of the same scope, not superseded
//     already, recorded before the new one, does not already state the new
//     value in its first clause, and is about the same subject, read from
//     the marker's clause (supersede_topic.go): the head noun and the
//     marker's object, never a word of another clause or of an adjunct
//     ("… after the Redis upgrade"). Either both name the same entry of
//     the subject lexicon (home, employer, car, phone, CI, database,
//     school, manager, office, relationship, editor) or one the marker
//     implies when people move ("we moved to" → home, "joined" → employer,
//     "입학" → school, "got married" → relationship; "the build runner
//     moved to" implies nothing); or the marker takes an object (stopped
//     X, gave up X, X is off, switched X, moved X to, instead of X, X
//     끊었어, X 이제 안 …, X 말고) and the older memory names a term of X or
//     its concept partner in the other script (supersede_concept.go) — an
//     open subject, no lexicon needed — unless it already negates X (then
//     it agrees); or, for "new X is", both name X. The older memory is
//     read from its main clauses too, and for the speaker's change from
//     the speaker's clauses only (supersede_old.go); one whose first
//     clause already names the new value agrees with the change. Of
//     the memories under each subject or term, the 32 most recent are
//     considered (a bound on the cost per capture);
//  4. both speak of the same people: the person words (wife, son, 아내, 딸 …)
//     and the names of the clause's subject ("Hana started first grade";
//     not a sentence-initial capital such as "Huge news:" or "Last
//     Friday") occur in the old one, and the old one names no other person.
//
// Of several older memories that qualify, the one sharing the most terms
// of X, then the most words, then the newest is superseded; never more
// than one. An update is stored as a fact; a retraction takes the kind and
// importance of what it retracts.

// changeMarker is one change marker: a name for the trail, its pattern, and
// the subject it implies when it names one by itself.
type changeMarker struct {
	name    string
	re      *regexp.Regexp
	implies string
	// lits: lower-case words one of which every match contains; a text
	// without any of them skips the pattern (most texts carry no marker,
	// and a substring test costs far less than the pattern).
	lits []string
	// open: the marker takes an object ("stopped X", "X is off", "moved
	// X to"), so the older memory may be found by the object's words
	// alone, with no subject of the lexicon. retract: the marker ends
	// what it names (a retraction), it does not give a new value.
	// intransitive: the marker's verb takes no object (이사했, 입사했,
	// 입학했), so the bare words before its (으)로 word are the
	// destination's ("인천 송도로"), not a thing that moved.
	// negates: the marker says its object no longer holds (a
	// retraction, "X 말고", "instead of X"), so an older memory that
	// already negates X agrees with it rather than being replaced.
	open, retract, intransitive, negates bool
	// headOnly: the change is of the head's value ("the gym raised
	// prices", "김밥집 가격 올랐어", "Pebblenote is now Quillbox"): the
	// topic is the head noun alone, and with no head noun (the speaker:
	// "I dropped by") the marker names no subject.
	headOnly bool
}

// markerTable is the bilingual change-marker table, in order of strength.
// A pattern's group obj, when it has one, is the marker's object inside it.
func markerTable() []changeMarker {
	en := func(name, pattern, implies string, lits ...string) changeMarker {
		return changeMarker{name: name, re: regexp.MustCompile(`(?i)\b(?:` + pattern + `)\b`), implies: implies, lits: lits}
	}
	ko := func(name, pattern, implies string, lits ...string) changeMarker {
		return changeMarker{name: name, re: regexp.MustCompile(pattern), implies: implies, lits: lits}
	}
	open := func(m changeMarker) changeMarker { m.open = true; return m }
	retract := func(m changeMarker) changeMarker { m.open, m.retract, m.negates = true, true, true; return m }
	replaceOf := func(m changeMarker) changeMarker { m.open, m.negates = true, true; return m }
	intransitive := func(m changeMarker) changeMarker { m.intransitive = true; return m }
	headOnly := func(m changeMarker) changeMarker { m.open, m.headOnly = true, true; return m }
	return []changeMarker{
		open(en("migrated from … to", `migrated\s+(?P<obj>(?:\S+\s+){0,4}?)from\s+\S+(?:\s+\S+){0,3}?\s+to`, "", "migrated")),
		open(en("switched to", `switched\s+(?P<obj>(?:\S+\s+){0,3}?)(?:to|from)`, "", "switched")),
		open(en("moved to", `moved\s+(?:to|into)`, "home", "moved")),
		open(en("moved … to", `moved\s+(?P<obj>(?:\S+\s+){1,3}?)to`, "", "moved")),
		open(en("relocated to", `relocated\s+(?P<obj>(?:\S+\s+){0,3}?)(?:to|into)`, "", "relocated")),
		retract(en("no longer", `no\s+longer|not\s+any\s*more|anymore`, "", "longer", "any")),
		retract(en("cancelled", `cancel(?:l?ed)|called\s+off|(?:is|are|was|were|'s)\s+off`, "", "cancel", "called", "off")),
		retract(en("gave up", `gave\s+up|given\s+up|giving\s+up|ditched|scrapped|dropped\s+out\s+of`, "", "gave", "given", "giving", "ditched", "scrapped", "dropped")),
		retract(en("left the group", `left\s+(?:the|my|our)\s+(?P<obj>(?:\S+\s+){0,2}?(?:club|team|band|choir|group|crew|league|class|course|gym|job|company|firm|startup))`, "", "left")),
		open(en("postponed", `postponed|rescheduled|pushed\s+back|delayed`, "", "postponed", "rescheduled", "pushed", "delayed")),
		retract(en("last day at", `last\s+day\s+(?:at|with|of\s+work)|final\s+(?:day|shift|workday)|resigned\s+from|left\s+my\s+job\s+at|retired\s+(?:from|last|this|in|early)|(?:has|have|just|finally)\s+retired|retired\s*[.!]`, "employer", "last", "final", "resigned", "left", "retired")),
		open(en("traded in", `traded\s+in|traded\s+(?P<obj>(?:\S+\s+){1,3}?)in|sold|got\s+rid\s+of`, "", "traded", "sold", "rid")),
		open(en("renamed", `(?:renamed|rebranded)\s+(?P<obj>(?:\S+\s+){0,3}?)(?:to|as)`, "", "renamed", "rebranded")),
		headOnly(ko("is now NAME", `\b(?:is|are|Is|Are)\s+now\s+(?:(?i:called|named|known\s+as)\s+)?(?P<val>[A-Z])`, "", "now")),
		headOnly(en("raised", `raised|increased|hiked|doubled|lowered|went\s+(?:up|down)|gone\s+(?:up|down)|goes\s+up|rose`, "", "raised", "increased", "hiked", "doubled", "lowered", "went", "gone", "goes", "rose")),
		en("got married", `got\s+(?:married|engaged|divorced|hitched)|tied\s+the\s+knot|broke\s+up|split\s+up`, "relationship", "got", "tied", "broke", "split"),
		en("new X is", `new\s+(?:\S+\s+){1,2}?(?:is|are)`, "", "new"),
		ko("new X", `(?i)\b(?:got|bought|have|has|getting|found)\s+(?:a\s+|my\s+|our\s+)?new\s+[a-z]|(?i:^\s*(?:a\s+|my\s+|our\s+)?new\s+[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?\s*(?::|!|$))`, "", "new"),
		en("joined", `joined`, "employer", "joined"),
		en("started", `started`, "", "started"),
		retract(en("stopped", `stopped|quit`, "", "stopped", "quit")),
		replaceOf(en("instead of", `instead\s+of\s+(?:the\s+|my\s+|our\s+|a\s+)?(?P<obj>\S+)`, "", "instead")),
		en("instead", `instead`, "", "instead"),
		open(en("replaced", `replaced|upgraded\s+to|changed\s+(?P<obj>(?:\S+\s+){0,3}?)to`, "", "replaced", "upgraded", "changed")),
		en("now", `now|nowadays|these\s+days`, "", "now", "these"),
		open(ko("바꿨어", `바꿨|바꾸었|바뀌었|바꿈|바꾸셨|갈아탔|갈아타셨`, "", "바꿨", "바꾸었", "바뀌었", "바꿈", "바꾸셨", "갈아탔", "갈아타셨")),
		open(ko("옮겼어", `옮겼|옮기었|옮김|옮기셨|이전\s*(?:했|함|됐|완료)`, "", "옮겼", "옮기었", "옮김", "옮기셨", "이전")),
		intransitive(ko("이사했", `이사\s*(?:했|왔|갔|함|끝|완료|마쳤|하셨|오셨|가셨)`, "home", "이사")),
		intransitive(ko("입사했", `입사\s*(?:했|함|하셨)|이직\s*(?:했|함|하셨)`, "employer", "입사", "이직")),
		retract(ko("퇴사했", `(?:퇴사|퇴직|은퇴)\s*(?:했|함|하셨)`, "employer", "퇴사", "퇴직", "은퇴")),
		intransitive(ko("전학했", `전학\s*(?:했|갔|왔|함|하셨)`, "school", "전학")),
		retract(ko("해지했", `(?:해지|해약|탈퇴)\s*(?:했|함|됐|하셨)`, "", "해지", "해약", "탈퇴")),
		open(ko("미뤄졌", `연기\s*(?:됐|했|되었|됨)|미뤄졌|미뤘|미뤄짐`, "", "연기", "미뤄", "미뤘")),
		intransitive(ko("입학했", `입학\s*(?:했|함|하셨)|들어갔`, "school", "입학", "들어갔")),
		ko("결혼했", `(?:결혼|약혼|이혼)\s*(?:했|함|하셨|식\s*올렸)|헤어졌|헤어짐`, "relationship", "결혼", "약혼", "이혼", "헤어"),
		retract(ko("그만두고", `그만\s+다(?:녀|니|님)|그만두고|그만뒀|관뒀|관둠|관두고|때려쳤|그만\s+뒀|그만\s*둠|그만두셨|끊었|끊음|끊으셨|접었|접음|접으셨`, "", "그만", "관뒀", "관둠", "관두고", "때려쳤", "끊었", "끊음", "끊으셨", "접었", "접음", "접으셨")),
		retract(ko("버렸", `(?P<obj>\S*[^아어여워해와봐줘져가나\s])\s+(?:내\s*)?버렸`, "", "버렸")),
		headOnly(ko("올랐", `올랐|올라갔|내렸|(?:인상|인하)\s*(?:됐|했|되었|됨)`, "", "올랐", "올라갔", "내렸", "인상", "인하")),
		retract(ko("취소했", `취소\s*(?:했|됐|됨|함|되었)|(?i:cancel)\s*(?:했|됐|됨|함)`, "", "취소", "cancel")),
		retract(ko("안 한 지", `(?:안|못)\s*\S*\s+지\s+(?:\S+\s+){0,3}?(?:됐|되었|넘었|됨)`, "", "지")),
		retract(ko("이제 안", `(?:이제|더\s*이상)\s+(?:(?P<obj>\S+)\s+)?(?:안|못)\s`, "", "이제", "이상")),
		ko("더 이상 … 안", `더\s*이상`, "", "이상"),
		ko("새로", `새로|(?:^|\s)새\s`, "", "새"),
		ko("시작했", `시작했`, "", "시작했"),
		replaceOf(ko("말고", `(?P<obj>\S*[^지\s])\s+(?:말고|대신)(?:\s|$)`, "", "말고", "대신")),
		ko("대신", `대신`, "", "대신"),
		ko("이제", `이제|요즘은`, "", "이제", "요즘은"),
	}
}

// sentenceOf is the sentence of text that holds clause (text itself when
// none does, or when the message is a single sentence).
func sentenceOf(text, clause string) string {
	for _, s := range sentenceSplit.Split(text, -1) {
		if strings.Contains(s, clause) {
			return s
		}
	}
	return text
}

// headBefore is the words of clause before byte s, after its last colon.
func headBefore(clause string, s int) string {
	head := clause[:s]
	if i := strings.LastIndex(head, ":"); i >= 0 {
		head = head[i+1:]
	}
	return head
}

// containsAny reports whether lower (lower-cased text) contains one of lits.
func containsAny(lower string, lits []string) bool {
	for _, l := range lits {
		if strings.Contains(lower, l) {
			return true
		}
	}
	return false
}

// notChange are phrases in which a marker word does not mark a change.
var notChange = regexp.MustCompile(`(?i)\b(?:for|right|just|until|by|up\s+to|till)\s+now\b`)

// Guards: a sentence that matches one states no change.
var (
	questionStart = regexp.MustCompile(`(?i)^\s*(?:did|do|does|are|is|have|has|will|would|should|can|could|were|was|why|when|how)\b`)
	hypothetical  = regexp.MustCompile(`(?i)\b(?:if|what\s+if|would|might|maybe|perhaps|thinking\s+(?:about|of)|planning\s+to|plan\s+to|going\s+to|want\s+to|considering|someday|one\s+day)\b|만약|혹시|싶어|싶다|고\s*싶|려고|생각\s*중|예정|할까|을까|ㄹ까|(?:하|가|으|다|되|오|했으|갔으|옮기|바꾸)면(?:\s|$|,)`)
	additive      = regexp.MustCompile(`(?i)\btoo\s*(?:[.!?,;)]|$)|\b(?:also|as\s+well|another|second|additionally|in\s+addition|besides|along\s+with|on\s+top\s+of)\b|추가로|하나\s*더|두\s*번째|(?:^|\s)또\s`)
	negatedEN     = regexp.MustCompile(`(?i)\b(?:not|never|n't|haven't|hasn't|didn't|don't|won't)\s+(?:\S+\s+)?(?:moved|switched|migrated|joined|started|stopped|changed|replaced)\b`)
	negatedKO     = regexp.MustCompile(`(?:안|못)\s*(?:바꿨|옮겼|이사|그만|바꾸)`)
	newXIs        = regexp.MustCompile(`(?i)\bnew\s+([a-z][a-z-]+)(?:\s+[a-z][a-z-]+)?\s+(?:is|are)\b`)
	newX          = regexp.MustCompile(`(?i)\bnew\s+([a-z][a-z-]+)`)
)

// subjectEntry is one subject of the lexicon: whole words, word prefixes
// (ending in *) and phrases, EN and KO.
type subjectEntry struct {
	name  string
	words []string
}

func subjectTable() []subjectEntry {
	return []subjectEntry{
		{"home", []string{"i live", "we live", "i lived", "we lived", "i'm living", "living in", "lives in", "my apartment", "our apartment",
			"my house", "our house", "my flat", "our flat", "my address", "hometown", "my place", "our place", "a place in", "renting", "i rent", "we rent",
			"살아", "살고", "살았", "사는", "살아요", "이사*", "거주*", "우리 집", "집은", "집이", "월세*", "전세*", "자취*"}},
		{"employer", []string{"work at", "work for", "works at", "working at", "job", "company", "employer",
			"회사*", "직장*", "다녀", "다니고", "다녀요", "입사*", "근무*", "이직*", "일해", "일해요", "일하고", "일하는", "일합니다"}},
		{"car", []string{"car", "cars", "drive", "drives", "driving", "vehicle",
			"차", "차는", "차를", "차가", "차로", "자동차*", "운전*"}},
		{"phone", []string{"phone", "smartphone", "iphone", "galaxy", "pixel",
			"핸드폰*", "휴대폰*", "폰", "폰은", "폰을", "폰이", "스마트폰*", "아이폰*", "갤럭시*"}},
		{"ci", []string{"ci", "jenkins", "github actions", "circleci", "gitlab ci", "buildkite", "빌드 서버", "젠킨스*"}},
		{"database", []string{"database", "databases", "db", "mysql", "postgres", "postgresql", "sqlite", "mongodb",
			"데이터베이스*", "디비*"}},
		{"school", []string{"kindergarten", "preschool", "grade", "school", "elementary",
			"유치원*", "어린이집*", "학년*", "학교*", "초등학교*", "입학*"}},
		{"manager", []string{"manager", "boss", "team lead", "report to", "reports to", "reporting to", "매니저*", "팀장*", "상사*"}},
		{"office", []string{"office", "사무실*"}},
		{"relationship", []string{"engaged", "engagement", "fiancé", "fiancée", "fiance", "fiancee", "wedding", "married", "marriage",
			"dating", "divorced", "약혼*", "결혼*", "연애*", "사귀*", "이혼*", "예비신부", "예비신랑", "예비 신부", "예비 신랑"}},
		{"editor", []string{"editor", "vim", "neovim", "emacs", "vscode", "vs code", "에디터*", "편집기*"}},
	}
}

// personWords name people; two facts about different people's things are
// not one subject ("my wife's new car" is not my car).
var personWords = []string{"wife", "husband", "spouse", "partner", "son", "daughter", "kid", "kids",
	"mom", "mother", "dad", "father", "brother", "sister", "friend", "colleague", "girlfriend", "boyfriend",
	"cousin", "aunt", "uncle", "grandma", "grandmother", "grandpa", "grandfather", "nephew", "niece", "neighbor", "neighbour", "roommate", "coworker",
	"사촌*", "이모*", "고모*", "삼촌*", "할머니*", "할아버지*", "조카*", "이웃*", "룸메*",
	"아내*", "와이프*", "남편*", "아들*", "딸", "딸이", "딸은", "딸의", "엄마*", "어머니*", "아빠*", "아버지*", "누나*", "여동생*", "남동생*", "형", "형이", "형은",
	"오빠*", "언니*", "동생*", "친구*", "동료*", "여자친구*", "남자친구*"}

// supersedeRule is the prepared rule: the tables compiled once.
type supersedeRule struct {
	markers  []changeMarker
	subjects []subjectEntry
	// subjectWords holds every subject's words; subjectOf[i] is the
	// subject of its entry i.
	subjectWords *wordSet
	subjectOf    []int
}

func newSupersedeRule() *supersedeRule {
	r := &supersedeRule{markers: markerTable(), subjects: subjectTable()}
	var words []string
	for i, s := range r.subjects {
		for _, w := range s.words {
			words, r.subjectOf = append(words, w), append(r.subjectOf, i)
		}
	}
	r.subjectWords = newWordSet(words)
	return r
}

// changeFinding is what the rule reads from a new memory's text: its
// marker and the subjects it speaks of. Empty Marker: no change stated; a
// Guard (question, hypothetical, addition, negated) refuses the marker.
type changeFinding struct {
	Marker   string
	Guard    string
	Subjects []string // lexicon subjects of the marker's clause, marker-implied included
	AdHoc    string   // X of "new X is", when it names no lexicon subject
	People   []string // person words and names of the clause's subject
	Words    []string // content tokens, for the tie-break
	// Terms: the topic of the change, the content terms of the marker's
	// head and object (supersede_topic.go); with an Open marker an older
	// memory naming one of them is about the same subject. Said: the
	// clause's terms outside the marker, to tell a restatement. Retract:
	// the marker ends what it names. Partners: the Terms' concept partners
	// in the other script (supersede_concept.go), which an older memory
	// may name instead. Object: the terms of the marker's object. Value:
	// the new value (the destination, the names of the marker's sentence
	// that are not its object), which an older memory that already names
	// it agrees with.
	Terms, Said, Partners, Object []string
	Value                         [][]string
	Open, Retract, Negates        bool
	// Partner: the other party of a relationship change ("Hana and I
	// split up", "태민이랑 결혼했어"), lower-cased; the older memory it
	// replaces is the speaker's naming that partner (supersede_slot.go).
	// Slot: which slot the change fills and how it was read, for the
	// trail ("employer, implied by \"joined\" for the speaker",
	// "membership of a club: no employer change").
	Partner, Slot string
}

// anyLiteral: lower contains a literal of some marker.
func (r *supersedeRule) anyLiteral(lower string) bool {
	for i := range r.markers {
		if containsAny(lower, r.markers[i].lits) {
			return true
		}
	}
	return false
}

// isLatinMarker: an English marker (its name is in Latin letters).
func isLatinMarker(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return r < unicode.MaxLatin1
}

// markerIn returns the strongest marker of clause and its match (the
// submatch indexes), or nil.
//
// Of the markers that take, end or imply what they name, the one that
// comes first in the clause states the change ("My brother quit Hyundai
// and joined Naver": quit Hyundai); a weak marker (now, instead,
// started, 이제 …) only when the clause has no other.
func (r *supersedeRule) markerIn(clause string) (*changeMarker, []int) {
	lower := strings.ToLower(clause)
	var best *changeMarker
	var bestLoc []int
	for i := range r.markers {
		m := &r.markers[i]
		if !containsAny(lower, m.lits) {
			continue
		}
		loc := m.re.FindStringSubmatchIndex(clause)
		if loc == nil {
			continue
		}
		if m.name == "now" && notChange.MatchString(clause) && len(m.re.FindAllStringIndex(clause, -1)) <= len(notChange.FindAllStringIndex(clause, -1)) {
			continue
		}
		if weakMarker(m) {
			if best == nil {
				best, bestLoc = m, loc
			}
			continue
		}
		if best == nil || weakMarker(best) || loc[0] < bestLoc[0] {
			best, bestLoc = m, loc
		}
	}
	return best, bestLoc
}

// weakMarker: a marker that neither takes, ends nor implies what it names.
func weakMarker(m *changeMarker) bool { return !m.open && !m.retract && m.implies == "" }

// find reads the marker, guards and subjects of text: the first clause
// that carries a marker is the one that states the change.
func (r *supersedeRule) find(text string) changeFinding {
	var f changeFinding
	if !r.anyLiteral(strings.ToLower(text)) { // most texts carry no marker
		return f
	}
	var mk *changeMarker
	var loc []int
	var clause string
	for _, c := range clauses(text) {
		if mk, loc = r.markerIn(c); mk != nil {
			clause = c
			break
		}
	}
	if mk == nil {
		return f
	}
	f.Marker, f.Open, f.Retract, f.Negates = mk.name, mk.open, mk.retract, mk.negates
	// A question anywhere makes the message no statement of a change; a
	// hypothetical, an addition or a negation only in the marker's own
	// sentence ("카페 알바 그만뒀어. 주말엔 쉬고 싶어서": the wish is the
	// reason, the change is stated).
	own := sentenceOf(text, clause)
	switch {
	case strings.Contains(text, "?") || questionStart.MatchString(text) || strings.HasSuffix(strings.TrimSpace(text), "니") || strings.HasSuffix(strings.TrimSpace(text), "나요"):
		f.Guard = "question"
	case hypothetical.MatchString(own):
		f.Guard = "hypothetical"
	case additive.MatchString(differentOther.ReplaceAllString(upToClause(own, clause), "$1 a different") + " "):
		f.Guard = "addition"
	case negatedEN.MatchString(own) || negatedKO.MatchString(own):
		f.Guard = "negated"
	}
	if f.Guard == "" && (thirdPerson(headBefore(clause, loc[0])) || filter.KoReportedClose(clause)) {
		f.Guard = "someone else" // a third-person pronoun, or hearsay ("…이사 갔대")
	}
	if f.Guard != "" {
		return f
	}
	obj := ""
	if g := mk.re.SubexpIndex("obj"); g > 0 && loc[2*g] >= 0 {
		obj = clause[loc[2*g]:loc[2*g+1]]
	}
	if g := mk.re.SubexpIndex("val"); g > 0 && loc[2*g] >= 0 {
		loc[1] = loc[2*g] // "is now Quillbox": the value is no part of the marker
	}
	t := topicOf(clause, loc[0], loc[1], obj, !isLatinMarker(mk.name), mk.intransitive, mk.retract)
	f.Terms, f.Object = t.terms, t.object
	if mk.headOnly {
		// The head noun, and with one the object ("Landlord raised the
		// rent"); the speaker's "I raised my kids" names no thing.
		f.Terms = headNouns(headBefore(clause, loc[0]))
		if len(f.Terms) > 0 && mk.re.SubexpIndex("val") < 0 {
			after := strings.ToLower(clause[loc[1]:])
			f.Terms = append(f.Terms, slices.DeleteFunc(slices.Clone(t.object), func(w string) bool {
				// only the marker's own object, after it: "the rent on my
				// apartment went up" has none.
				return slices.Contains(f.Terms, w) || slices.Contains(t.dest, w) || !strings.Contains(after, w)
			})...)
		}
		f.Object, f.Open = f.Terms, len(f.Terms) > 0
	}
	if !f.Retract && !f.Negates {
		f.Value = valueOf(t, text, clause, f.Open)
	}
	if f.Open {
		f.Partners = partnersOf(f.Terms)
	}
	pre := clause[:loc[0]]
	if i := strings.LastIndex(pre, ":"); i >= 0 { // "Reminder: …" is no word of the change
		pre = pre[i+1:]
	}
	for _, w := range textnorm.Tokens(pre + " " + clause[loc[1]:]) {
		if !notTopic[w] && !(f.Open && slices.Contains(f.Terms, w)) {
			f.Said = append(f.Said, w)
		}
	}
	f.Subjects = r.subjectsOf(lexNorm(t.span))
	if mk.headOnly {
		// A change of a thing's value is about its head noun: "the rent
		// on my apartment went up" names the rent, not the home.
		f.Subjects = r.subjectsOf(lexNorm(headPhrase(headBefore(clause, loc[0]))))
	}
	mover, implied := t.mover, mk.implies
	if implied == "relationship" {
		var rest string
		if f.Partner, rest = partnerOf(clause, loc[0], loc[1], !isLatinMarker(mk.name)); f.Partner != "" {
			mover = moverHead(rest)
			f.Said = slices.DeleteFunc(f.Said, func(w string) bool { return strings.HasPrefix(w, f.Partner) })
		}
	}
	group := ""
	if mk.name == "joined" || strings.Contains(clause[loc[0]:loc[1]], "들어갔") {
		group = membershipOf(clause, loc[0], loc[1], !isLatinMarker(mk.name))
	}
	switch {
	case group != "":
		// "joined a badminton club": the speaker is a member of a group;
		// no employer or school changes, whatever the object's modifiers.
		f.Subjects, implied = nil, ""
		f.Slot = "membership of a " + group + " (the object of " + mk.name + "), no employer or school change"
	case implied != "" && mover && !slices.Contains(f.Subjects, implied):
		f.Subjects = append(f.Subjects, implied)
		f.Slot = implied + ", implied by " + strconv.Quote(mk.name) + " for " + moverWho(f.Partner)
	case len(f.Subjects) > 0:
		f.Slot = strings.Join(f.Subjects, ", ") + ", named by the clause's subject or object"
	case f.Open && len(f.Object) > 0:
		f.Slot = "the object " + strconv.Quote(strings.Join(f.Object, " ")) + " of " + strconv.Quote(mk.name)
	}
	if m := newXIs.FindStringSubmatch(clause); m != nil && len(f.Subjects) == 0 {
		f.AdHoc = strings.ToLower(m[1])
	} else if m := newX.FindStringSubmatch(clause); m != nil && mk.name == "new X" && len(f.Subjects) == 0 {
		// "New job!", "Got a new parking spot", "New number: …": the
		// slot of the noun after "new", a lexicon subject or the noun.
		if subj := r.subjectsOf(lexNorm(m[1])); len(subj) > 0 {
			f.Subjects = subj
		} else {
			f.AdHoc = strings.ToLower(m[1])
		}
	}
	f.People = append(peopleOf(lexNorm(t.subject)), t.names...)
	for _, n := range koSubjectNames(clause) { // "민수 결혼했어", "지현은 …": that person's change
		if !slices.Contains(f.People, n) {
			f.People = append(f.People, n)
		}
	}
	if f.Partner != "" {
		f.People = slices.DeleteFunc(f.People, func(p string) bool { return p == f.Partner })
	}
	f.Words = contentWords(text)
	return f
}

// moverWho is whose change an implied subject is, for the trail.
func moverWho(partner string) string {
	if partner != "" {
		return "the speaker (partner " + partner + ")"
	}
	return "the speaker or the people named"
}
