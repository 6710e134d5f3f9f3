package filter

import (
	"strings"
	"unicode"
)

// SelfStatementFactor scales the raw floor for a self-statement: a speaker
// saying what they are, eat or do ("나 비건이야", "밀가루 안 먹어",
// "I am vegan", "I don't eat flour") is a whole durable fact in half the
// characters the raw floor asks of other text. With the Korean factor this
// is 5 runes for Hangul and 10 for English.
const SelfStatementFactor = 0.5

// selfPronounsKO are the first-person words that open a Korean
// self-statement ("나 …이야", "저는 …예요").
var selfPronounsKO = map[string]bool{"나": true, "난": true, "나는": true, "내가": true, "저": true, "전": true, "저는": true, "제가": true}

// selfPronounsEN are the English openings of a self-statement: a state,
// a possession or a habit of the speaker.
var selfPronounsEN = []string{"i'm", "i’m", "i am", "i don't", "i don’t", "i do not", "i never", "i always", "i have", "i've", "i’ve", "my"}

// selfCuesKO are the elided-subject forms of a Korean self-statement: a
// standing "don't eat / drink / do" and an ongoing "…하는 중".
var selfCuesKO = []string{"안 먹", "안먹", "못 먹", "못먹", "안 마셔", "안 마시", "못 마셔", "못 마시", "하는 중", "하는중", "중이야", "중이에요", "중입니다"}

// koEndings are the declarative endings a Korean self-statement closes on.
var koEndings = []string{"야", "요", "다", "어", "아", "해", "임", "음", "거든", "중"}

// isSelfStatement reports whether text is a short statement the speaker
// makes about themselves, as opposed to an acknowledgement or a filler: a
// first-person opening (or a Korean elided-subject cue) followed by at least
// one content word that is no acknowledgement ("응 고마워", "나 ㅋㅋ" and
// "I'm fine" are none).
func isSelfStatement(text string, ack func(string) bool) bool {
	lower := strings.ToLower(strings.TrimSpace(text))
	words := strings.FieldsFunc(lower, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	})
	if len(words) < 2 {
		return false
	}
	for i, w := range words {
		if selfPronounsKO[w] && koEnds(words[len(words)-1]) && hasContent(words[i+1:], 2, ack) {
			return true
		}
	}
	for _, cue := range selfCuesKO {
		// What is not eaten or done comes first: "밀가루 안 먹어", "나 술 안 마셔".
		if at := strings.Index(lower, cue); at >= 0 && hasContent(strings.Fields(lower[:at]), 1, ack) {
			return true
		}
	}
	joined := strings.Join(words, " ")
	for _, p := range selfPronounsEN {
		if rest, ok := strings.CutPrefix(joined, p+" "); ok && hasContent(strings.Fields(rest), 2, ack) {
			return true
		}
	}
	return false
}

// koEnds reports whether a Korean word closes on a declarative ending.
func koEnds(w string) bool {
	w = strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
	for _, e := range koEndings {
		if strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}

// hasContent reports whether words hold a content word: minSyll Hangul
// syllables or three Latin letters at least, no acknowledgement, no
// function word, no pronoun or negation, no laughter.
func hasContent(words []string, minSyll int, ack func(string) bool) bool {
	for _, w := range words {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		syll, latin := 0, 0
		for _, r := range w {
			switch {
			case r >= 0xAC00 && r <= 0xD7A3:
				syll++
			case unicode.IsLetter(r) && !isHangul(r):
				latin++
			}
		}
		if syll < minSyll && latin < 3 || syll+latin == 0 || w == "안" || w == "못" || ack(w) || functionWordEN(w) || functionWordKO(w) || selfPronounsKO[w] {
			continue
		}
		return true
	}
	return false
}
