package capture

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Korean key stems. textnorm strips one particle or ending from a Korean
// word, and a one-syllable particle only from a word of three syllables or
// more (사과 keeps its 과), which suits search; a lesson key needs the
// inflected forms of one word to meet ("비밀번호는", "비밀번호야",
// "비밀번호만" → 비밀번호; "필요하면", "필요해" → 필요; "마일이나" → 마일;
// "때만" → 때), and Korean stacks its particles ("파일에서만", "커밋할 때는").
//
// koKeyStem strips the particles and endings of a closed list (koKeyEndings),
// the longest that fits first, again and again, while at least one syllable
// is left: a suffix is stripped only when it is in the list and what
// remains is a syllable or more. A word that has no suffix of the list
// stays whole, so a one-syllable name (준, 민) is kept; a word that is all
// one ending of the list (야, 돼, 요) is no term. Stripping is the same for
// every wording, so a noun whose last syllable looks like a particle (회의)
// is cut the same way in each of them and the wordings still meet. The
// nominaliser 임 is not stripped: it ends loanwords (프레임, 런타임, 게임)
// that must keep their sound to meet their English word, and a Korean
// prefix match (문제임 ~ 문제) meets it anyway.

// koKeyEndings are the particles and verb endings a key stem drops, as a
// closed list; built longest first once (koKeyEndingsSorted).
func koKeyEndings() []string {
	return []string{
		// Case and topic particles, and their stacks.
		"에서는", "에서도", "에서만", "으로는", "으로도", "으로만", "에게서", "한테서", "이라도", "이라서", "이라고", "이라는", "이라면",
		"에서", "에게", "한테", "으로", "부터", "까지", "처럼", "보다", "마다", "밖에", "이랑", "이나", "이든", "이면", "이야", "이요",
		"에는", "에도", "에만", "로는", "로도", "로만", "라고", "라는", "라도", "라서", "라면", "대로", "께서",
		"은", "는", "이", "가", "을", "를", "의", "에", "도", "만", "과", "와", "로", "랑", "든", "야",
		// Verb and adjective endings (하다 and 되다 forms first).
		"하려면", "하니까", "하거든", "했으면", "해야지", "해줘요", "해주세요", "하세요", "합니다", "했어요", "해도", "해서", "해야",
		"하면", "하고", "하게", "하지", "하는", "하던", "했던", "했어", "했지", "해줘", "해요", "할때", "한테", "할",
		"되면", "되는", "되게", "돼요", "됐어", "돼야", "된", "될", "됨", "돼",
		"으니까", "니까", "으면", "으려면", "려면", "거든", "잖아", "는데", "인데", "이고", "이지", "이다", "입니다", "이에요", "예요", "에요",
		"어서", "아서", "어도", "아도", "어야", "아야", "으세요", "세요", "면", "함", "죠",
		"었어요", "았어요", "였어요", "거나", "는지", "은지", "인지",
		// Endings a one-syllable stem may be a noun's last syllable of (필요,
		// 최고): stripped only when two syllables remain (koKeyMinTwo).
		"요", "고", "네", "줘",
	}
}

// koKeyMinTwo are the endings of koKeyEndings stripped only when at least
// two syllables remain: "금지요" → 금지 and "보여줘" → 보여, but 필요 and
// 최고 stay whole.
var koKeyMinTwo = map[string]bool{"요": true, "고": true, "네": true, "줘": true}

var koKeyEndingsSorted = sync.OnceValue(func() []string {
	es := slices.Clone(koKeyEndings())
	slices.SortStableFunc(es, func(a, b string) int { return utf8.RuneCountInString(b) - utf8.RuneCountInString(a) })
	return slices.Compact(es)
})

// koKeyEnding reports whether w is itself one particle or ending of the
// closed list (야, 돼, 요 standing alone).
func koKeyEnding(w string) bool { return slices.Contains(koKeyEndingsSorted(), w) }

// koKeyStem is the key stem of a Korean word: its particles and endings of
// the closed list stripped, longest first, while a syllable or more is
// left ("" when the word is all one ending).
func koKeyStem(w string) string {
	if koKeyEnding(w) {
		return ""
	}
	for {
		n := utf8.RuneCountInString(w)
		cut := false
		for _, e := range koKeyEndingsSorted() {
			min := 1
			if koKeyMinTwo[e] {
				min = 2
			}
			if strings.HasSuffix(w, e) && n-utf8.RuneCountInString(e) >= min {
				w, cut = w[:len(w)-len(e)], true
				break
			}
		}
		if !cut {
			return w
		}
	}
}
