package capture

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Recounted instructions (issue 29). "My PT told me to stop locking my
// knees", "today my lead said never push on Fridays", "엄마가 밥 굶지
// 말라고 잔소리하더라": the standing marker (stop, never, …지 말라고) is in
// what someone else said to the user — an account of the day, not an
// instruction to the assistant. Such a message records no lesson and is
// typed from its other words, never as a correction or a rule. A
// reminder to the assistant of its own earlier instruction ("I told you
// to stop adding emojis", "you said never to push on Fridays", "하지
// 말라고 했잖아" with no one named) is not recounted: it stays a lesson.

// recountVerbEN: a verb of saying or advising that reports another's words.
var recountVerbEN = regexp.MustCompile(`(?i)\b(?:said|says|told|tells|asked|asks|warned|warns|reminded|reminds|advised|advises|suggested|suggests|recommended|recommends|insisted|insists|wants|wanted|keeps telling|kept telling|yelled|nagged|nags)\b`)

// recountFormKO: a Korean reported or quoted ending (…라고, …래, …랬어,
// …하라셨, …말라고) or a verb of nagging and advising.
var recountFormKO = regexp.MustCompile(`(?:라고|라구|래요|래(?:$|[\s.!?~,])|래서|랬|라셨|라시|라더라|란다|잔소리|당부|조언)`)

// recountedInstruction reports whether every sentence of text with a
// standing or correction marker states it as another person's words
// (see above): an English reporting verb after a subject that is neither
// the speaker nor the assistant, before the marker; a Korean reported
// ending after a subject marked 이/가/께서/은/는 that is not the speaker or
// the listener.
func recountedInstruction(text string) bool {
	found := false
	for _, s := range splitSentences(text) {
		norm := lexNorm(s)
		if kwFind(norm, lessonMarkers()) == "" && kwFind(norm, correctionWords()) == "" {
			continue
		}
		if !recountedSentence(s) {
			return false
		}
		found = true
	}
	return found
}

// correctionWords are the markers of the rule judge's correction and
// rule tables.
var correctionWords = sync.OnceValue(func() lexicon {
	var l lexicon
	for _, t := range typeTables()[:2] {
		l.en = append(l.en, t.lex.en...)
		l.ko = append(l.ko, t.lex.ko...)
	}
	return l
})

func recountedSentence(s string) bool {
	if loc := recountVerbEN.FindStringIndex(s); loc != nil {
		words := strings.Fields(lexNorm(s[:loc[0]]))
		// The subject is the word before the verb, adverbs aside ("my lead
		// just said", "coach finally told me").
		for len(words) > 0 && recountAdverbs[words[len(words)-1]] {
			words = words[:len(words)-1]
		}
		if len(words) > 0 && !listenerOrSpeaker[words[len(words)-1]] {
			return true
		}
	}
	if !hasHangul(s) || !recountFormKO.MatchString(s) {
		return false
	}
	for _, w := range strings.Fields(s) {
		w = strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
		if listenerOrSpeaker[w] || !isHangulWord(w) {
			continue
		}
		if strings.HasSuffix(w, "께서") || (strings.HasSuffix(w, "가") || strings.HasSuffix(w, "이")) && len([]rune(w)) >= 2 && !koAdverbI[w] {
			return true
		}
	}
	return false
}

// listenerOrSpeaker are the subjects of a reminder between the user and
// the assistant, not a third party's words.
var listenerOrSpeaker = map[string]bool{"i": true, "you": true, "u": true, "we": true, "ya": true, "youve": true, "you've": true,
	"나": true, "내가": true, "제가": true, "저": true, "너": true, "네가": true, "니가": true, "우리가": true, "당신이": true}

var recountAdverbs = map[string]bool{"just": true, "finally": true, "also": true, "again": true, "literally": true,
	"basically": true, "always": true, "once": true, "even": true, "then": true, "actually": true, "specifically": true}
