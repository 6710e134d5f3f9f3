package capture

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"memtrace/engine/filter"
	"memtrace/engine/textnorm"
)

// The slot an update fills, read from the sentence's structure rather than
// from a keyword anywhere in it (issue 29):
//
//   - membership: "joined" whose object is headed by a group noun ("joined
//     a badminton club", "joined the running crew", "동호회에 들어갔어") makes
//     the speaker a member of that group; it is no employer (or school)
//     change, and no lexicon word in the object's modifiers ("the company
//     football team") adds one. "joined Kakao", "joined a startup" still
//     imply employer;
//   - household: "live with X" (EN), "X랑/하고/와 (같이) 살아" (KO) say who
//     the speaker lives with, not where: the home slot is filled only by a
//     place ("live with my cat in Mapo", "서울에서 동생이랑 살아");
//   - partner: the comitative of a relationship change ("Hana and I split
//     up", "broke up with Hana", "태민이랑 결혼했어") is the other party, not
//     the person the change is about: the change is the speaker's, and the
//     older memory it replaces is the speaker's clause that names that
//     partner ("My girlfriend Hana is a nurse", "남자친구 태민이랑 …"), not a
//     fact about the partner ("Hana's sister …", "태민이는 … 일해");
//   - names: a Korean given name with the affectionate -이 and a particle
//     ("태민이는", "지수가" is not read: no -이) opens a clause about that
//     person; a month is a date after a preposition or next to a number
//     ("in May", "June 3", "last June") and a person when it is the
//     clause's subject ("June moved to Busan", "June's new job").

// groupNouns head the object of a "joined" that makes the speaker a member
// of a group, not an employee (EN, KO).
var groupNouns = map[string]bool{"club": true, "clubs": true, "team": true, "class": true, "classes": true, "gym": true,
	"league": true, "choir": true, "band": true, "group": true, "community": true, "meetup": true, "course": true,
	"crew": true, "society": true, "circle": true, "orchestra": true, "cohort": true, "bootcamp": true, "guild": true,
	"server": true, "channel": true, "waitlist": true, "squad": true,
	"동호회": true, "모임": true, "클럽": true, "반": true, "팀": true, "스터디": true, "헬스장": true, "크루": true, "동아리": true}

// joinObject is the object noun phrase of "joined" in tail (the words after
// the marker up to a preposition, conjunction, number or time word).
func joinObject(tail string) []string {
	if m := objectEnd.FindStringIndex(tail); m != nil {
		tail = tail[:m[0]]
	}
	return strings.Fields(strings.ToLower(tail))
}

// membershipOf reads a "joined"/들어갔 clause: the group noun heading its
// object, or "" when the object is no group (a name, a company). ko: the
// object is the head before the marker ("배드민턴 동호회에 들어갔어").
func membershipOf(clause string, s, e int, ko bool) string {
	var np []string
	if ko {
		np = strings.Fields(clause[:s])
	} else {
		np = joinObject(clause[e:])
	}
	if len(np) == 0 {
		return ""
	}
	if ko {
		last := strings.Trim(np[len(np)-1], ",.!?\"'()")
		for _, p := range []string{"에", "을", "를", "에도", "으로", "로"} {
			if t := strings.TrimSuffix(last, p); t != last && groupNouns[t] {
				return t
			}
		}
		return ""
	}
	for _, w := range np { // "a badminton club near Jamsil"
		if w = strings.Trim(w, ",.!?\"'()"); groupNouns[w] {
			return w
		}
	}
	return ""
}

// liveWith: a verb of living with a companion (EN), after lexNorm.
var liveWith = regexp.MustCompile(` (?:live|lives|lived|living) (?:with|together|alone|on my own|by myself) `)

// liveWithKO: a companion marked 랑/이랑/하고/와/과, then 살- (KO).
var liveWithKO = regexp.MustCompile(`(?:(?:랑|하고|와|과|이랑) (?:같이 |함께 |둘이 )?| 혼자 | 같이 )(?:살|사는|삽니다)`)

// placeAfter: a place phrase after a companion ("… with my cat in Mapo").
var placeAfter = regexp.MustCompile(`^(?:\S+ ){0,4}?(?:in|near|at|around) `)

// koPlace: a Korean word marked 에/에서 (a place) anywhere in the text.
var koPlace = regexp.MustCompile(`\S(?:에서|에) `)

// householdNorm is norm (lexNorm'd) with "live with X" rewritten so that
// it names no home: who the speaker lives with is not where.
func householdNorm(norm string) string {
	if strings.Contains(norm, " liv") {
		locs := liveWith.FindAllStringIndex(norm, -1)
		for i := len(locs) - 1; i >= 0; i-- {
			l := locs[i]
			if placeAfter.MatchString(norm[l[1]:]) {
				continue
			}
			norm = norm[:l[0]] + " cohabit with " + norm[l[1]:]
		}
	}
	if (strings.Contains(norm, "살") || strings.Contains(norm, "사는") || strings.Contains(norm, "삽니다")) && !koPlace.MatchString(norm) {
		norm = liveWithKO.ReplaceAllString(norm, " 동거 ")
	}
	return norm
}

// koName returns the given name of a Korean word read as one — a
// two-syllable name (after an optional surname), with or without the
// affectionate -이, and a particle ("태민이는", "준형이랑", "민수는",
// "지현도") — and its particle, or "" (filter.KoGivenName, one reader for
// the capture and the length floors).
func koName(w string) (name, particle string) { return filter.KoGivenName(w, false) }

// koNamedStart: head opens with a Korean given name as its topic or
// subject ("태민이는 …", "준형이가 …", "민수는 …") or a bare name and a
// predicate ("민수 결혼했어").
func koNamedStart(head string) bool { return filter.KoNamedSubject(head) != "" }

// koSubjectNames are the Korean given names of clause marked as its topic
// or subject, or opening it bare before a predicate (the people the
// change is about).
func koSubjectNames(clause string) []string {
	var out []string
	for _, w := range strings.Fields(clause) {
		if n, p := koName(w); p == "는" || p == "은" || p == "가" || p == "이" || p == "도" {
			out = append(out, n)
		}
	}
	if n := filter.KoNamedSubject(clause); n != "" && !slices.Contains(out, n) {
		out = append(out, n)
	}
	return out
}

// months are the month names (lower-case); "may" is one.
var months = map[string]bool{"january": true, "february": true, "march": true, "april": true, "may": true, "june": true,
	"july": true, "august": true, "september": true, "october": true, "november": true, "december": true}

// datePrep: a word before a month that makes it a date.
var datePrep = map[string]bool{"in": true, "on": true, "since": true, "until": true, "till": true, "from": true, "by": true,
	"last": true, "next": true, "this": true, "early": true, "late": true, "mid": true, "of": true, "every": true,
	"each": true, "during": true, "before": true, "after": true, "through": true, "til": true}

// monthAsDate: words[i] is a month used as a date — after a date
// preposition or next to a number ("in May", "May 3", "3 June").
func monthAsDate(words []string, i int) bool {
	clean := func(w string) string { return strings.ToLower(strings.Trim(w, ",.!?\"'()")) }
	if i > 0 && (datePrep[clean(words[i-1])] || startsWithDigit(clean(words[i-1]))) {
		return true
	}
	return i+1 < len(words) && startsWithDigit(clean(words[i+1]))
}

// partnerRE: an English comitative partner of the speaker: "Hana and I",
// "me and Hana", "with Hana" (a capitalised name).
var (
	partnerHead = regexp.MustCompile(`^\s*(?:([A-Z][a-z]+)\s+and\s+(?:I|me)|(?:I|me)\s+and\s+([A-Z][a-z]+))\b`)
	partnerWith = regexp.MustCompile(`^\s*(?:up\s+)?with\s+([A-Z][a-z]+)\b`)
)

// koComitative are the particles of a Korean comitative (with X).
var koComitative = []string{"이랑", "랑", "하고", "와", "과"}

// partnerOf is the other party of a relationship change in clause (marker
// at [s, e)), lower-cased, and head without it; "" when none is named.
func partnerOf(clause string, s, e int, ko bool) (partner, rest string) {
	head := headBefore(clause, s)
	if ko {
		words := strings.Fields(head)
		for i, w := range words {
			if n, p := koName(w); p == "랑" || p == "이랑" || p == "하고" || p == "와" {
				return n, strings.Join(slices.Delete(slices.Clone(words), i, i+1), " ")
			}
			for _, p := range koComitative {
				if t, ok := strings.CutSuffix(w, p); ok && utf8.RuneCountInString(t) >= 2 && isHangulWord(t) &&
					matchAny(" "+t+" ", personWords) == "" {
					return t, strings.Join(slices.Delete(slices.Clone(words), i, i+1), " ")
				}
			}
		}
		return "", head
	}
	if m := partnerHead.FindStringSubmatch(head); m != nil {
		return strings.ToLower(m[1] + m[2]), "I " + head[len(m[0]):]
	}
	if m := partnerWith.FindStringSubmatch(clause[e:]); m != nil { // "broke up with June": a person, no date takes "with"
		return strings.ToLower(m[1]), head
	}
	return "", head
}

// namesPartner: an older memory's speaker clauses (self, lexNorm'd) name
// the partner (a Korean name with any particle: "태민이랑").
func namesPartner(self string, partner string) bool {
	if hasWord(self, partner, false) {
		return true
	}
	for _, w := range strings.Fields(self) {
		if n, _ := koName(w); n == partner {
			return true
		}
	}
	return slices.Contains(textnorm.Tokens(self), partner)
}
