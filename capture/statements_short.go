package capture

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine"
	"memtrace/engine/textnorm"
)

// statesFact is the topic of a short user message that states one fact
// about the user's world in few words ("The router sits in the hall
// closet", "회사는 판교에 있어", "배포는 Jenkins로 해"), or "". Such a
// message passes L1's length floors, as a change or a routine does: it is
// the fact a later update replaces, and Korean in particular says it in a
// dozen characters. It must read as statements only (no question, request,
// chatter or paste) and have a topic and a comment:
//
//   - a topic: a content noun marked as the topic or subject in Korean
//     (…은/는/이/가, not a pronoun such as 그건, 이게, 나는), or in English a
//     noun after a determiner or possessive that opens the sentence (the,
//     our, their, his, her);
//   - a comment with an anchor: a number, a name (a capitalised word
//     after the first, a Latin word in Korean text) or a place (a Korean
//     word marked 에/에서/(으)로; in, at, on, near, under, behind, next to).
//
// "The weather is nice" and "날씨는 좋네" have no anchor and stay below
// the floor.
func statesFact(m engine.Message) string {
	if m.Role != "user" {
		return ""
	}
	words := strings.Fields(m.Text)
	if len(words) < 2 {
		return ""
	}
	topic, at := koTopic(words)
	if topic == "" {
		topic, at = enTopic(words)
	}
	if topic == "" || !anchored(words[at+1:], hasHangul(m.Text)) {
		return ""
	}
	for _, a := range readActs(m.Text) { // the costlier reading last
		if a.act != actStatement {
			return ""
		}
	}
	return topic
}

// koTopic is the first Korean word marked as topic or subject whose noun
// is a content word, and its index.
func koTopic(words []string) (string, int) {
	for i, w := range words {
		w = strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		for _, p := range []string{"은", "는", "이", "가"} {
			noun, ok := strings.CutSuffix(w, p)
			if !ok || utf8.RuneCountInString(noun) < 2 || !hasHangul(noun) || koPronoun[noun] {
				continue
			}
			if t := textnorm.Tokens(noun); len(t) == 1 && !notTopic[t[0]] {
				return noun, i
			}
		}
	}
	return "", -1
}

// koPronoun: nouns that point rather than name (그건 = 그거+는).
var koPronoun = map[string]bool{"그거": true, "이거": true, "저거": true, "그것": true, "이것": true, "저것": true,
	"그게": true, "이게": true, "저게": true, "여기": true, "거기": true, "저기": true, "우리": true, "저희": true,
	"누구": true, "무엇": true, "뭐": true, "오늘": true, "내일": true, "어제": true, "요즘": true, "지금": true}

// enDeterminer opens an English topic noun phrase.
var enDeterminer = map[string]bool{"the": true, "our": true, "their": true, "his": true, "her": true}

// enTopic is the noun after a sentence-opening determiner, and its index.
func enTopic(words []string) (string, int) {
	if !enDeterminer[strings.ToLower(words[0])] {
		return "", -1
	}
	t := textnorm.Tokens(words[1])
	if len(t) != 1 || notTopic[t[0]] || textnorm.IsStopWord(strings.ToLower(words[1])) {
		return "", -1
	}
	return t[0], 1
}

// placeWord is an English preposition of place.
var placeWord = regexp.MustCompile(`(?i)^(?:in|at|on|near|under|behind|inside|beside|above|below|next)$`)

// anchored: the comment words name a number, a name or a place.
func anchored(words []string, korean bool) bool {
	for _, w := range words {
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 || placeWord.MatchString(strings.Trim(w, ",.!")) {
			return true
		}
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsUpper(r) || korean && unicode.IsLetter(r) && r < unicode.MaxLatin1 {
			return true
		}
		if hasHangulSuffix(w, []string{"에", "에서", "으로", "로"}) {
			return true
		}
	}
	return false
}
