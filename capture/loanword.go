package capture

import (
	"strings"
	"unicode/utf8"
)

// Korean writes the loanwords of software work in Hangul by their sound
// (티켓 ticket, 링크 link, 마이그레이션 migration, 컨테이너 container), so
// a lesson said in Korean and one said in English share them only by
// sound. soundKey reads a word of either script into one coarse phonetic
// key, by the rules of the National Institute of Korean Language's
// loanword orthography (외래어 표기법) read backwards:
//
//   - consonants fall into classes: P (p b f v; ㅂ ㅍ ㅃ), T (t d; ㄷ ㅌ ㄸ;
//     a final ㅅ ㅆ ㅈ ㅊ, as in 로봇 robot), K (k c g q ck; ㄱ ㅋ ㄲ), S (s z
//     j sh ch th, c before e i y, -tion; ㅅ ㅆ ㅈ ㅊ ㅉ), M, N (n, ng; ㄴ, a
//     final ㅇ), L (l, r before a vowel; ㄹ), H (h; ㅎ);
//   - an English r not before a vowel is silent (format 포맷, server 서버),
//     as are a final e and the epenthetic ㅡ Korean adds after a
//     consonant (test 테스트, table 테이블);
//   - every run of vowels is one V (ㅇ as an initial is silent), and a run
//     of one class is one symbol (ll, ㄹㄹ, pp).
//
// Two words match by sound (soundMatch) when their keys are equal, or the
// Korean one extends the English one by a verb ending (포맷해 ~ format),
// and the key holds at least two consonants: one consonant and a vowel
// say too little.
func soundKey(w string) string {
	if isHangul(w) {
		return koreanSound(w)
	}
	return englishSound(strings.ToLower(w))
}

// soundMatch reports whether Hangul word ko and Latin word en sound alike.
func soundMatch(ko, en string) bool {
	if !isHangul(ko) || isHangul(en) || len(en) < 2 {
		return false
	}
	a, b := soundKey(ko), soundKey(en)
	if strings.Count(b, "V") > len(b)-2 { // fewer than two consonants
		return false
	}
	return a == b || len(b) >= 4 && strings.HasPrefix(a, b)
}

var (
	koInitials = []string{"K", "K", "N", "T", "T", "L", "M", "P", "P", "S", "S", "", "S", "S", "S", "K", "T", "P", "H"}
	koFinals   = []string{"", "K", "K", "K", "N", "N", "N", "T", "L", "LK", "LM", "LP", "L", "L", "LP", "L", "M", "P", "P", "T", "T", "N", "T", "T", "K", "T", "P", ""}
)

// koEu is the medial ㅡ, the vowel Korean inserts after a consonant.
const koEu = 18

func koreanSound(w string) string {
	var b soundBuilder
	for _, r := range w {
		if r < 0xAC00 || r > 0xD7A3 {
			continue
		}
		c := int(r - 0xAC00)
		ini, med, fin := c/588, c%588/28, c%28
		b.add(koInitials[ini])
		if med != koEu {
			b.add("V")
		}
		b.add(koFinals[fin])
	}
	return b.String()
}

func englishSound(w string) string {
	var b soundBuilder
	vowel := func(i int) bool { return i < len(w) && strings.IndexByte("aeiouyw", w[i]) >= 0 }
	for i := 0; i < len(w); i++ {
		c := w[i]
		next := byte(0)
		if i+1 < len(w) {
			next = w[i+1]
		}
		switch {
		case c == 'e' && i == len(w)-1 && i > 0:
			// a final e is silent
		case vowel(i):
			b.add("V")
		case strings.HasPrefix(w[i:], "tion") || strings.HasPrefix(w[i:], "sion"):
			b.add("S")
		case c == 's' && next == 'h', c == 'c' && next == 'h', c == 't' && next == 'h':
			b.add("S")
			i++
		case c == 'p' && next == 'h':
			b.add("P")
			i++
		case c == 'c' && next == 'k', c == 'q' && next == 'u':
			b.add("K")
			i++
		case c == 'n' && next == 'g' && !vowel(i+2):
			b.add("N")
			i++
		case c == 'r':
			if vowel(i + 1) {
				b.add("L")
			}
		case c == 'c':
			if next == 'e' || next == 'i' || next == 'y' {
				b.add("S")
			} else {
				b.add("K")
			}
		case c == 'x':
			b.add("K")
			b.add("S")
		default:
			b.add(latinClass(c))
		}
	}
	return b.String()
}

func latinClass(c byte) string {
	switch c {
	case 'p', 'b', 'f', 'v':
		return "P"
	case 't', 'd':
		return "T"
	case 'k', 'g', 'q':
		return "K"
	case 's', 'z', 'j':
		return "S"
	case 'm':
		return "M"
	case 'n':
		return "N"
	case 'l':
		return "L"
	case 'h':
		return "H"
	}
	return ""
}

// soundBuilder writes class symbols, one symbol for a run of one class.
type soundBuilder struct{ strings.Builder }

func (b *soundBuilder) add(s string) {
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		cur := b.String()
		if last, _ := utf8.DecodeLastRuneInString(cur); cur != "" && last == r {
			continue
		}
		b.WriteRune(r)
	}
}
