package capture

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"memtrace/engine"
	"memtrace/engine/textnorm"
)

// The supersession rule's side of an older memory: what the subject index
// files it under, what the rule reads from its text, and why it is about a
// new finding's subject (supersede_rule.go reads the new memory).

// topicKey is the subject index's key of a content term: the term
// itself, which names no lexicon subject but for a few words that are
// their own subject ("car", "phone", "school"), whose memories the
// subject's entry holds anyway.
func topicKey(term string) string { return term }

// indexKeys are what the subject index files a memory under: the lexicon
// subjects norm (lexNorm'd) names and a topicKey per distinct content
// term of terms (textnorm.Tokens of the same text).
func (r *supersedeRule) indexKeys(norm string, terms []string) []string {
	out := r.subjectsOf(norm)
	lexicon := len(out)
	var seen map[string]bool
	if len(terms) > 32 {
		seen = make(map[string]bool, len(terms))
	}
	for _, t := range terms {
		switch {
		case r.isSubjectName(t):
		case seen != nil:
			if !seen[t] {
				seen[t] = true
				out = append(out, topicKey(t))
			}
		case !slices.Contains(out[lexicon:], t):
			out = append(out, topicKey(t))
		}
	}
	return out
}

// isSubjectName: w is the name of a lexicon subject.
func (r *supersedeRule) isSubjectName(w string) bool {
	for _, s := range r.subjects {
		if s.name == w {
			return true
		}
	}
	return false
}

// subjectsOf lists the lexicon subjects norm (lexNorm'd) names.
func (r *supersedeRule) subjectsOf(norm string) []string {
	norm = householdNorm(norm)
	out := r.lexiconSubjects(norm)
	if jobFrame(norm) && !slices.Contains(out, "employer") {
		out = append(out, "employer")
	}
	return out
}

// lexiconSubjects lists the lexicon subjects norm names by their words.
func (r *supersedeRule) lexiconSubjects(norm string) []string {
	var hit uint64 // subjects found, by index (a table of at most 64)
	if len(r.subjects) > 64 {
		var out []string
		for _, s := range r.subjects {
			if matchAny(norm, s.words) != "" {
				out = append(out, s.name)
			}
		}
		return out
	}
	r.subjectWords.each(norm, func(e int) { hit |= 1 << r.subjectOf[e] })
	if hit == 0 {
		return nil
	}
	var out []string
	for i, s := range r.subjects {
		if hit&(1<<i) != 0 {
			out = append(out, s.name)
		}
	}
	return out
}

// matchAny returns the first entry of words found in norm: "w*" a word
// starting with w, "w" the whole word (or phrase).
func matchAny(norm string, words []string) string {
	for _, w := range words {
		if strings.HasSuffix(w, "*") {
			if hasWord(norm, w[:len(w)-1], false) {
				return w
			}
		} else if hasWord(norm, w, true) {
			return w
		}
	}
	return ""
}

func peopleOf(norm string) []string {
	var out []string
	for _, w := range personWords {
		if matchAny(norm, []string{w}) != "" {
			out = append(out, strings.TrimSuffix(w, "*"))
		}
	}
	return out
}

// isStopLike: capitalised sentence openers that are not names.
func isStopLike(w string) bool {
	switch w {
	case "we", "our", "my", "the", "a", "an", "they", "she", "he", "it", "this", "that", "last", "since",
		"as", "so", "and", "but", "then", "now", "today", "yesterday", "after", "before", "in", "on", "at":
		return true
	}
	return false
}

// oldFacts is what the rule reads from an older memory's text, kept per
// memory by the Capturer so that a memory checked again costs a lookup.
type oldFacts struct {
	norm   string
	people []string
	// own: the people of its subject and possessors, not of its
	// prepositional phrases (ownPeople): whose the memory is.
	own   []string
	words []string
	terms []string // textnorm.Tokens, for the topic of an open marker
	// negated: the terms of its clauses that carry a negation or a
	// prohibition ("panic 쓰지 마", "I don't eat meat").
	negated []string
	// main, self: norm and terms of its main clauses, without adjuncts
	// (supersede_old.go), where its subject is read — all of them, or the
	// speaker's only. first: the terms of its first clause, the value it
	// states.
	main, self clauseReading
	first      []string
	// text, heads: the memory's text and, per term, the nouns written
	// right after it (the heads of the compounds it modifies,
	// supersede_open.go), read once when a retraction asks (compounds).
	text      string
	heads     map[string][]string
	headsOnce sync.Once
}

// clauseReading is the lexNorm and the terms of some clauses of a text.
type clauseReading struct {
	norm  string
	terms []string
}

func readClauses(s string) clauseReading {
	return clauseReading{norm: householdNorm(lexNorm(s)), terms: withVerbBases(textnorm.Tokens(s))}
}

// withVerbBases adds to terms the noun of each Korean light-verb term
// ("봉사하셔" → 봉사, "러닝해" → 러닝): the older memory's "봉사하셔" names
// the 봉사 a later "봉사 안 하셔" ends, in any ending or honorific.
func withVerbBases(terms []string) []string {
	for _, t := range terms {
		if b := koVerbBase(t); b != "" && !slices.Contains(terms, b) {
			terms = append(terms, b)
		}
	}
	return terms
}

func readOld(text string) *oldFacts {
	norm := lexNorm(text)
	f := &oldFacts{norm: norm, people: peopleOf(norm), own: ownPeople(text), words: overlapWords(text), terms: textnorm.Tokens(text),
		first: firstClauseTerms(text), main: readClauses(mainText(text, false)), self: readClauses(mainText(text, true)),
		text: text}
	for _, s := range clauses(text) {
		if negation.MatchString(s+" ") || retracted.MatchString(s) {
			f.negated = append(f.negated, textnorm.Tokens(s)...)
		}
	}
	return f
}

// retracted: a clause that already retracts what it names ("다낭 여행
// 취소했어", "the gym plan is off"); a later retraction agrees with it rather
// than replacing it.
var retracted = regexp.MustCompile(`(?i)\b(?:cancel(?:l?ed)|called\s+off|(?:is|are|was|were|'s)\s+off|gave\s+up|stopped|quit)\b|취소\s*(?:했|됐|됨|함)|그만\s*(?:두|뒀|둠)|끊었|접었`)

// negation: a sentence that negates or forbids what it names (EN, KO),
// with the voice-typed forms that have no apostrophe ("i dont", "isnt").
var negation = regexp.MustCompile(`(?i)\b(?:not|never|no|don't|doesn't|didn't|won't|avoid|without|dont|doesnt|didnt|isnt|arent|wasnt|werent|cant|wont|aint)\b|n't\b|n’t\b|지\s*(?:마|말)|(?:^|\s)(?:안|못)\s|않|금지|말고`)

// subjectMatch is why an older memory is about the finding's subject: the
// shared subject, or "" when it is not.
func (r *supersedeRule) subjectMatch(f changeFinding, old *oldFacts) string {
	norm := old.norm
	// Same people: the new text's people must be in the old one, and the
	// old one must name no person the new one does not.
	for _, p := range f.People {
		if !namesPerson(norm, p) {
			return ""
		}
	}
	// A relationship change with its partner named: the speaker's older
	// memory naming that partner ("My girlfriend Hana …") is the one it
	// ends; its person words are the partner's role.
	if f.Partner != "" && namesPartner(old.self.norm, f.Partner) {
		return "relationship"
	}
	for _, p := range old.own {
		if !slices.ContainsFunc(f.People, func(q string) bool { return samePerson(p, q) || strings.Contains(norm, " "+p+" "+q+" ") }) { // "my niece Yuna" is Yuna
			return ""
		}
	}
	// Value agreement: the old fact's first clause already names the new
	// value ("found an apartment in 옥동" under "living in Okdong now"):
	// the change confirms it.
	if namesValue(f.Value, old.first) {
		return ""
	}
	// A restatement: the old fact already says every word the change
	// clause says beside the marker's object ("then we moved to Seoul"
	// over "I live in Seoul"; "I live in Mapo now" over "we live in Mapo
	// now"). The object of an open marker is what the old fact names, so
	// it does not count; a retraction ("고기 이제 안 먹어") is never one.
	if !f.Retract && len(f.Said) > 0 && !slices.ContainsFunc(f.Said, func(d string) bool { return !slices.Contains(old.terms, d) }) {
		return ""
	}
	main := old.main
	if len(f.People) == 0 { // the speaker's change: "he's into coffee gear" is not the speaker's coffee
		main = old.self
	}
	norm = main.norm
	if f.AdHoc != "" {
		if hasWord(norm, f.AdHoc, false) {
			return f.AdHoc
		}
		return ""
	}
	if s := topicShared(f, main.terms); s != "" && !(f.Retract && otherCompound(f.Object, strings.Fields(s), f.Heads, old.compounds)) {
		if f.Negates && slices.ContainsFunc(append(slices.Clone(f.Object), partnersOf(f.Object)...), func(t string) bool { return slices.Contains(old.negated, t) }) {
			return "" // "panic 말고 error로" over "panic 쓰지 마": it agrees
		}
		return s
	}
	for _, s := range r.subjects {
		if slices.Contains(f.Subjects, s.name) && (matchAny(norm, s.words) != "" || s.name == "employer" && jobFrame(norm)) {
			return s.name
		}
	}
	return ""
}

// topicShared is the topic terms of an open marker (or their concept
// partners in the other script) among terms (an older memory's), joined by spaces ("build
// runner"), or "".
func topicShared(f changeFinding, terms []string) string {
	if !f.Open {
		return ""
	}
	var shared []string
	for _, t := range append(slices.Clone(f.Terms), f.Partners...) {
		if matchAny(" "+t+" ", personWords) != "" {
			continue // who changed is checked by the people rule; it is no topic ("엄마 안 본 지 …")
		}
		if slices.Contains(terms, t) && !slices.Contains(shared, t) {
			shared = append(shared, t)
		}
	}
	return strings.Join(shared, " ")
}

// overlap is how many overlapWords two texts share.
func overlap(words []string, old *oldFacts) int {
	n := 0
	for _, w := range old.words {
		if slices.Contains(words, w) {
			n++
		}
	}
	return n
}

// SupersedeReason is the trail's sentence for a supersession.
func SupersedeReason(old *engine.Memory, subject, marker string) string {
	return fmt.Sprintf("superseded #%d %q — same subject %q, change marker %q", old.ID, Clip(engine.SanitizeText(old.Content), 60), subject, marker)
}
