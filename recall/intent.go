package recall

import (
	"strings"
	"unicode"

	"memtrace/engine"
	"memtrace/engine/textnorm"
)

// The temporal intent of a query, read from its words (moved from the
// engine root: only recall reads a query).

// nowMarkers are the words with which a query asks about the present.
// English markers match whole words (intentText lowercases and turns
// punctuation into spaces), Korean ones as substrings (they carry particles and
// endings: "요즘은", "지금도").
var nowMarkers = [...]string{
	"these days", "nowadays", "currently", "current", "right now", "at the moment", "at present",
	"lately", "recently", "this week", "today", "now", "still",
	"요즘", "요새", "지금", "현재", "최근", "이번 주", "오늘", "아직",
}

// pastEventMarkers are the words with which a query asks about a specific
// past event. AsksAboutPast's markers ("last year", "작년", "그때", …)
// count too.
var pastEventMarkers = [...]string{
	"when did", "when was", "when were", "last time", "the time when", "that time", "how long ago", "ago",
	"back then", "remember when", "used to", "did i ever", "have i ever", "first time",
	"그때", "그 때", "예전에", "예전", "지난번", "저번", "언제였", "언제 했", "처음", "했었", "였었", "었었",
}

// QueryIntent classifies a query's temporal intent and returns the marker
// that decided it ("" for IntentNeutral). A past-event marker wins over a
// now marker ("when did I last see the doctor, these days?" asks about an
// event): the question names the event, the adverb only frames it.
func QueryIntent(text string) (engine.TemporalIntent, string) {
	t := intentText(text)
	for _, w := range pastEventMarkers {
		if hasMarker(t, w) {
			return engine.IntentPast, w
		}
	}
	for _, w := range PastMarkers {
		if hasMarker(t, w) {
			return engine.IntentPast, w
		}
	}
	for _, w := range nowMarkers {
		if hasMarker(t, w) {
			return engine.IntentNow, w
		}
	}
	return engine.IntentNeutral, ""
}

// markerTerms are the query terms of every temporal marker in text ("요즘",
// "currently", "last time" → "time"): words that say when, not what. They
// carry the intent and are left out of the cue (cueScores), so "요즘" in a
// question does not cue a memory that happens to say "요즘" too.
func MarkerTerms(text string) map[string]bool {
	t := intentText(text)
	out := map[string]bool{}
	for _, list := range [][]string{nowMarkers[:], pastEventMarkers[:], PastMarkers[:]} {
		for _, w := range list {
			if hasMarker(t, w) {
				kept, _ := textnorm.QueryTerms(w)
				for _, k := range kept {
					out[k] = true
				}
			}
		}
	}
	return out
}

// intentText is text lower-cased with every run of non-letters, non-digits
// folded to one space, padded with a space either side, so markers match
// at word boundaries ("now?" holds "now", "know" does not).
func intentText(text string) string {
	f := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	return " " + strings.Join(f, " ") + " "
}

// hasMarker reports whether the padded, normalised text t holds marker w:
// as a whole word sequence for Latin markers, as a substring for Hangul.
func hasMarker(t, w string) bool {
	if w == "" {
		return false
	}
	if w[0] < 0x80 { // Latin: word boundaries ("now" is not in "know")
		return strings.Contains(t, " "+w+" ")
	}
	return strings.Contains(t, w)
}

// pastMarkers are words with which a query asks about the past, so COLD
// (archived) memories may answer it.
var PastMarkers = [...]string{
	"last year", "years ago", "months ago", "back then", "used to", "long ago", "in the past",
	"remember when", "archive", "archived", "previously",
	"작년", "재작년", "예전", "옛날", "지난번", "지난해", "몇 년 전", "몇 달 전", "그때", "과거", "아카이브",
}
