package capture

// Matching two lessons' terms (lessonOverlap): the same word, a long shared
// stem or WordNet synonyms, and the value and polarity checks that keep
// opposites apart. The terms themselves are read in lessoncanon.go.

import (
	"memtrace/engine/wordnet"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// termsMatch reports whether two terms (polarity aside) are the same word
// for keying.
func termsMatch(a, b string) bool {
	a, b = bare(a), bare(b)
	if a == b {
		return true
	}
	ha, hb := isHangul(a), isHangul(b)
	switch {
	case ha && hb:
		if utf8.RuneCountInString(a) > utf8.RuneCountInString(b) {
			a, b = b, a
		}
		return utf8.RuneCountInString(a) >= 2 && strings.HasPrefix(b, a)
	case ha:
		return soundMatch(a, b)
	case hb:
		return soundMatch(b, a)
	}
	return wordnetSynonyms(a, b) || longStem(a, b)
}

// longStem reports whether two English words share a stem of at least
// five letters covering three quarters of the shorter (description ~
// descript, abbreviation ~ abbreviate).
func longStem(a, b string) bool {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n >= 5 && 4*n >= 3*min(len(a), len(b))
}

// wnSenses is how many of a word's most frequent senses count for synonymy.
const wnSenses = 2

var synCache sync.Map // [2]string → bool

// wordnetSynonyms reports whether a and b share a synset among their most
// frequent senses of one part of speech.
func wordnetSynonyms(a, b string) bool {
	if a > b {
		a, b = b, a
	}
	k := [2]string{a, b}
	if v, ok := synCache.Load(k); ok {
		return v.(bool)
	}
	same := false
	for _, pos := range []byte{'n', 'v', 'a'} {
		sa, sb := wordnet.Senses(a, pos), wordnet.Senses(b, pos)
		for _, x := range sa[:min(len(sa), wnSenses)] {
			if slices.Contains(sb[:min(len(sb), wnSenses)], x) {
				same = true
			}
		}
	}
	synCache.Store(k, same)
	return same
}

// lessonOverlap is how many terms of a match terms of b, and whether the
// two sets are the same lesson:
//
//   - a matched pair of opposite polarity does not count as shared, and
//     when such pairs are as many as the shared terms the two are
//     opposites ("use rg, not grep" and "use grep, not rg");
//   - it must reach two (one when a set has one term) and cover half the
//     smaller set and a third of the larger;
//   - a value slot: when every term of a short smaller set (three to five
//     terms) but one is shared
//     and the larger set holds a term the smaller lacks, the two name the
//     same frame with another value ("double quotes" and "single quotes",
//     "snake_case" and "kebab-case" file names) and are two lessons —
//     unless the larger set holds no unmatched term in the script of the
//     smaller's odd one (an untranslated 읽어 is no value: swappable);
//   - against a lesson said wholly in Latin-script terms, the Korean words
//     of the other that the glossary did not read and that sound like
//     none of its words are untranslated, not evidence either way: they
//     are left out of both counts (untranslated), so "트랜잭션으로 묶어줘"
//     is weighed by what it shares, not by the Korean words English has
//     no way to meet.
func lessonOverlap(a, b []string) (int, bool) {
	ra, rb := untranslated(a, b), untranslated(b, a)
	reduced := len(ra) != len(a) || len(rb) != len(b)
	a, b = ra, rb
	if len(a) > len(b) {
		a, b = b, a
	}
	shared, against := 0, 0
	var swapped []string // the terms of a matched with the other polarity in b
	usedB := map[int]bool{}
	for _, x := range a {
		for j, y := range b {
			if !usedB[j] && termsMatch(x, y) {
				usedB[j] = true
				if !polarityAgrees(x, y) {
					against++
					swapped = append(swapped, x)
				} else {
					shared++
				}
				break
			}
		}
	}
	lo, hi := len(a), len(b)
	if lo == 0 {
		return 0, false
	}
	matched := shared + against
	if against > 0 && against >= shared || valueSwap(swapped) || forbidsPrescribed(a, b, swapped, matched) {
		return shared, false
	}
	if otherNames(a, b) || opposedOdd(a, b, usedB) {
		return shared, false
	}
	need := 2
	if lo == 1 {
		need = 1
	}
	// (A set without its untranslated words is not weighed for a swapped
	// value: its odd term may be what one of them says.)
	if !reduced && lo >= 3 && lo <= 5 && matched == lo-1 && len(usedB) < hi && swappable(a, b, usedB) {
		return shared, false // one value swapped for another
	}
	half := 2*shared >= lo
	if 2*shared == lo && lo <= 4 && bothOdd(a, b, usedB) {
		// A short rule half shared, and each names a thing the other
		// does not, one forbidding it: two rules on one frame ("put the
		// unit in the variable name" vs "don't put the type in variable
		// names").
		half = false
	}
	return shared, shared >= need && half && 3*shared >= hi
}

// untranslated is a without its unread Korean terms that match no term
// of b, when b holds no Korean term at all (a wording in English or in
// the glossary's words); a is returned as it is otherwise, and when fewer
// than two terms would be left.
func untranslated(a, b []string) []string {
	if slices.ContainsFunc(b, func(t string) bool { return isHangul(bare(t)) }) {
		return a
	}
	var out []string
	for _, x := range a {
		if isHangul(bare(x)) && !slices.ContainsFunc(b, func(y string) bool { return termsMatch(x, y) }) {
			continue
		}
		out = append(out, x)
	}
	if len(out) < 2 || len(out) == len(a) {
		return a
	}
	return out
}

// forbidsPrescribed reports whether one lesson forbids what the other
// prescribes: the smaller lesson a (either, when the two are as long)
// names at most one term b does not, the terms matched with the other
// polarity are all forbidden in it, and b forbids nothing — "never log
// request bodies" against "log request bodies at debug level", "never
// retry failed payment calls" against "retry failed network calls with
// backoff" (the action or value itself is negated). A lesson of five
// terms or more is too likely to hold a term its negation missed, unless
// the negation covers a phrase of two or more of its terms ("forbid
// trailing commas in multi-line arrays" against "allow trailing commas in
// multi-line arrays": the forbidden phrase is what the other prescribes).
// A negation read on a phrase's other word (Korean negates a phrase's head, English
// the word after its negator) leaves a term of b forbidden or a's
// swapped term prescribed, and stays one lesson.
func forbidsPrescribed(a, b, swapped []string, matched int) bool {
	one := func(x, y []string) bool {
		if len(x) > 4 && len(swapped) < 2 || slices.ContainsFunc(y, func(t string) bool { return strings.HasPrefix(t, notPrefix) }) {
			return false
		}
		against, found := 0, 0
		for _, t := range x {
			j := slices.IndexFunc(y, func(u string) bool { return termsMatch(t, u) })
			if j < 0 {
				continue
			}
			found++
			if strings.HasPrefix(t, notPrefix) && !polarityAgrees(t, y[j]) {
				against++
			}
		}
		return against == len(swapped) && found >= len(x)-1
	}
	if len(swapped) == 0 {
		return false
	}
	return one(a, b) || len(a) == len(b) && one(b, a)
}

// valueSwap reports whether the terms of one lesson that the other names
// with the opposite polarity hold a prescribed and a forbidden value of
// one frame (frameValues): "MiB, not MB" and "MB, not MiB" swap two
// values. Two words of one phrase read with split polarity ("not
// unittest.TestCase classes" ~ "unittest 클래스 말고": Korean negates a
// phrase's head, English the word after its negator) are no two values
// of one frame and are tolerated as one misread negation.
//
// A swap both ways in one script is two values whatever their kind: one
// lesson forbids X and prescribes Y, the other prescribes X and forbids Y
// ("a cursor, not offset" vs "offset, not a cursor"). A split phrase
// flips one word only, never one each way.
func valueSwap(swapped []string) bool {
	for _, x := range swapped {
		for _, y := range swapped {
			if strings.HasPrefix(x, notPrefix) && !strings.HasPrefix(y, notPrefix) &&
				(frameValues(bare(x), bare(y)) || isHangul(bare(x)) == isHangul(y)) {
				return true
			}
		}
	}
	return false
}

// opposedOdd reports whether a term of a that b does not match and one of
// b that a does not match are WordNet antonyms (ascending ~ descending,
// increase ~ decrease, first ~ last: opposedTerms): the two lessons set
// one frame to opposite values.
func opposedOdd(a, b []string, usedB map[int]bool) bool {
	for _, x := range a {
		if slices.ContainsFunc(b, func(y string) bool { return termsMatch(x, y) }) {
			continue
		}
		for j, y := range b {
			if !usedB[j] && opposedTerms(x, y) {
				return true
			}
		}
	}
	return false
}

// termsOppose reports whether two terms lessons are one rule and its
// opposite: every term of each is matched one to one by a term of the
// other — the same word (termsMatch) or its WordNet antonym — and the
// pairs said with the other polarity are all forbidden on one side (one
// lesson forbids what the other prescribes: "forbid trailing commas" and
// "allow trailing commas"), or some pair is an antonym pair. Flips both
// ways are left alone: a negation read on a phrase's other word
// (not_global+variable ~ global+not_variable) is a misreading, not an
// opposite. A lesson naming anything the other does not is another rule.
func termsOppose(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	used := make([]bool, len(b))
	forbidsA, forbidsB, antonyms := 0, 0, 0
	for _, x := range a {
		found := false
		for j, y := range b {
			if !used[j] && termsMatch(x, y) {
				used[j], found = true, true
				if !polarityAgrees(x, y) {
					if strings.HasPrefix(x, notPrefix) {
						forbidsA++
					} else {
						forbidsB++
					}
				}
				break
			}
		}
		if !found {
			for j, y := range b {
				if !used[j] && polarityAgrees(x, y) && opposedTerms(x, y) {
					used[j], found = true, true
					antonyms++
					break
				}
			}
		}
		if !found {
			return false
		}
	}
	if forbidsA > 0 && forbidsB > 0 {
		return false
	}
	return forbidsA+forbidsB+antonyms > 0
}

// otherNames reports whether each of a and b names a tool or identifier
// the other does not: an unmatched Latin-script term that neither the
// glossary nor WordNet knows (jq and yq, mib and kib) — a name is the
// rule's value, and a rewording keeps its names in either language, so
// two lessons naming two different ones are two rules on one frame
// ("parse JSON with jq" vs "parse YAML with yq").
func otherNames(a, b []string) bool {
	odd := func(p, q []string) bool {
		for _, x := range p {
			if t := bare(x); isHangul(t) || knownTerm(t) || len(t) < 2 {
				continue
			}
			if !slices.ContainsFunc(q, func(y string) bool { return termsMatch(x, y) }) {
				return true
			}
		}
		return false
	}
	return odd(a, b) && odd(b, a)
}

// bothOdd reports whether a and b each hold an unmatched term in the same
// script, one of them forbidden (not_) and the other's prescribed: one
// rule forbids a thing the other does not name while the other
// prescribes another ("don't put the type in variable names" vs "put the
// unit in the variable name"). An untranslated Korean word against English
// ones is no other thing. So do two rules each naming an object of two
// Latin-script words the other lacks ("set a timeout on HTTP clients" vs
// "set a timeout on database queries": one frame, two objects).
func bothOdd(a, b []string, usedB map[int]bool) bool {
	var oddA, oddB []string
	for _, x := range a {
		if !slices.ContainsFunc(b, func(y string) bool { return termsMatch(x, y) }) {
			oddA = append(oddA, x)
		}
	}
	for j, y := range b {
		if !usedB[j] {
			oddB = append(oddB, y)
		}
	}
	crossed := func(p, q []string) bool {
		for _, x := range p {
			if !strings.HasPrefix(x, notPrefix) {
				continue
			}
			for _, y := range q {
				if !strings.HasPrefix(y, notPrefix) && isHangul(bare(x)) == isHangul(y) {
					return true
				}
			}
		}
		return false
	}
	latin := func(ts []string) int {
		n := 0
		for _, t := range ts {
			if !isHangul(bare(t)) {
				n++
			}
		}
		return n
	}
	// Or each names an object of two words of its own ("set a timeout on
	// HTTP clients" vs "… on database queries").
	return crossed(oddA, oddB) || crossed(oddB, oddA) || latin(oddA) >= 2 && latin(oddB) >= 2
}

// swappable reports whether the one term of a that b does not match can
// be a value b swaps for another: some unmatched term of b is a value of
// the same frame (frameValues) or of the other polarity in the same
// script. A Korean word of a rewording (읽어, 써줘) against an English
// wording is untranslated, not another value; two English words of
// different kinds (after ~ sum, description ~ first) are two wordings'
// extras, not two values.
func swappable(a, b []string, usedB map[int]bool) bool {
	var odd string
	for _, x := range a {
		found := false
		for _, y := range b {
			if termsMatch(x, y) {
				found = true
				break
			}
		}
		if !found {
			odd = x
		}
	}
	if strings.HasPrefix(odd, aboutPrefix) {
		return false // named beside the rule, not a value it prescribes
	}
	for j, y := range b {
		if usedB[j] {
			continue
		}
		// One forbids a thing and the other prescribes another in its
		// place ("put the author in the file header" vs "don't put the
		// date in file headers"), or the two are values of one frame.
		crossed := strings.HasPrefix(odd, notPrefix) != strings.HasPrefix(y, notPrefix) && isHangul(bare(odd)) == isHangul(bare(y))
		if crossed || frameValues(bare(odd), bare(y)) {
			return true
		}
	}
	return false
}

// frameValues reports whether two terms can be two values of one frame
// (a slot one lesson fills with one and another lesson with the other):
// two Korean words (the stems of one script, the value unread); two
// names WordNet does not know (tools, identifiers, formats: uv ~ pip is
// read by polarity, rg ~ ag, mmddyyyy ~ ddmmyyyy here); two adjectives
// (british ~ american spelling, double ~ single quotes); or two nouns or
// verbs whose most frequent senses share a direct hypernym (near). A word of the other script, a
// word WordNet knows against one it does not, or words of different
// parts of speech are no values of one frame: "run go mod tidy after …"
// and "… go.sum 또 안 맞아요" differ by after and sum, not by a value.
func frameValues(x, y string) bool {
	hx, hy := isHangul(x), isHangul(y)
	if hx || hy {
		return hx && hy
	}
	kx, ky := wordnet.Known(x), wordnet.Known(y)
	if !kx || !ky {
		return !kx && !ky
	}
	if len(wordnet.Senses(x, 'a')) > 0 && len(wordnet.Senses(y, 'a')) > 0 {
		return true
	}
	for _, pos := range []byte{'n', 'v'} {
		if near(wordnet.Senses(x, pos), wordnet.Senses(y, pos)) {
			return true
		}
	}
	return false
}

// near reports whether the most frequent senses of a and b share a
// direct hypernym (co-hyponyms: json ~ yaml under one kind, not
// description ~ command, which meet only through rarer senses).
func near(a, b []wordnet.Synset) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for _, h := range wordnet.Hypernyms(a[0]) {
		if slices.Contains(wordnet.Hypernyms(b[0]), h) {
			return true
		}
	}
	return false
}
