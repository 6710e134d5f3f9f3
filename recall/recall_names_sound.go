package recall

import (
	"strings"

	"memtrace/engine/wordnet"
)

// nameSound is the sound of a name in either script, for matching a name
// across scripts (recall_names.go): the Revised Romanization read both
// ways, coarse where romanisations of one name differ and exact where
// names differ. Consonants fall into classes — P (p b f v; ㅂ ㅃ ㅍ), T (t
// d; ㄷ ㄸ ㅌ, a final ㅅ ㅆ ㅈ ㅊ), K (k g c q; ㄱ ㄲ ㅋ), S (s z j ch sh x;
// ㅅ ㅆ ㅈ ㅉ ㅊ), M, N (n, ng; ㄴ, a final ㅇ), L (l r; ㄹ), H (h; ㅎ) — and
// a run of one class is one symbol; vowels keep their class, the glides
// y and w (ㅑ ㅕ ㅛ ㅠ ㅘ ㅝ …) dropped: a (ㅏ), e (e ae ai ay; ㅐ ㅔ ㅚ),
// i (i ee; ㅣ ㅟ ㅢ), o (ㅗ), u (u oo ou; ㅜ), ŏ (eo; ㅓ), ŭ (eu; ㅡ).
// "Sena" and 세나 are SeNa, "Mochi" and 모찌 MoSi, "Seungho" and 승호
// SŭNHo; 시내 (SiNe) is not Sena. A sound of fewer than two consonants
// or two vowels names nothing ("" : a two-letter word matches too much).
func nameSound(t string) string {
	var b []string
	push := func(s string) {
		if s == "" {
			return
		}
		if n := len(b); n > 0 && b[n-1] == s && !isVowelClass(s) {
			return
		}
		b = append(b, s)
	}
	if isHangul(t) {
		for _, r := range t {
			if r < 0xAC00 || r > 0xD7A3 {
				return ""
			}
			c := int(r - 0xAC00)
			push(nameInitials[c/588])
			push(nameMedials[c%588/28])
			push(nameFinals[c%28])
		}
	} else {
		w := strings.ToLower(t)
		for i := 0; i < len(w); {
			c := w[i]
			if c < 'a' || c > 'z' {
				return ""
			}
			if strings.IndexByte("aeiouyw", c) >= 0 {
				j := i
				for j < len(w) && strings.IndexByte("aeiouyw", w[j]) >= 0 {
					j++
				}
				for _, v := range latinVowels(strings.TrimLeft(w[i:j], "yw")) {
					push(v)
				}
				i = j
				continue
			}
			next := byte(0)
			if i+1 < len(w) {
				next = w[i+1]
			}
			switch {
			case c == 'n' && next == 'g' && (i+2 == len(w) || strings.IndexByte("aeiouyw", w[i+2]) < 0):
				push("N")
				i += 2
			case (c == 'c' || c == 's') && next == 'h':
				push("S")
				i += 2
			case c == 'p' && next == 'h':
				push("P")
				i += 2
			case c == 'c':
				if next == 'e' || next == 'i' || next == 'y' {
					push("S")
				} else {
					push("K")
				}
				i++
			default:
				push(latinConsonants[c-'a'])
				i++
			}
		}
	}
	cons, vows := 0, 0
	for _, s := range b {
		if isVowelClass(s) {
			vows++
		} else {
			cons++
		}
	}
	if cons < 2 || vows < 2 {
		return ""
	}
	return strings.Join(b, "")
}

func isVowelClass(s string) bool { return s != strings.ToUpper(s) }

// latinVowels reads a run of Latin vowels (glides dropped) as vowel classes.
func latinVowels(run string) []string {
	var out []string
	for run != "" {
		switch {
		case strings.HasPrefix(run, "eo"):
			out, run = append(out, "ŏ"), run[2:]
		case strings.HasPrefix(run, "eu"):
			out, run = append(out, "ŭ"), run[2:]
		case strings.HasPrefix(run, "ae"), strings.HasPrefix(run, "ai"), strings.HasPrefix(run, "ay"):
			out, run = append(out, "e"), run[2:]
		case strings.HasPrefix(run, "ee"):
			out, run = append(out, "i"), run[2:]
		case strings.HasPrefix(run, "oo"), strings.HasPrefix(run, "ou"):
			out, run = append(out, "u"), run[2:]
		case run[0] == 'y' || run[0] == 'w':
			run = run[1:]
		default:
			out, run = append(out, string(run[0])), run[1:]
		}
	}
	return out
}

var latinConsonants = [26]string{
	"", "P", "K", "T", "", "P", "K", "H", "", "S", "K", "L", "M", "N", "", "P", "K", "L", "S", "T", "", "P", "", "S", "", "S",
}

var (
	nameInitials = [19]string{"K", "K", "N", "T", "T", "L", "M", "P", "P", "S", "S", "", "S", "S", "S", "K", "T", "P", "H"}
	// ㅏ ㅐ ㅑ ㅒ ㅓ ㅔ ㅕ ㅖ ㅗ ㅘ ㅙ ㅚ ㅛ ㅜ ㅝ ㅞ ㅟ ㅠ ㅡ ㅢ ㅣ
	nameMedials = [21]string{"a", "e", "a", "e", "ŏ", "e", "ŏ", "e", "o", "a", "e", "e", "o", "u", "ŏ", "e", "i", "u", "ŭ", "i", "i"}
	nameFinals  = [28]string{"", "K", "K", "K", "N", "N", "N", "T", "L", "L", "L", "L", "L", "L", "L", "L", "M", "P", "P", "T", "T", "N", "T", "T", "K", "T", "P", ""}
)

// isAdjectiveWord: WordNet knows the word as an adjective (English
// capitalises the adjectives of peoples and languages: Korean, Swedish).
func isAdjectiveWord(lw string) bool { return len(wordnet.Senses(lw, 'a')) > 0 }
