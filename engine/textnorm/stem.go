package textnorm

import "strings"

// Stem is the English stemmer of Tokens and QueryTerms: Porter2 with
// readable stems that keep a final "e" ("apples" → "apple",
// "relationships" → "relationship", "adoption" → "adopt", "memtrace"
// stays). Keeping the "e" costs nothing measurable on LoCoMo (R@10 0.760
// either way) and keeps names and product words intact. Korean words
// never reach it.
func Stem(w string) string { return Porter2KeepE(w) }

// TokensWith is Tokens with another English stemmer (nil: none). Korean
// words are handled exactly as Tokens handles them. Benchmarks use it to
// compare stemmers on the same tokenisation.
func TokensWith(s string, stem func(string) string) []string {
	var out []string
	eachWord(s, func(w string, hangul bool) {
		t, ok := term(w, hangul)
		if !ok {
			return
		}
		if !hangul {
			t = w
			if stem != nil {
				t = stem(w)
			}
		}
		out = append(out, t)
	})
	return out
}

// LightStem is a light English stemmer: plural and verb inflections only
// (-ies, -es, -s, -ing, -ed), enough to match "apples"/"apple" and
// "painting"/"painted"/"paint" without the over-stemming of a full Porter
// stemmer on names. It was the engine's stemmer until Porter2 measured
// better on LoCoMo (turn-level R@10 0.622 → 0.633 with plain BM25); the
// benchmarks keep it for comparison.
func LightStem(w string) string {
	if len(w) < 4 || !isASCIILetters(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		return undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		return undouble(w[:len(w)-2])
	case strings.HasSuffix(w, "es") && len(w) > 4 && strings.ContainsAny(w[len(w)-3:len(w)-2], "sxz"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

func undouble(s string) string {
	n := len(s)
	if n >= 3 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouls", rune(s[n-1])) {
		return s[:n-1]
	}
	return s
}
