package wording

import (
	"fmt"
	"strings"
	"unicode"
)

// Count is n and the noun, in the plural unless n is one: "1 probe",
// "2 probes", "0 memories", "3 batches". A Korean noun does not take a
// plural ("1 기억", "3 기억"); nor does a noun that ends in a Hangul
// syllable after another word.
func Count(n int, noun string) string {
	return fmt.Sprintf("%d %s", n, Noun(n, noun))
}

// Noun is noun as Count says it after n, without the number: for
// "%d of %d probes", Noun(total, "probe").
func Noun(n int, noun string) string {
	if n == 1 || n == -1 || noun == "" || hangulEnd(noun) {
		return noun
	}
	return pluralOf(noun)
}

// irregular are the plurals the rules below would get wrong.
var irregular = map[string]string{"child": "children", "person": "people", "index": "indexes"}

// pluralOf is the English plural of a noun (its last word): memory →
// memories, batch → batches, key → keys, probe → probes.
func pluralOf(noun string) string {
	head, last := "", noun
	if i := strings.LastIndexAny(noun, " -"); i >= 0 {
		head, last = noun[:i+1], noun[i+1:]
	}
	if p, ok := irregular[strings.ToLower(last)]; ok {
		return head + p
	}
	lower := strings.ToLower(last)
	switch {
	case strings.HasSuffix(lower, "y") && len(lower) > 1 && !strings.ContainsRune("aeiou", rune(lower[len(lower)-2])):
		return head + last[:len(last)-1] + "ies"
	case strings.HasSuffix(lower, "s"), strings.HasSuffix(lower, "x"), strings.HasSuffix(lower, "z"),
		strings.HasSuffix(lower, "ch"), strings.HasSuffix(lower, "sh"):
		return head + last + "es"
	}
	return head + last + "s"
}

// hangulEnd: the noun's last letter is Korean, which counts without a
// plural.
func hangulEnd(noun string) bool {
	r := []rune(strings.TrimRightFunc(noun, func(r rune) bool { return !unicode.IsLetter(r) }))
	return len(r) > 0 && unicode.Is(unicode.Hangul, r[len(r)-1])
}

// Was is "was" for one and "were" otherwise, for a sentence whose subject
// is Count(n, …): "1 line was", "2 lines were".
func Was(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// Agree is one when n is one and other otherwise: the verb (or any word)
// that agrees with Count(n, …), as in "1 probe differs", "3 probes differ".
func Agree(n int, one, other string) string {
	if n == 1 || n == -1 {
		return one
	}
	return other
}
