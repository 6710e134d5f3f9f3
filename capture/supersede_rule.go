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
	// objOnly: the topic is the marker's object group alone; the words
	// after the match are an adjunct or the new value ("haven't played
	// bass since the band broke up", "swapped my Kindle for a Kobo").
	objOnly bool
	// needsHead: the marker is read only with a head noun before it ("rent's
	// 950,000 won now"; "it's 50 mcg now instead of 75" leaves it to
	// "instead of").
	needsHead bool
	// notAfter: the rest of the clause after a match that makes the
	// words no change ("I'm off to Lisbon", "done with work for today",
	// "no more than 5"): the marker is not read there.
	notAfter *regexp.Regexp
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
	// Year, Ago: when the marker's sentence dates the change in the
	// past — a year ("back in 2019", "2019년에") or years before the
	// message ("three years ago", "재작년", "2년 전") — else 0.
	Year, Ago int
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
		if loc == nil || m.notAfter != nil && m.notAfter.MatchString(clause[loc[1]:]) || timeOrPerson(m, clause, loc) ||
			m.needsHead && len(headNouns(headBefore(clause, loc[0]))) == 0 {
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
	for _, c := range changeClauses(text) {
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
	f.Year, f.Ago = pastDate(own)
	obj := ""
	if g := mk.re.SubexpIndex("obj"); g > 0 && loc[2*g] >= 0 {
		obj = clause[loc[2*g]:loc[2*g+1]]
	}
	if g := mk.re.SubexpIndex("name"); g > 0 && loc[2*g] >= 0 && obj == "" {
		obj = clause[loc[2*g]:loc[2*g+1]]
	}
	forValue := ""
	if mk.name == "X for Y" {
		g := mk.re.SubexpIndex("val")
		forValue = clause[loc[2*g]:loc[2*g+1]]
	}
	if g := mk.re.SubexpIndex("val"); g > 0 && loc[2*g] >= 0 {
		loc[1] = loc[2*g] // "is now Quillbox": the value is no part of the marker
	}
	if mk.name == "no longer" {
		if c, ok := anymoreScope(clause, loc); ok {
			clause = c // "i dont go climbing anymore my shoulder …": the negation's scope (supersede_clause.go)
		}
	}
	t := topicOf(clause, loc[0], loc[1], obj, !isLatinMarker(mk.name), mk.intransitive, mk.retract)
	if mk.objOnly {
		// "swapped my Kindle for a Kobo": the topic is the object alone,
		// what follows "for" the new value.
		t.terms, t.dest = topicTerms(obj), textnorm.Tokens(forValue)
		t.object = t.terms
	}
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
	if f.Open && !f.Retract && mk.implies == "" && len(f.Terms) == 0 && len(t.dest) > 0 && len(r.subjectsOf(lexNorm(t.span))) == 0 {
		// "Switched to day shifts": no thing named moved, the new value's
		// head is the slot it fills (supersede_clause.go).
		if h := valueHead(t.destText); h != "" {
			f.Terms, f.Object = []string{h}, []string{h}
		}
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
		head := headPhrase(headBefore(clause, loc[0]))
		if mk.needsHead {
			head = headNP(headBefore(clause, loc[0])) // "My address is … now": the possessive is the phrase's
		}
		f.Subjects = r.subjectsOf(lexNorm(head))
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
	for _, n := range append(koSubjectNames(clause), koPluralSubjects(headBefore(clause, loc[0]))...) { // "민수 결혼했어", "지현은 …", "사람들이 …": their change
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
	f.Words = overlapWords(text)
	return f
}

// moverWho is whose change an implied subject is, for the trail.
func moverWho(partner string) string {
	if partner != "" {
		return "the speaker (partner " + partner + ")"
	}
	return "the speaker or the people named"
}

// timeOrPerson: the new value of a replacement frame ("X for Y") is a
// date or a person ("paid my rent for March", "booked the table for
// Friday", "cooked dinner for the kids"): no value replaces X there.
func timeOrPerson(m *changeMarker, clause string, loc []int) bool {
	if m.name != "X for Y" {
		return false
	}
	g := m.re.SubexpIndex("val")
	for _, w := range strings.Fields(strings.ToLower(clause[loc[2*g]:loc[2*g+1]])) {
		w = strings.Trim(w, ",.!?\"'()")
		if months[w] || notTopic[w] || matchAny(" "+w+" ", personWords) != "" || startsWithDigit(w) {
			return true
		}
	}
	return false
}
