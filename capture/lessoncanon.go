package capture

import (
	"slices"
	"strings"
	"unicode/utf8"

	"memtrace/engine/textnorm"
)

// The lesson canonicaliser for lessons the concept table does not key (see
// lessonkey.go): a corrective sentence read into canonical terms with
// their polarity, so that rewordings in either language meet on the same
// terms and a rule and its opposite do not.
//
//   - The text is cut into clauses (at , ; : — ! ? and sentence ends), and
//     negation read per clause (clauseTerms): an English negator (not, no,
//     never, don't, stop, avoid, instead of …) negates the nearest term
//     after it, a Korean post-negator (하지 마, 말고, 말구, 금지, 없이 …) the
//     nearest term before it. A negated term is written "not_" +
//     term ("not_grep" in "use rg instead of grep") when every mention of
//     it is negated ("don't call me Mr. Kim, call me Jun": call is not).
//   - Each word is read to one canonical term: a word of the bilingual
//     developer glossary (lessongloss.go) to its row's first word (변수,
//     variables → variable; 운영, prod → production); any other English
//     word to its WordNet base form (morphy: nesting → nest, files →
//     file); any other Korean word to its key stem (the particles and
//     endings of a closed list stripped, stacked ones too: lessonkostem.go;
//     a negation written into the word, 하지말고, cut off). Markers, politeness, generic verbs, stop
//     words, numbers, ids and lone jamo are dropped (lessonkey.go), and so
//     are carrier verbs (add, put, 넣다, 붙이다, 달다: carrierTerms), so a
//     negation falls on the object in both languages ("이모지 넣지 마" ~
//     "no emojis").
//   - Two terms are one (termsMatch) when their canonical forms are equal,
//     when both are English and share a WordNet synset among their most
//     frequent senses (search ~ seek) or a long common stem (description ~
//     descript), when both are Korean and one stem starts the other, or
//     when a Korean word is an English word written by its sound (티켓 ~
//     ticket, loanword.go).
//   - Two lessons are one (lessonOverlap) when they share enough terms and
//     no shared term has the opposite polarity: "rebase before review" and
//     "don't rebase shared branches" are two lessons.
//   - Polarity is the rule's: a term's mention in a prescribing clause sets
//     it, a reason clause after it does not ("링크 달지 말고 …, 링크 너무
//     많아"); "not only" (X만 하지 말고, not just X) negates nothing. Values
//     a key cannot hold are compared too: a date or time format is one
//     ordered term (yyyymmdd vs ddmmyyyy), and stated numbers must agree
//     (lessonNumbers, lessonkey.go).

// lessonTermsMaxCanon is how many terms a key holds: known terms (in the
// glossary or WordNet) first, then the longest.
const lessonTermsMaxCanon = 8

const notPrefix = "not_"

// lessonTerms are the canonical terms, with polarity, a lesson is keyed by.
func lessonTerms(text string) []string {
	negated := map[string]bool{} // a term is negated when every mention is
	ruled := map[string]bool{}   // a term mentioned in a prescribing clause
	var terms []string
	clauses := termClauses(text)
	mentions := make([][]termMention, len(clauses))
	count := map[string]int{} // clauses that mention a term
	repeated := false
	for i, cl := range clauses {
		mentions[i] = clauseTerms(cl, nil)
		for _, t := range distinctTerms(mentions[i]) {
			count[t]++
			repeated = repeated || count[t] > 1
		}
	}
	complaint := make([]bool, len(clauses)) // a statement beside the rule
	anyRule := false
	for i, cl := range clauses {
		rule := prescribes(cl)
		anyRule = anyRule || rule
		complaint[i] = !rule && complains(cl)
	}
	about := map[string]bool{} // named only in a complaint, never negated
	for i, cl := range clauses {
		rule := prescribes(cl)
		if repeated && slices.ContainsFunc(mentions[i], func(m termMention) bool { return count[m.term] > 1 }) {
			mentions[i] = clauseTerms(cl, func(t string) bool { return count[t] > 1 })
		}
		for _, m := range mentions[i] {
			neg, seen := negated[m.term]
			if !seen {
				terms = append(terms, m.term)
				about[m.term] = true
			}
			if !complaint[i] {
				about[m.term] = false
			}
			switch {
			case rule && !ruled[m.term]:
				// The rule's own mention sets the polarity: "링크 달지
				// 말고 …, 링크 너무 많아" forbids links, whatever the
				// reason after it says about them.
				negated[m.term], ruled[m.term] = m.negated, true
			case rule || !ruled[m.term]:
				negated[m.term] = (neg || !seen) && m.negated
			}
		}
	}
	kept := terms[:0]
	for _, t := range terms {
		switch {
		case negated[t]:
			t = notPrefix + t
		case anyRule && about[t] && isHangul(t):
			continue // an unread Korean word of a complaint: its predicate (깨져요, 느려요), not its object
		case anyRule && about[t]:
			t = aboutPrefix + t
		}
		kept = append(kept, t)
	}
	terms = kept
	if len(terms) > lessonTermsMaxCanon {
		slices.SortStableFunc(terms, func(a, b string) int {
			if ra, rb := termRank(a), termRank(b); ra != rb {
				return ra - rb
			}
			return utf8.RuneCountInString(bare(b)) - utf8.RuneCountInString(bare(a))
		})
		terms = terms[:lessonTermsMaxCanon]
	}
	slices.Sort(terms)
	return terms
}

// termClauses cuts text at clause punctuation and sentence ends (not
// after a title or abbreviation: "Mr. Lee", "e.g. rg").
func termClauses(text string) []string {
	var out []string
	for _, s := range lessonClauses(text) {
		parts := strings.Split(s, ". ")
		for i := 0; i < len(parts); i++ {
			p := parts[i]
			for i+1 < len(parts) && endsWithAbbrev(p) {
				i++
				p += ". " + parts[i]
			}
			out = append(out, splitAtLaughter(p)...)
		}
	}
	return out
}

func endsWithAbbrev(s string) bool {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 0 {
		return false
	}
	switch f[len(f)-1] {
	case "mr", "mrs", "ms", "dr", "prof", "st", "e.g", "i.e", "vs", "etc", "cf":
		return true
	}
	return false
}

// termMention is one term read in a clause.
type termMention struct {
	term    string
	at      int // byte offset of its word in the clause's lexNorm
	word    int // index of that word among the clause's lexNorm words
	written int // index of the written word it is read from (os.path.join)
	negated bool
}

// clauseTerms reads the terms of one clause with their negation: a
// negator negates the head it stands next to — an English pre-negator the
// nearest term after it ("never run migrations on prod": run; "use rg,
// not grep": grep), a Korean post-negator the nearest term before it
// ("grep 말고 rg": grep; "변수 이름 줄여 쓰지 마": 줄여) — not the whole
// phrase, whose objects one language puts before the negation and the
// other after it.
//
// elsewhere, when not nil, reports whether a term is also named in
// another clause of the text.
func clauseTerms(cl string, elsewhere func(string) bool) []termMention {
	cl = formatPattern.ReplaceAllStringFunc(cl, func(p string) string {
		return strings.ToLower(strings.NewReplacer("-", "", "/", "", ":", "", ".", "").Replace(p))
	})
	cl = unitSymbols.Replace(titleBeforeName.ReplaceAllString(cl, "$1$2"))
	cl = readPhrasal(codeNegation(cl))
	norm := lexNorm(cl)
	var written []int // per word of norm, the written word it is part of
	raw := strings.Fields(cl)
	for i, rw := range raw {
		for range strings.Fields(lexNorm(rw)) {
			written = append(written, i)
		}
	}
	var out []termMention
	at, k := 0, 0
	words := strings.Split(norm, " ")
	for wi, word := range words {
		p := at
		at += len(word) + 1
		if word == "" {
			continue
		}
		if wi+1 < len(words) && koNegAux(words[wi+1]) {
			word = koBeforeNegation(word) // 달지 말고 → 달, 붙이지 마 → 붙이
		}
		g := -1 - k // a word the written split did not see stands alone
		if k < len(written) {
			g = written[k]
		}
		k++
		textnorm.Words(word, func(w string, hangul bool) {
			if t := canonTerm(w, hangul); t != "" {
				out = append(out, termMention{term: t, at: p, word: wi, written: g})
			}
		})
	}
	pre, post := cancelForgetting(norm, wordPositions(norm, preNegators()), wordPositions(norm, postNegators()))
	for _, q := range pre {
		if notOnly(norm, q) {
			continue
		}
		for i := range out {
			if out[i].at > q {
				i = passPermit(out, i, 1)
				negateWord(out, out[i].written)
				negateJoined(out, words, i, removalAt(norm, q))
				negateQuoted(out, raw, out[i].written, true)
				if elsewhere != nil && elsewhere(out[i].term) {
					// "use git switch, not git checkout": the word
					// after the negator is a modifier the rule names
					// again elsewhere; the negation falls on the head.
					for j := i + 1; j < len(out); j++ {
						if out[j].written != out[i].written {
							negateWord(out, out[j].written)
							break
						}
					}
				}
				break
			}
		}
	}
	for _, q := range post {
		for i := len(out) - 1; i >= 0; i-- {
			if out[i].at < q {
				i = passPermit(out, i, -1)
				if !onlyBefore(norm, out[i].at) {
					negateWord(out, out[i].written)
					negateBefore(out, words, i)
					negateQuoted(out, raw, out[i].written, false)
				}
				break
			}
		}
	}
	kept := out[:0]
	for _, m := range out {
		if m.term != "" {
			kept = append(kept, m)
		}
	}
	return kept
}

// passPermit moves a negation that falls on a permitting verb (show,
// display, 보여주: lessonlexicon.go) on to the next term in dir (after it
// in English, before it in Korean), dropping the verb: "don't expose
// internal fields" forbids the fields. i itself when nothing follows.
func passPermit(out []termMention, i, dir int) int {
	for permitVerb(out[i].term) {
		j := i + dir
		for j >= 0 && j < len(out) && out[j].written == out[i].written {
			j += dir
		}
		if j < 0 || j >= len(out) {
			return i
		}
		out[i].term = ""
		i = j
	}
	return i
}

// negateJoined extends a pre-negator's negation from the term at i over
// the alternatives joined to it ("not sed or awk", "no tabs nor spaces")
// and, after a removal verb (remove, strip, drop), over the rest of its
// object: "strip trailing whitespace" forbids the whitespace, as "공백
// 남기지 마" does.
func negateJoined(out []termMention, words []string, i int, removal bool) {
	for j := i + 1; j < len(out); j++ {
		gap := out[j].word - out[j-1].word
		switch {
		case gap == 0 || removal && gap == 1:
		case gap == 2 && (words[out[j-1].word+1] == "or" || words[out[j-1].word+1] == "nor"):
		default:
			return
		}
		negateWord(out, out[j].written)
	}
}

// removalAt reports whether the pre-negator at q is a removal verb or a
// forbidding verb of the rule-verb lexicon (forbid, exclude, hide …:
// lessonlexicon.go), whose negation covers its whole object: "forbid
// trailing commas" forbids the trailing commas, as "쉼표 금지" does.
func removalAt(norm string, q int) bool {
	for _, v := range []string{"remove ", "strip ", "drop ", "get rid of "} {
		if strings.HasPrefix(norm[q:], v) {
			return true
		}
	}
	for _, v := range polarWords().preEN {
		if strings.HasPrefix(norm[q:], v) && strings.HasPrefix(norm[q+len(v):], " ") {
			return true
		}
	}
	return false
}

// negateBefore extends a Korean post-negator's negation from the term at
// i back over the written English phrase it ends ("numbered list 말고",
// "past tense 말고": the negator follows the phrase, whose first word is
// the value, as "not numbered lists" negates it in English) and over an
// alternative joined by 이나 or 거나 ("마일이나 화씨 말고").
func negateBefore(out []termMention, words []string, i int) {
	latin := !isHangul(out[i].term)
	for j := i - 1; j >= 0; j-- {
		gap := out[j+1].word - out[j].word
		w := words[out[j].word]
		switch {
		case gap == 0 && latin == !isHangul(out[j].term):
		case gap == 1 && latin && !isHangul(w) && !hangulEnd(w): // a particle ends the phrase: "subject는 past tense 말고"
		case gap == 1 && isHangul(w) && (strings.HasSuffix(w, "이나") || strings.HasSuffix(w, "거나")):
			latin = false
		default:
			return
		}
		negateWord(out, out[j].written)
	}
}

// distinctTerms are the terms of ms, each once.
func distinctTerms(ms []termMention) []string {
	var out []string
	for _, m := range ms {
		if !slices.Contains(out, m.term) {
			out = append(out, m.term)
		}
	}
	return out
}

// notOnly reports whether the pre-negator at q reads "not just / not
// only": "not just the diff, the tests too" adds, it forbids nothing.
func notOnly(norm string, q int) bool {
	f := strings.Fields(norm[q:])
	return len(f) > 1 && (f[1] == "just" || f[1] == "only" || f[1] == "merely")
}

// onlyBefore reports whether the Korean word at offset at ends in the
// particle 만 ("only"): "설명만 하지 말고 링크도" is "don't only explain",
// an addition, not a ban on explaining.
func onlyBefore(norm string, at int) bool {
	w, _, _ := strings.Cut(norm[at:], " ")
	return utf8.RuneCountInString(w) > 1 && strings.HasSuffix(w, "만")
}

// negateWord negates every term read from one written word: a
// negation falls on a whole written name ("not os.path.join", "os.path.join
// 하지말고"), not on the part nearest to it.
func negateWord(ms []termMention, written int) {
	for i := range ms {
		if ms[i].written == written {
			ms[i].negated = true
		}
	}
}
