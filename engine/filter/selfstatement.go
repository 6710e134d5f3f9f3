package filter

import (
	"strings"
	"sync"
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
var selfPronounsEN = []string{"i'm", "i’m", "i am", "i don't", "i don’t", "i do not", "i never", "i always", "i have", "i've", "i’ve", "im", "my"}

// selfCuesKO are the elided-subject forms of a Korean self-statement: a
// standing "don't eat / drink / do" and an ongoing "…하는 중".
var selfCuesKO = []string{"안 먹", "안먹", "못 먹", "못먹", "안 마셔", "안 마시", "못 마셔", "못 마시", "하는 중", "하는중", "중이야", "중이에요", "중입니다"}

// isSelfStatement reports whether text is a short statement the speaker
// makes about themselves, as opposed to an acknowledgement or a filler: a
// first-person opening (or a Korean elided-subject cue) followed by at least
// one content word that is no acknowledgement ("응 고마워", "나 ㅋㅋ" and
// "I'm fine" are none). A Korean one closes on a declarative ending of
// koEndingTable (either class: "나 비건이야", "밀가루 안 먹어"); hearsay
// ("…했대") and a clause opened by a named third person ("민수 결혼했어",
// "지현은 …") are about someone else and are none.
func isSelfStatement(text string, ack func(string) bool) bool {
	return readSelf(text, ack).ok
}

// SelfStatement is the one detector of a short statement the speaker makes
// about themselves (isSelfStatement, with L1's acknowledgements). Copular
// is set when it states what the speaker is ("I'm vegan", "나 비건이야",
// "저 교사예요", "나 학생이고"), not what they do.
func SelfStatement(text string) (ok, copular bool) {
	r := readSelf(text, defaultAck())
	return r.ok, r.copular
}

// defaultAck is L1's acknowledgement test, built once.
var defaultAck = sync.OnceValue(func() func(string) bool { return newAck(ackPhrases()) })

type selfReading struct{ ok, copular bool }

func readSelf(text string, ack func(string) bool) selfReading {
	lower := strings.ToLower(strings.TrimSpace(text))
	words := strings.FieldsFunc(lower, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	})
	if len(words) < 2 {
		return selfReading{}
	}
	last := words[len(words)-1]
	if KoReportedClose(last) || KoNamedSubject(strings.Join(words, " ")) != "" {
		return selfReading{} // someone else's: hearsay, or a named third person
	}
	for i, w := range words {
		if !selfPronounsKO[w] || !hasContent(words[i+1:], 2, ack) {
			continue
		}
		if koClosesSelf(last) {
			return selfReading{ok: true, copular: koCopular(last)}
		}
		if koCopular(last) { // a connective copula: "나 학생이고"
			return selfReading{copular: true}
		}
	}
	for _, cue := range selfCuesKO {
		// What is not eaten or done comes first: "밀가루 안 먹어", "나 술 안 마셔".
		if at := strings.Index(lower, cue); at >= 0 && hasContent(strings.Fields(lower[:at]), 1, ack) {
			return selfReading{ok: true}
		}
	}
	joined := strings.Join(words, " ")
	for _, p := range selfPronounsEN {
		if rest, ok := strings.CutPrefix(joined, p+" "); ok && hasContent(strings.Fields(rest), 2, ack) {
			return selfReading{ok: true, copular: p == "i'm" || p == "i’m" || p == "i am" || p == "im"}
		}
	}
	return selfReading{}
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
