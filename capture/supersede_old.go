package capture

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine/textnorm"
)

// Reading an older memory the way the rule reads the new one: its subject
// from its main clauses, whose it is, and what value it states.
//
//   - Main clauses: a reason, time or condition adjunct is incidental in
//     the old memory as in the new one. English clauses end at "after",
//     "because", "since" …; a Korean adjunct comes first and ends in its
//     postposition ("이사 준비 땜에 …", "수술 후에 …"), so the words up to
//     it are dropped. "요가는 이제 안 가. 6월부터 끊었어, 이사 준비 땜에 …"
//     is about yoga, not about home.
//   - Someone else's: the clauses of a third person (mainText) are about
//     that person; only a change that names a person is read against them
//     ("I gave up coffee" is not about "he's into coffee gear").
//   - First-clause terms: the value it states, which a change naming the
//     same value confirms rather than replaces — in either script, by
//     sound (옥동 ~ Okdong) or by the concept table.

// koAdjunctEnd ends a Korean adjunct phrase: everything before it, with
// it, is incidental.
var koAdjunctEnd = regexp.MustCompile(`^(?:.*?)(?:때문에|땜에|탓에|덕분에|덕에|하고\s*나서|고\s*나서|후에|뒤에|전에|하느라|느라고?|끝나고)(?:\s|$)`)

// mainClause is clause without its adjuncts.
func mainClause(c string) string {
	if m := adjunctEnd.FindStringIndex(c); m != nil && m[0] > 0 && isLatinStart(c[m[0]:]) {
		c = c[:m[0]]
	}
	for {
		loc := koAdjunctEnd.FindStringIndex(c)
		if loc == nil {
			return c
		}
		c = c[loc[1]:]
	}
}

// isLatinStart: s opens with a Latin letter (an English adjunct word).
func isLatinStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r < unicode.MaxLatin1 && unicode.IsLetter(r)
}

// selfWords open a clause whose subject is the speaker (EN, KO).
var selfWords = map[string]bool{"i": true, "i'm": true, "i’m": true, "i've": true, "i'd": true, "i'll": true, "im": true,
	"my": true, "me": true, "we": true, "we're": true, "we've": true, "our": true, "us": true,
	"나": true, "나는": true, "내가": true, "난": true, "내": true, "저": true, "저는": true, "제가": true, "제": true,
	"우리": true, "우리는": true, "우리가": true, "우리집": true}

// selfStart: clause opens with the speaker.
func selfStart(clause string) bool {
	w := strings.Fields(strings.ToLower(clause))
	return len(w) > 0 && selfWords[strings.Trim(w[0], ",.!?\"()")]
}

// otherStart opens a clause about someone named: a capitalised name and a
// verb or a possessive ("Dahye is a vet", "Kevin's birthday").
var otherStart = regexp.MustCompile(`^([A-Z][a-z]+)(?:'s|’s|\s+(?:is|was|works|worked|lives|lived|has|had|likes|loves|hates|teaches|studies|goes|plays|drives|runs|wants|needs)\b)`)

// mainText is text without its adjuncts, clause by clause; self keeps
// only the speaker's clauses: a clause opening with a third person ("he's
// into coffee gear", "Dahye is a vet", "Kevin's birthday …", "걔는 …") and
// the clauses after it that name no subject of their own ("…, works at a
// clinic") are someone else's, until one opens with the speaker again.
func mainText(text string, self bool) string {
	var b strings.Builder
	other := false
	for _, c := range clauses(text) {
		switch head := strings.TrimSpace(headBefore(c, len(c))); {
		case selfStart(head):
			other = false
		case thirdPerson(head) || namedStart(head):
			other = true
		}
		if self && other {
			continue
		}
		b.WriteString(mainClause(c))
		b.WriteString(". ")
	}
	return b.String()
}

// namedStart: head opens with a name and a verb or a possessive.
// A Korean given name as the topic or subject ("태민이는 …") is one; a
// month is one only with a verb of a person ("June works at …", "June's
// …") or as "June is a/an/my …" ("June is a nurse"), not "June is hot".
func namedStart(head string) bool {
	if koNamedStart(head) {
		return true
	}
	m := otherStart.FindStringSubmatch(head)
	if m == nil {
		return false
	}
	lw := strings.ToLower(m[1])
	if months[lw] {
		if strings.HasSuffix(m[0], " is") || strings.HasSuffix(m[0], " was") {
			return personComplement.MatchString(head[len(m[0]):])
		}
		return true
	}
	return !isStopLike(lw) && !notTopic[lw]
}

// personComplement: "a/an/my/our X" after "June is": a person's role.
var personComplement = regexp.MustCompile(`(?i)^\s+(?:a|an|my|our)\s`)

// firstClauseTerms are the terms of text's first clause up to a
// coordinating conjunction: where it states its value ("I live in Suwon
// and commute to Seoul" states Suwon, not Seoul).
func firstClauseTerms(text string) []string {
	cs := clauses(text)
	if len(cs) == 0 {
		return nil
	}
	first := cs[0]
	if m := coordinator.FindStringIndex(first); m != nil && m[0] > 0 {
		first = first[:m[0]]
	}
	return textnorm.Tokens(first)
}

// coordinator joins a second statement to a clause (EN, KO).
var coordinator = regexp.MustCompile(`(?i)\b(?:and|but|so|then|while|whereas|or)\b|그리고|근데|하지만|그래서`)

// namesValue: old (the terms of an older memory's first clause) names
// one of the new values — every token of one, by spelling, by sound
// across scripts or by the concept table ("rack 4" is not named by "rack
// 2", "Kakao … UX" not by "Naver as a UX designer").
func namesValue(values [][]string, old []string) bool {
	for _, v := range values {
		if len(v) > 0 && !slices.ContainsFunc(v, func(w string) bool { return !namesTerm(w, old) }) {
			return true
		}
	}
	return false
}

func namesTerm(w string, old []string) bool {
	for _, t := range old {
		if w == t || soundMatch(w, t) || soundMatch(t, w) || slices.Contains(crossPartners()[w], t) {
			return true
		}
	}
	return false
}

// valueNames are the names of the marker's clause up to an adjunct, and
// those of a short clause after it in the same sentence (an apposition:
// "living in Andong now, Okdong"), lower-cased: capitalised words past
// the clause's first, one group per clause.
func valueNames(text, clause string) [][]string {
	if m := adjunctEnd.FindStringIndex(clause); m != nil {
		clause = clause[:m[0]]
	}
	out := [][]string{namesIn(clause)}
	for _, s := range sentenceSplit.Split(text, -1) {
		i := strings.Index(s, clause)
		if i < 0 {
			continue
		}
		if cs := clauses(s[i+len(clause):]); len(cs) > 0 && len(strings.Fields(cs[0])) <= 2 {
			out = append(out, namesIn(" "+cs[0]))
		}
		break
	}
	return out
}

// namesIn are the capitalised words of s past its first, lower-cased,
// each with the number right after it ("Pixel 10": the model is part of
// the value).
func namesIn(s string) []string {
	var out []string
	name := false
	for i, w := range strings.Fields(s) {
		w = strings.Trim(w, ",.!?\"'()")
		r, _ := utf8.DecodeRuneInString(w)
		lw := strings.ToLower(w)
		if name && startsWithDigit(w) {
			out = append(out, textnorm.Tokens(w)...)
		}
		name = false
		if i == 0 && !strings.HasPrefix(s, " ") || w == "" || !unicode.IsUpper(r) || lw == "i" || isStopLike(lw) || notTopic[lw] ||
			i > 0 && possessive[strings.ToLower(strings.Fields(s)[i-1])] { // "dropped my Pixel": the old value
			continue
		}
		out, name = append(out, textnorm.Tokens(w)...), true
	}
	return out
}

// possessive: a determiner before a capital that names the speaker's (or
// someone's) thing as it is — the old value, not the new one.
var possessive = map[string]bool{"my": true, "our": true, "your": true, "his": true, "her": true, "their": true}

var sentenceSplit = regexp.MustCompile(`[.!?…\n]+(?:\s|$)|[!?]+`)

// valueOf is the new values of a change read as t from clause of text:
// the destination's tokens or, when it names none, the names of the
// clause (and of its apposition), less an open marker's object and topic ("switched from
// Galaxy" names the old value, not the new one; "living in Haeundae now"
// names the new one).
func valueOf(t topicReading, text, clause string, open bool) [][]string {
	if len(t.dest) > 0 {
		return [][]string{t.dest}
	}
	var out [][]string
	for _, g := range valueNames(text, clause) {
		out = append(out, slices.DeleteFunc(g, func(n string) bool {
			return open && (slices.Contains(t.object, n) || slices.Contains(t.terms, n))
		}))
	}
	return out
}
