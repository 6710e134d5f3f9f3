package capture

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The scanners a lesson's signature is read with: where the forms of a
// lexicon, numbers and Korean counts stand in a normalised text, and the
// clauses of a correction.

// formPositions returns the byte offsets in norm (lexNorm) where a form of
// l starts. An English form starts at a word boundary and ends at one, or
// before Hangul (a Korean particle: "pnpm으로"); a trailing * matches a
// prefix. A Korean form matches anywhere.
func formPositions(norm string, l lexicon) []int {
	var out []int
	for _, f := range l.en {
		prefix := strings.HasSuffix(f, "*")
		f = strings.TrimSuffix(f, "*")
		for from := 0; ; {
			i := strings.Index(norm[from:], f)
			if i < 0 {
				break
			}
			i += from
			from = i + 1
			if i > 0 && norm[i-1] != ' ' && !hangulBefore(norm, i) {
				continue
			}
			end := i + len(f)
			if !prefix && end < len(norm) && norm[end] != ' ' && !hangulAt(norm, end) {
				continue
			}
			out = append(out, i)
		}
	}
	for _, f := range l.ko {
		for from := 0; ; {
			i := strings.Index(norm[from:], f)
			if i < 0 {
				break
			}
			out = append(out, from+i)
			from += i + len(f)
		}
	}
	return out
}

// wordPositions is formPositions for negators.
func wordPositions(norm string, l lexicon) []int { return formPositions(norm, l) }

func hangulAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.Is(unicode.Hangul, r)
}

func hangulBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.Is(unicode.Hangul, r)
}

var numberWords = map[string]string{"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
	"seven": "7", "eight": "8", "nine": "9", "ten": "10", "twelve": "12", "sixteen": "16", "twenty": "20"}

// koreanCounts are the native Korean numerals that count a unit ("두 칸",
// "네 칸", "세 줄").
var koreanCounts = map[string]string{"한": "1", "두": "2", "세": "3", "네": "4", "다섯": "5", "여섯": "6", "여덟": "8"}

// koreanUnitAt reports whether the word at byte i of norm is a counting
// unit.
func koreanUnitAt(norm string, i int) bool {
	if i >= len(norm) {
		return false
	}
	for _, u := range []string{"칸", "자", "줄", "글자", "개", "스페이스", "번"} {
		if strings.HasPrefix(norm[i:], u) {
			return true
		}
	}
	return false
}

// numberPositions finds the small numbers of norm: 1–4 digits (a Korean
// unit or particle may follow: "2칸으로"), an English number word or a
// Korean numeral before a unit.
func numberPositions(norm string) []sigHit {
	var out []sigHit
	pos := 0
	for _, w := range strings.Split(norm, " ") {
		at := pos
		pos += len(w) + 1
		if v, ok := numberWords[w]; ok {
			out = append(out, sigHit{id: v, order: at})
			continue
		}
		if v, ok := koreanCounts[w]; ok && koreanUnitAt(norm, pos) {
			out = append(out, sigHit{id: v, order: at})
			continue
		}
		d := strings.TrimRightFunc(w, func(r rune) bool { return unicode.Is(unicode.Hangul, r) })
		if d == "" || len(d) > 4 || strings.TrimLeft(d, "0123456789") != "" || strings.TrimLeft(d, "0") == "" {
			continue
		}
		out = append(out, sigHit{id: strings.TrimLeft(d, "0"), order: at})
	}
	return out
}

// lessonClauses cuts the lesson text into clauses for reading negation.
func lessonClauses(text string) []string {
	text = strings.NewReplacer("tl;dr", "tldr", "TL;DR", "tldr", "TL;dr", "tldr").Replace(text)
	var out []string
	start := 0
	for i, r := range text {
		// A colon inside a word (python:latest, 14:30, path:line) joins.
		if strings.ContainsRune(",;—–!?\n", r) || r == ':' && (i+1 >= len(text) || text[i+1] == ' ' || i == 0 || text[i-1] == ' ') {
			if i > start {
				out = append(out, text[start:i])
			}
			start = i + utf8.RuneLen(r)
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}
