package capture

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// splitSentences splits text into sentences, without their terminators.
// A sentence ends at a newline, or at . ! ? 。 ！ ？ … followed by a space
// or the end of the text — so decimals, versions, file names and URLs
// ("3.5", "v1.2", "main.go") stay whole. A period does not end a sentence
// after a known abbreviation (Mr. Dr. e.g. etc. vs. No. …, see
// abbreviations) or a single letter (initials: "J. R. R. Tolkien"); in
// Korean text the same rules hold, and the usual Korean abbreviations
// written with a period (a bare single syllable such as "약." is not one)
// are rare enough that a period after a Hangul syllable ends the sentence.
func splitSentences(text string) []string {
	var out []string
	start := 0
	emit := func(end int) {
		s := strings.TrimSpace(text[start:end])
		s = strings.TrimRight(s, ".!?。！？…")
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	// end closes the sentence whose terminator is at i: closing quotes and
	// brackets after it stay with the sentence, the terminator goes.
	end := func(i, after int) {
		closing := after
		for closing < len(text) && strings.IndexByte(`"')]}`, text[closing]) >= 0 {
			closing++
		}
		for strings.HasPrefix(text[closing:], "”") || strings.HasPrefix(text[closing:], "’") {
			closing += len("”")
		}
		emit(i)
		if s := strings.TrimSpace(text[after:closing]); s != "" && len(out) > 0 {
			out[len(out)-1] += s
		}
		start = closing
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		next := i + size
		switch r {
		case '\n':
			emit(i)
			start = next
		case '!', '?', '。', '！', '？', '…':
			if atBoundary(text, next) {
				end(i, next)
			}
		case '.':
			if atBoundary(text, next) && !abbreviationBefore(text[start:i], text[next:]) {
				end(i, next)
			}
		}
		i = next
	}
	emit(len(text))
	return out
}

// atBoundary reports whether position i of text is its end or a space
// (after any closing quotes or brackets and repeated terminators).
func atBoundary(text string, i int) bool {
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r):
			return true
		case strings.ContainsRune(`"'”’)]}.!?`, r):
			i += size
		default:
			return false
		}
	}
	return true
}

// abbreviations end with a period that does not end a sentence (lower
// case, without the final period). Months that are also names or words
// (Mar, May, Jun, Jul) are left out: "call me Jun." ends a sentence.
// "No." is an abbreviation only before a number ("No. 5").
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "sr": true, "jr": true, "st": true,
	"mt": true, "gen": true, "rev": true, "hon": true, "capt": true, "sgt": true, "lt": true, "col": true,
	"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "al": true, "approx": true, "est": true,
	"nos": true, "vol": true, "fig": true, "p": true, "pp": true, "ch": true, "sec": true,
	"jan": true, "feb": true, "apr": true, "aug": true, "sept": true, "oct": true, "nov": true, "dec": true,
	"inc": true, "ltd": true, "co": true, "corp": true,
	"a.m": true, "p.m": true, "u.s": true, "u.k": true, "ph.d": true,
}

// abbreviationBefore reports whether s ends with an abbreviation or a
// single letter (an initial), the period being the one after it and rest
// the text after the period.
func abbreviationBefore(s, rest string) bool {
	i := strings.LastIndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == '"' })
	word := strings.ToLower(s[i+1:])
	if word == "" {
		return false
	}
	if abbreviations[word] {
		return true
	}
	if word == "no" {
		r := strings.TrimLeft(rest, " ")
		return r != "" && r[0] >= '0' && r[0] <= '9'
	}
	r, size := utf8.DecodeRuneInString(word)
	return size == len(word) && unicode.IsLetter(r) && r < unicode.MaxASCII // "J." but not "약."
}
