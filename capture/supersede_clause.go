package capture

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine/textnorm"
)

// The clause reader of the supersession rule (issue 29): where in the
// marker's clause its object or complement is, read from the clause's
// grammar rather than from a word anywhere in the message.
//
//   - negation scope: "anymore" closes the verb phrase a negation opened
//     ("i dont go climbing on wednesdays anymore my shoulder is messed
//     up", "I'm not at Kakao anymore"): the retracted thing is what the
//     negation scopes over, before "anymore", and the words after it are
//     another clause (voice-typed text runs them on);
//   - the people of an older memory: a person word in a prepositional or
//     comitative phrase ("subletting a room from my friend Sang-ah", "I
//     teach piano to two kids", "친구랑 테니스 쳐") is a party to the
//     speaker's clause, not whose the memory is; only the person words of
//     its subject and its possessors ("My sister's lease", "엄마는 …")
//     make it someone else's;
//   - the value's head: "switched to day shifts" names no thing that
//     changed, but its new value is a noun phrase whose head (shift) is
//     the slot it fills, which an older memory names with another
//     modifier ("I'm on the night shift");
//   - the tie-break of equally named candidates counts shared terms by
//     stem and without stop words ("wednesdays" ~ "every Wednesday", not
//     a shared "my").

// anymoreScope returns the marker's clause cut after "anymore" when the
// marker matched at [loc[0], loc[1]) is a bare "anymore"/"any more" under a
// negation (supersede_match.go's, voice-typed forms too) in the words
// before it; ok false otherwise ("no longer X",
// "not any more at X" take their object after the marker).
func anymoreScope(clause string, loc []int) (string, bool) {
	m := strings.ToLower(clause[loc[0]:loc[1]])
	if strings.HasPrefix(m, "no") {
		return "", false
	}
	head := headBefore(clause, loc[0])
	if !negation.MatchString(head + " ") {
		return "", false
	}
	return clause[:loc[1]], true
}

// adjunctPreps open a prepositional phrase whose person is a party to
// the clause, not its subject.
var adjunctPreps = map[string]bool{"from": true, "with": true, "to": true, "for": true, "by": true, "at": true, "near": true,
	"behind": true, "beside": true, "without": true, "of": true}

// koAdjunctParticles mark a Korean noun as a comitative or a dative
// party to the clause (친구랑, 동생하고, 엄마한테, 아들에게).
var koAdjunctParticles = []string{"이랑", "랑", "하고", "한테서", "한테", "에게서", "에게", "께"}

// ownPeople are the person words of an older memory's text outside its
// prepositional and comitative phrases: whose the memory is.
func ownPeople(text string) []string {
	var kept []string
	phrase := 0 // words of a preposition's noun phrase still to read
	for _, w := range strings.Fields(text) {
		lw := strings.ToLower(strings.Trim(w, ",.!?\"'()"))
		switch {
		case adjunctPreps[lw]:
			phrase = 3 // a determiner or a number, a modifier, the noun
		case phrase > 0 && isPersonWord(lw):
			phrase = 0
			continue
		case phrase > 0:
			phrase--
		}
		if strings.ContainsAny(w, ",.!?;:") {
			phrase = 0 // punctuation closes the phrase
		}
		if isHangulWord(w) && hasHangulSuffix(w, koAdjunctParticles) && isPersonWord(koPartyStem(w)) {
			continue
		}
		kept = append(kept, w)
	}
	return peopleOf(lexNorm(strings.Join(kept, " ")))
}

// isPersonWord: lw (lower-case, a word) is one of personWords.
func isPersonWord(lw string) bool { return lw != "" && matchAny(" "+lw+" ", personWords) != "" }

// koPartyStem is Korean word w without the comitative or dative particle it
// ends in.
func koPartyStem(w string) string {
	w = strings.Trim(w, ",.!?\"'()")
	for _, p := range koAdjunctParticles {
		if t, ok := strings.CutSuffix(w, p); ok && t != "" {
			return t
		}
	}
	return w
}

// valueHead is the head noun of an English new value ("day shifts" →
// shift, "oat milk" → milk) when it is a common noun phrase of a
// modifier and a head: the slot the value fills. "" for a name ("Linear",
// "GitHub Actions"), one word, or a Korean value.
func valueHead(dest string) string {
	words := strings.Fields(dest)
	var np []string
	for _, w := range words {
		lw := strings.ToLower(strings.Trim(w, ",.!?\"'()"))
		if determiner[lw] || lw == "" || isAdverb(w) {
			continue
		}
		if w != strings.ToLower(w) || startsWithDigit(w) || isHangulWord(w) {
			return "" // a name, a number or a model: no common noun
		}
		np = append(np, lw)
	}
	if len(np) < 2 {
		return ""
	}
	terms := topicTerms(np[len(np)-1])
	if len(terms) != 1 {
		return ""
	}
	return terms[0]
}

// headNP is the noun phrase of head (the words before a marker) that is
// its clause's subject, determiners and possessives kept: from the last
// word that opens a clause to the first preposition ("but rent" → rent,
// "My address" → my address, "The rent on my apartment" → the rent).
func headNP(head string) string {
	var kept []string
	for _, w := range strings.Fields(head) {
		lw := strings.ToLower(strings.Trim(w, ",.!?\"'()"))
		if clauseOpener[lw] {
			kept = kept[:0]
			continue
		}
		if npEnd[lw] && len(kept) > 0 {
			break
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, " ")
}

// overlapWords are what the tie-break of equally named candidates
// counts: text's distinct surface words of two characters or more (the
// same particle: "커피" over "커피는") and, marked "=", its distinct
// index terms (by stem, without stop words: "wednesdays" ~ "every
// Wednesday", a shared "my" not counted).
func overlapWords(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if utf8.RuneCountInString(w) > 1 && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	t := textnorm.Tokens(text)
	slices.Sort(t)
	for _, w := range slices.Compact(t) {
		out = append(out, "="+w)
	}
	return out
}
