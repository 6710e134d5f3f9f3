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
	// notAfter: the rest of the clause after a match that makes the
	// words no change ("I'm off to Lisbon", "done with work for today",
	// "no more than 5"): the marker is not read there.
	notAfter *regexp.Regexp
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
	unless := func(m changeMarker, pattern string) changeMarker {
		m.notAfter = regexp.MustCompile(`(?i)` + pattern)
		return m
	}
	return []changeMarker{
		open(en("migrated from … to", `migrated\s+(?P<obj>(?:\S+\s+){0,4}?)from\s+\S+(?:\s+\S+){0,3}?\s+to`, "", "migrated")),
		open(en("switched to", `switched\s+(?P<obj>(?:\S+\s+){0,3}?)(?:to|from)`, "", "switched")),
		open(en("moved to", `moved\s+(?:to|into)`, "home", "moved")),
		open(en("moved … to", `moved\s+(?P<obj>(?:\S+\s+){1,3}?)to`, "", "moved")),
		open(en("relocated to", `relocated\s+(?P<obj>(?:\S+\s+){0,3}?)(?:to|into)`, "", "relocated")),
		retract(en("no longer", `no\s+longer|not\s+any\s*more|anymore`, "", "longer", "any")),
		retract(en("cancelled", `cancel(?:l?ed)|(?:had|decided|chose|ended\s+up\s+having)\s+to\s+cancel|ended\s+up\s+cancell?ing|called\s+off|(?:is|are|was|were|'s)\s+off`, "", "cancel", "called", "off")),
		retract(en("gave up", `(?:gave|given|giving)\s+up(?:\s+on)?|ditched|scrapped|shelved|mothballed|dropped\s+out\s+of`, "", "gave", "given", "giving", "ditched", "scrapped", "shelved", "mothballed", "dropped")),
		// The open retractions of a phrase rather than a verb: "I'm done
		// with X", "no more X", "X fell through", "X is over", "I'm off X",
		// "unsubscribed from X", "decided not to X" — each takes the
		// object the older memory names; the rest of the clause tells a
		// look-alike ("done with work for today", "no more than 5", "is
		// over budget", "I'm off to Lisbon").
		retract(unless(en("done with", `(?:i'm|i’m|i\s+am|im|we're|we\s+are|i've\s+been|all|finally|officially)\s+done\s+with|(?:i'm|i’m|i\s+am|im|we're)\s+finished\s+with`, "", "done", "finished"),
			`^\s*(?:it|this|that|him|her|them|you)\b|\b(?:for\s+(?:today|tonight|now|the\s+(?:day|night|week))|today|tonight|yet)\b`)),
		retract(unless(en("no more", `no\s+more`, "", "more"), `^\s*(?:than|questions|worries|excuses|problem)\b`)),
		retract(en("fell through", `(?:fell|falls|fallen|fall|falling)\s+(?:through|apart)`, "", "fell", "falls", "fallen", "fall")),
		retract(en("deleted X for good", `deleted\s+(?:my\s+|the\s+)?(?P<obj>(?:\S+\s+){1,2}?)(?:account|app|for\s+good)`, "", "deleted")),
		retract(unless(en("is over", `(?:is|are|was|were|'s)\s+(?:all\s+|finally\s+)?over`, "", "over"),
			`^\s*(?:there|here|the|a|an|my|our|his|her|their|budget|capacity|\d)`)),
		retract(unless(en("off X", `(?:i'm|i’m|i\s+am|im|we're|we\s+are|been|went|gone|came|come)\s+off`, "", "off"),
			`^\s*(?:to|for|at|on|in|work|duty|sick|today|tonight|tomorrow|now|again|the\s+(?:hook|grid|clock|record|charts))\b|^\s*$`)),
		retract(en("unsubscribed", `unsubscribed(?:\s+from)?|uninstalled|deactivated|decided\s+(?:not\s+to|against)`, "", "unsubscribed", "uninstalled", "deactivated", "decided")),
		retract(en("left the group", `left\s+(?:the|my|our)\s+(?P<obj>(?:\S+\s+){0,2}?(?:club|team|band|choir|group|crew|league|class|course|gym|job|company|firm|startup))`, "", "left")),
		open(en("postponed", `postponed|rescheduled|pushed\s+back|delayed|(?:pushed|bumped)\s+(?:to|until|till)\s+(?:next|later|tomorrow|the\s+following|(?:mon|tues|wednes|thurs|fri|satur|sun)day)`, "", "postponed", "rescheduled", "pushed", "bumped", "delayed")),
		retract(en("last day at", `(?:last|final)\s+(?:day|shift)\s+(?:at|with)|last\s+day\s+of\s+work|final\s+(?:day|shift|workday)|resigned\s+from|left\s+my\s+job\s+at|retired\s+(?:from|last|this|in|early)|(?:has|have|just|finally)\s+retired|retired\s*[.!]`, "employer", "last", "final", "resigned", "left", "retired")),
		open(en("traded in", `traded\s+in|traded\s+(?P<obj>(?:\S+\s+){1,3}?)in|sold|got\s+rid\s+of`, "", "traded", "sold", "rid")),
		open(en("renamed", `(?:renamed|rebranded)\s+(?P<obj>(?:\S+\s+){0,3}?)(?:to|as)`, "", "renamed", "rebranded")),
		headOnly(ko("is now NAME", `\b(?:is|are|Is|Are)\s+now\s+(?:(?i:called|named|known\s+as)\s+)?(?P<val>[A-Z])`, "", "now")),
		headOnly(en("raised", `raised|increased|hiked|doubled|lowered|went\s+(?:up|down)|gone\s+(?:up|down)|goes\s+up|rose`, "", "raised", "increased", "hiked", "doubled", "lowered", "went", "gone", "goes", "rose")),
		en("got married", `got\s+(?:married|engaged|divorced|hitched)|tied\s+the\s+knot|broke\s+up|split\s+up`, "relationship", "got", "tied", "broke", "split"),
		// "The new place is closer than Mapo was", "새 집은 망원동보다 넓어":
		// a comparison with what held before names the old value; it is
		// the object an older memory names (as "instead of X").
		replaceOf(en("than X was", `(?:new|now)\b.{0,80}?\bthan\s+(?:the\s+|my\s+|our\s+|in\s+|at\s+)?(?P<obj>\S+(?:\s+\S+)?)\s+(?:was|were|did|used\s+to\s+be)`, "", "than")),
		en("new X is", `new\s+(?:\S+\s+){1,2}?(?:is|are)`, "", "new"),
		ko("new X", `(?i)\b(?:got|bought|have|has|getting|found)\s+(?:a\s+|my\s+|our\s+)?new\s+[a-z]|(?i:^\s*(?:a\s+|my\s+|our\s+)?new\s+[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?\s*(?::|!|$))`, "", "new"),
		en("joined", `joined`, "employer", "joined"),
		en("started", `started`, "", "started"),
		retract(en("stopped", `stopped|quit|(?:had|decided|chose)\s+to\s+(?:stop|give\s+up|drop)`, "", "stopped", "quit", "had to", "decided to", "chose to")),
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
		retract(ko("그만두고", `그만\s+다(?:녀|니|님)|그만\s*(?:하|두|다니|배우)기로|(?:접|끊|관두)기로|그만\s*했|그만함|그만두고|그만뒀|관뒀|관둠|관두고|때려쳤|그만\s+뒀|그만\s*둠|그만두셨|끊었|끊음|끊으셨|접었|접음|접으셨`, "", "그만", "관뒀", "관둠", "관두고", "때려쳤", "끊었", "끊음", "끊으셨", "접었", "접음", "접으셨", "기로")),
		// "X 안 가기로 했어" (decided not to go): a decision that ends X;
		// "X 무산됐어", "파토났어", "엎어졌어": X fell through.
		retract(ko("안 …기로 했", `(?:^|\s)(?:안|못)\s*\S*(?:기로\s*(?:했|함|하셨|결정)|게\s*(?:됐|되었|됨))`, "", "기로", "게")),
		retract(ko("무산됐", `무산\s*(?:됐|되었|됨)|파토\s*(?:났|남)|엎어졌|없던\s*일로`, "", "무산", "파토", "엎어졌", "없던")),
		retract(ko("없어졌", `없어졌|없어짐|사라졌|폐업\s*(?:했|함|됐)`, "", "없어", "사라졌", "폐업")),
		retract(ko("버렸", `(?P<obj>\S*[^아어여워해와봐줘져가나\s])\s+(?:내\s*)?버렸`, "", "버렸")),
		headOnly(ko("올랐", `올랐|올라갔|내렸|(?:인상|인하)\s*(?:됐|했|되었|됨)`, "", "올랐", "올라갔", "내렸", "인상", "인하")),
		retract(ko("취소했", `취소\s*(?:했|됐|됨|함|되었)|(?i:cancel)\s*(?:했|됐|됨|함)`, "", "취소", "cancel")),
		retract(ko("안 한 지", `(?:안|못)\s*\S*\s+지\s+(?:\S+\s+){0,3}?(?:됐|되었|넘었|됨)`, "", "지")),
		// "이제 네이버 소속 아니에요", "더 이상 학생 아니야": no longer X.
		retract(ko("이제 … 아니", `(?:이제|더\s*이상)\s+(?P<obj>(?:\S+\s+){1,3}?)아니(?:야|에요|예요|고|다|라|거든|지만)`, "", "아니")),
		retract(ko("이제 안", `(?:이제|더\s*이상)\s+(?:(?P<obj>\S+)\s+)?(?:안|못)\s`, "", "이제", "이상")),
		ko("더 이상 … 안", `더\s*이상`, "", "이상"),
		replaceOf(ko("새 … 보다", `(?:^|\s)(?:새|이제)\s+(?:\S+\s+){0,3}?(?P<obj>\S+?)보다(?:\s|$)`, "", "보다")),
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
	attempted     = regexp.MustCompile(`(?:\b(?:tried|trying|tries|try|attempted|attempting|attempt|failed)\s+(?:hard\s+|again\s+|once\s+|twice\s+)?to\s+|\b(?:almost|nearly)\s+)$`)
	newXIs        = regexp.MustCompile(`(?i)\bnew\s+([a-z][a-z-]+)(?:\s+[a-z][a-z-]+)?\s+(?:is|are)\b`)
	newX          = regexp.MustCompile(`(?i)\bnew\s+([a-z][a-z-]+)`)
)

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
	// Surface: the Terms as written ("running" for run), whose sound
	// finds a loanword in the other script (supersede_open.go).
	Surface []string
	// Heads: a retraction's compounds, each term's next term in the
	// clause ("캠핑 예약": 캠핑 → 예약), read against an older memory's.
	Heads                  map[string][]string
	Value                  [][]string
	Open, Retract, Negates bool
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
		if loc == nil || m.notAfter != nil && m.notAfter.MatchString(clause[loc[1]:]) {
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
	if f.Guard == "" && attempted.MatchString(strings.ToLower(clause[:loc[0]])) {
		f.Guard = "attempt" // "I tried to quit smoking but it didn't stick", "almost cancelled"
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
	if mk.retract && isLatinMarker(mk.name) && len(t.terms) == 0 {
		// "I'm no longer at Kakao", "no longer with the choir": what
		// ended is the old value after the preposition.
		if p := prepObject(clause[loc[1]:]); len(p) > 0 {
			t.terms, t.object = p, p
		}
	}
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
	if mk.name == "옮겼어" && implied == "" && mover && len(t.dest) > 0 && len(peopleOf(lexNorm(t.subject))) > 0 {
		// "할머니가 요양원으로 옮기셨어요": a person who moves to a place
		// moves home or work — whichever the person's older memory states.
		implied = "home"
		if !slices.Contains(f.Subjects, "employer") {
			f.Subjects = append(f.Subjects, "employer")
		}
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
		if mk.name == "옮겼어" {
			f.Slot = "home or employer, implied by " + strconv.Quote(mk.name) + " for the person who moved"
		}
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
	if f.Retract && !isLatinMarker(mk.name) {
		// "Starbucks 이제 안 가", "Notion 해지했어": a bare Latin name before
		// a Korean retraction is what it ends, not who changed.
		f.People = slices.DeleteFunc(f.People, func(p string) bool {
			return !isHangul(p) && matchAny(" "+p+" ", personWords) == "" && slices.ContainsFunc(textnorm.Tokens(p), func(t string) bool { return slices.Contains(f.Object, t) })
		})
	}
	if f.Retract { // "No more coffee for my dad": the father's change
		for _, p := range beneficiaries(clause[loc[1]:]) {
			if !slices.Contains(f.People, p) {
				f.People = append(f.People, p)
			}
		}
	}
	if f.Open {
		f.Surface = surfaceOf(clause, f.Terms)
	}
	if f.Retract {
		f.Heads = compoundHeads(clause, false)
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
