package capture

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Several statements in one message (issue 29). "My birthday is May 3,
// and always write commit messages in English" is a date and a rule: one
// memory typed rule would lose the date's kind and importance and let the
// rule's supersession or dedupe act on the date. The capture reads such a
// message as its statements and decides each one — judge, gates, type,
// kind, importance, dedupe and supersession — as if it had been sent
// alone (Capturer.splitStatements).
//
// Where a message may split (its candidate parts):
//
//   - between sentences: ". ", "! ", "? ", a line break, a bulleted or
//     numbered line ("- …", "2) …", "1. …"); a sentence that opens with an
//     additive coordinator ("Also, …", "Oh and …", "btw", "그리고 …",
//     "참고로 …", "또 …") is an item the speaker adds;
//   - inside a sentence, at a coordinating boundary: a comma or semicolon
//     followed by "and", "also" or "and also" ("plus" and "as well as"
//     more often add a reason or an item than a statement); a bare
//     semicolon; a bare comma before a clause that opens with the speaker
//     or a possessive, after a clause that opens with its own subject ("My
//     sister lives in Daejeon, I'm allergic to peanuts"; not "In March, I
//     …"); a bare "and" before a standing instruction or the speaker's new
//     clause ("… and always write …", "… and I'm …"); a Korean connective
//     ending before a comma (…고, …구, …며,), the copula's 이고, "…고 또",
//     and "그리고" inside a sentence. Reasons, results and contrasts
//     (because, so, but, -아서, -니까) are never a boundary; the Korean
//     -는데 and -지만 are one only before a new subject
//     (statements_join.go).
//
// Whether a part becomes a statement of its own is read from the parts'
// content, not from the types the judge gives them
// (statements_independent.go): it must stand alone and speak of another
// subject than the part before it, or be an item the speaker adds, or be
// a standing instruction beside a statement. A part stands alone when it
// is a statement (not a question, request, chatter or paste), has at least
// three words (two in Korean), does not open with a word that points back
// ("it", "that", "they", "so", "but", "which", "그거", "그래서" …) and,
// after the first part, has no pronoun or pro-form pointing back anywhere
// ("…, and he rides it", "어릴 때부터 그랬어"), no reason's ending (…거든,
// …해서), no English verb with its subject left out ("… ate way too much
// pizza") and an English predicate of its own ("mostly Go, some
// terraform" has none; Korean states facts without a verb and needs
// none); and the judge stores it alone. Otherwise it stays with the part
// before it (the first part without a predicate opens the statement after
// it: "Long day. My manager told me …"). Each statement is then decided
// on its own: a question or a request part is never one, a rule part is a
// rule. The trail's statements layer says why each part was or was not a
// statement of its own, also for a message that stayed one memory. A
// lead-in before a colon ("Two things: …", "참고로: …") is dropped from
// the first part. A message with pasted material, a hypothetical or an
// injection flag is never split.
//
// The first statement keeps the message's id as its key — so the key of a
// message of one statement is exactly the message id, as before; the
// second is "ID#2", the third "ID#3". Re-capturing the message is skipped
// by its id as any message is; each statement is deduped and superseded
// on its own.

// MaxStatements bounds the memories one message becomes; the rest stay
// with the last one.
const MaxStatements = 4

// statementPart is one candidate statement of a message: its text and
// whether it was split from the sentence before it inside one sentence
// (clause) or starts a sentence of its own.
type statementPart struct {
	text   string
	clause bool
	// item: the speaker marks the part as an item of its own — an
	// additive coordinator ("…, also I got my license") or a message
	// that announces several ("Two things: …", "두 가지만: …").
	item bool
}

// clauseBoundary: where a sentence divides into coordinated clauses.
//
// Without a comma, "and" divides a sentence only before a standing
// instruction or a new clause of the speaker ("my birthday is May 3 and
// always write …", "… and I'm allergic to …"), and a Korean copula's
// connective 이고 ("나 비건이고 다음 주에 …") divides it as "…고," does.
var clauseBoundary = regexp.MustCompile(`(?i)\s*(?:[,;]\s*(?:and\s+also|and|also)\s+|;\s+)|(?:고|구|며)\s*,\s+|\s+and\s+(?:also\s+)?(?:always|never|please|don't|do\s+not|from\s+now\s+on|call\s+me|i'm|i\s+am|i\s+have|i've|my)\s|\S(?:이고)\s+|(?:고|구)\s+또\s+|\s+그리고\s+|,\s+(?:I|I'm|I’m|I've|I’ve|[Mm]y|[Ww]e|[Ww]e're|[Oo]ur)\s`)

// commaSplice: a bare comma boundary, before a clause that opens with
// the speaker or a possessive ("My sister lives in Daejeon, I'm allergic to
// peanuts"); splitClauses keeps the words after the comma and divides
// there only when the clause before opens with a subject of its own.
var commaSplice = regexp.MustCompile(`^,\s+(?:I|I'm|I’m|I've|I’ve|[Mm]y|[Ww]e|[Ww]e're|[Oo]ur)\s`)

// subjectOpen: a clause that opens with its subject (a pronoun, a
// possessive or a determiner and a noun) — not an adverbial ("In March,
// we …", "Honestly, I …").
var subjectOpen = regexp.MustCompile(`^(?:I|I'm|I’m|I've|I’ve|[Ww]e|[Ww]e're|[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[Tt]he|[A-Z][a-z]+'s|[A-Z][a-z]+)\s`)

// leadingSubordinator opens a clause that depends on the one after its comma ("If
// I moved to Jeju, I would …").
var leadingSubordinator = regexp.MustCompile(`(?i)^(?:if|when|whenever|because|since|although|though|while|after|before|unless|as|once|until)\b`)

// keepAfterAnd: the words of a bare "and" boundary that open the clause
// after it (the boundary ends before them).
var keepAfterAnd = regexp.MustCompile(`(?i)^\s+and\s+(?:also\s+)?`)

// mayHaveClauses is a quick test for a clauseBoundary in text: a ';', or
// a ',' after 고/구/며 or before "and"/"also" — or for a sentence after
// the first that opens with an additive coordinator (itemAfter).
func mayHaveClauses(text string) bool {
	if itemAfter.MatchString(text) || (strings.Contains(text, " and ") || strings.Contains(text, "이고 ") || strings.Contains(text, " 그리고 ") || strings.Contains(text, "고 또 ")) && clauseBoundary.MatchString(text) {
		return true
	}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case ';':
			return true
		case ',':
			rest := strings.TrimLeft(text[i+1:], " ")
			if len(rest) >= 4 && (strings.EqualFold(rest[:4], "and ") || strings.EqualFold(rest[:4], "also")) {
				return true
			}
			if r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(text[:i], " ")); r == '고' || r == '구' || r == '며' {
				return true
			}
		}
	}
	return false
}

// leadIn: a short announcement before a colon at the start of a message.
var leadIn = regexp.MustCompile(`^\s*(?:\S+\s+){0,2}\S+:\s+`)

// pointsBack are the words that make a part depend on the one before it.
var pointsBack = map[string]bool{
	"it": true, "it's": true, "its": true, "that": true, "that's": true, "this": true, "they": true, "they're": true, "them": true,
	"he": true, "she": true, "his": true, "her": true, "which": true, "who": true, "so": true, "but": true, "then": true, "there": true,
	"though": true, "because": true, "still": true, "which's": true, "both": true,
	"plus": true, "since": true, "as": true, "cause": true, "coz": true, "she's": true, "he's": true, "그거": true, "그게": true, "그건": true, "그래서": true, "거기": true, "그때": true, "그": true, "근데": true, "하지만": true, "그런데": true,
}

// leadingCoordinator: a coordinator a split part may still open with.
// Lead-ins ("btw", "참고로", "아 맞다") stay: they are words of the part.
var leadingCoordinator = regexp.MustCompile(`(?i)^(?:and\s+also|and|also|plus|oh,?\s+and|아\s+그리고|그리고|또)(?:,\s*|\s+)`)

// itemOpener: a sentence that opens with an additive coordinator ("Also,
// please …", "Oh and …", "btw …", "그리고 다음 주 …", "참고로 …", "또 …") is an item the speaker adds, a
// statement of its own as a clause after "…, also" is.
var itemOpener = regexp.MustCompile(`(?i)^\s*(?:and\s+also|also|plus|oh,?\s+and|btw|by\s+the\s+way|one\s+more\s+thing:?|아\s+그리고|그리고|참고로|아\s+맞다|또)(?:,\s*|\s+)`)

// itemAfter: a sentence end followed by an itemOpener.
var itemAfter = regexp.MustCompile(`(?i)[.!?…\n]\s*(?:and\s+also|also|plus|oh,?\s+and|btw|by\s+the\s+way|one\s+more\s+thing:?|아\s+그리고|그리고|참고로|아\s+맞다|또)(?:,\s*|\s+)`)

// statementParts splits text into its candidate statements (see above),
// or returns nil when it is one statement or must not be split.
func statementParts(text string) []statementPart {
	if !strings.ContainsAny(text, ",;.!?\n") && !clauseBoundary.MatchString(text) && !mayJoin(text) {
		return nil
	}
	acts := readActs(text)
	var parts []statementPart
	announced, listed := false, false
	for _, a := range acts {
		switch a.act {
		case actPaste, actHypothetical:
			return nil
		case actStatement:
			if deliberation.MatchString(a.text) || rolePlay.MatchString(a.text) {
				return nil // "폰 바꿀까 고민중. I have a Galaxy S22 …": the message weighs a change; it is not split
			}
		case actChatter:
			// A word or two the speaker answers with ("knee. physio says
			// …") stays in the statement it opens or follows; "1. …" reads
			// as the sentence "1" and the item after it.
			if listNumber.MatchString(a.text) {
				listed = true
			} else if len(parts) > 0 || len(strings.Fields(a.text)) <= 2 {
				parts = append(parts, statementPart{text: a.text})
			}
			continue
		default:
			// "1. …" reads as the sentence "1" and the item after it.
			listed = listed || listNumber.MatchString(a.text)
			continue
		}
		s := a.text
		if m := listMarker.FindString(s); m != "" {
			s, listed = s[len(m):], true
		}
		if len(parts) == 0 {
			if m := leadIn.FindString(s); m != "" && len(strings.Fields(m)) <= 3 && !strings.Contains(m, "//") {
				s = s[len(m):]
				announced = severalAnnounced.MatchString(m)
			}
		}
		opens := len(parts) > 0 && (itemOpener.MatchString(s) || listed)
		listed = false
		cs, items := splitClauses(s)
		for i, c := range cs {
			parts = append(parts, statementPart{text: c, clause: i > 0, item: i > 0 && (items[i] || announced) || i == 0 && opens})
		}
	}
	if len(parts) < 2 {
		return nil
	}
	return parts
}

// deliberation: a part that weighs a change rather than stating one
// ("바꿀까 고민중", "이사할지 생각 중", "thinking about switching").
var deliberation = regexp.MustCompile(`(?i)(?:까|지)\s*(?:고민|생각)|\b(?:thinking\s+(?:about|of)|considering|torn\s+between|not\s+sure\s+(?:if|whether))\b`)

// rolePlay: a message that sets up a game or a scene ("역할극 하자. 너는
// 기사고 나는 공주야", "Let's do a little story: you are a ronin …") is
// never split: its "I am …" is a role, not a statement about the speaker.
var rolePlay = regexp.MustCompile(`(?i)역할극|상황극|롤플|\brole-?play|\blet'?s\s+(?:do|play)\b|\byou\s+are\s+an?\s+\S+\s+and\s+i\s+am\b|너는\s+\S+(?:고|이고)\s+나는`)

// listMarker opens a bulleted or numbered line ("- ", "• ", "2) ");
// listNumber is the number of a numbered line read as a sentence ("1").
var (
	listMarker = regexp.MustCompile(`^(?:[-*•·]|\d{1,2}[.)])\s+`)
	listNumber = regexp.MustCompile(`^\d{1,2}[.)]?$`)
)

// mayHaveParts is splitStatements' quick test: text may hold a clause
// boundary (mayHaveClauses) or a second sentence — a terminator or a line
// break with more text after it.
func mayHaveParts(text string) bool {
	for i := 0; i < len(text)-1; i++ {
		switch text[i] {
		case '\n':
			if strings.TrimSpace(text[i+1:]) != "" {
				return true
			}
		case '.', '!', '?':
			if text[i+1] == ' ' && strings.TrimSpace(text[i+1:]) != "" {
				return true
			}
		}
	}
	return strings.ContainsAny(text, "。！？…") || mayHaveClauses(text) || commaSpliceHint(text) || mayJoin(text)
}

// mergeBoundaries adds the bare-connective boundaries (joinBoundaries) to
// the pattern's, in order, leaving out one that overlaps a span already
// there.
func mergeBoundaries(locs, joins [][]int) [][]int {
	for _, j := range joins {
		overlaps := false
		for _, l := range locs {
			overlaps = overlaps || j[0] < l[1] && l[0] < j[1]
		}
		if !overlaps {
			locs = append(locs, j)
		}
	}
	slices.SortFunc(locs, func(a, b []int) int { return a[0] - b[0] })
	return locs
}

// commaSpliceHint: ", " before a word that may open a clause with its
// subject (the cheap side of clauseBoundary's comma splice).
func commaSpliceHint(text string) bool {
	for rest := text; ; {
		i := strings.Index(rest, ", ")
		if i < 0 {
			return false
		}
		rest = rest[i+2:]
		w, _, _ := strings.Cut(rest, " ")
		switch strings.ToLower(w) {
		case "i", "i'm", "i’m", "i've", "i’ve", "my", "we", "we're", "our":
			return true
		}
	}
}

// severalAnnounced: a lead-in that announces several items.
var severalAnnounced = regexp.MustCompile(`(?i)\b(?:two|three|four|few|couple(?:\s+of)?|some|several)\s+(?:things|facts|updates|notes)\b|(?:두|세|몇)\s*가지`)

// additiveClause: a clause boundary that adds an item ("…, also …").
var additiveClause = regexp.MustCompile(`(?i)\balso\b|또\s`)

// splitClauses divides one sentence at its coordinating boundaries; a
// Korean connective ending stays with the clause it ends. items[i] is
// set when clause i follows an additive boundary ("…, also …", "…고,
// also …").
func splitClauses(s string) (out []string, items []bool) {
	locs := mergeBoundaries(clauseBoundary.FindAllStringIndex(s, -1), joinBoundaries(s))
	if locs == nil {
		return []string{s}, []bool{false}
	}
	items = append(items, false)
	start := 0
	for _, l := range locs {
		if commaSplice.MatchString(s[l[0]:l[1]]) {
			// ", I …": the subject opens the next clause; a comma divides
			// only two clauses that each open with their subject.
			if head := strings.TrimSpace(s[start:l[0]]); !subjectOpen.MatchString(head) || leadingSubordinator.MatchString(head) || len(strings.Fields(head)) < 3 {
				continue
			}
			after := s[l[0]+1 : l[1]] // what follows the comma: spaces, then the subject, which stays
			l = []int{l[0], l[0] + 1 + len(after) - len(strings.TrimLeft(after, " \t"))}
		} else if m := keepAfterAnd.FindStringIndex(s[l[0]:l[1]]); m != nil { // "… and always write …": keep "always"
			l = []int{l[0], l[0] + m[1]}
		} else if strings.HasSuffix(s[l[0]:l[1]], " ") && strings.Contains(s[l[0]:l[1]], "이고") { // "비건이고 다음 …"
			l = []int{l[0] + strings.Index(s[l[0]:l[1]], "이고") + len("이"), l[1]} // at 고, which stays with its clause
		}
		rest := s[l[1]:]
		items = append(items, additiveClause.MatchString(s[l[0]:l[1]]) || additiveClause.MatchString(rest[:min(len(rest), 5)]))
		end := l[0]
		if r, _ := utf8.DecodeRuneInString(s[l[0]:]); r == '고' || r == '구' || r == '며' {
			end += utf8.RuneLen(r)
		}
		out = append(out, strings.TrimSpace(s[start:end]))
		start = l[1]
	}
	out = append(out, strings.TrimSpace(s[start:]))
	for i := range out {
		out[i] = strings.TrimSpace(leadingCoordinator.ReplaceAllString(out[i], ""))
	}
	return out, items
}

// aloneWhy is why part could not be a message of its own ("" when it
// could): too few words, a first word that points back, a Korean pro-form
// (그랬어), a speech act other than a statement — and, for a part after
// the first (later), an English verb with its subject left out.
func aloneWhy(part string, later bool) string {
	words := strings.Fields(lexNorm(part))
	if len(words) == 0 {
		return "empty"
	}
	hangul := strings.IndexFunc(part, isHangulRune) >= 0
	if len(words) < 3 && !(hangul && len(words) >= 2) {
		return "too short to stand alone"
	}
	if pointsBack[words[0]] {
		return "it opens with " + strconv.Quote(words[0]) + ", pointing back"
	}
	if later {
		if why := laterWhy(part); why != "" {
			return why
		}
	} else if why := firstWhy(part); why != "" {
		return why
	}
	digit := strings.IndexFunc(part, unicode.IsDigit) >= 0
	for _, a := range readActs(part) {
		// A date or a quantity reads as chatter by its content words
		// ("my birthday is May 3": "may" is a stop word), but three words
		// with a number state something.
		if a.act != actStatement && !(a.act == actChatter && digit) {
			return "a " + a.act + ", not a statement"
		}
	}
	return ""
}

func isHangulRune(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }
