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
//     smaller's odd one (an untranslated 읽어 is no value: swappable).
func lessonOverlap(a, b []string) (int, bool) {
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
				if strings.HasPrefix(x, notPrefix) != strings.HasPrefix(y, notPrefix) {
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
	if against > 0 && against >= shared || valueSwap(swapped) {
		return shared, false
	}
	if otherNames(a, b) {
		return shared, false
	}
	need := 2
	if lo == 1 {
		need = 1
	}
	if lo >= 3 && lo <= 5 && matched == lo-1 && len(usedB) < hi && swappable(a, b, usedB) {
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

// valueSwap reports whether the terms of one lesson that the other names
// with the opposite polarity hold a prescribed and a forbidden value of
// one frame (frameValues): "MiB, not MB" and "MB, not MiB" swap two
// values. Two words of one phrase read with split polarity ("not
// unittest.TestCase classes" ~ "unittest 클래스 말고": Korean negates a
// phrase's head, English the word after its negator) are no two values
// of one frame and are tolerated as one misread negation.
func valueSwap(swapped []string) bool {
	for _, x := range swapped {
		for _, y := range swapped {
			if strings.HasPrefix(x, notPrefix) && !strings.HasPrefix(y, notPrefix) && frameValues(bare(x), bare(y)) {
				return true
			}
		}
	}
	return false
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
