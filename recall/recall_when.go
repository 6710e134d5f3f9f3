package recall

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A question about when (stage rerank, after the relevance gate).
//
// "When did Caroline go to the support group?" shares its words with
// every line about the support group, but only a line that says when —
// "I went to the support group yesterday", "we met four years ago",
// "지난주에 다녀왔어" — answers it; a memory is dated by its creation, and
// the words "yesterday" or "last week" are what tie the event to that
// date. So when the query asks when (asksWhen: "when did", "how long",
// "what year", "언제", "며칠", "얼마나 오래"), a kept memory whose own text
// names no time (namesTime: a time word, a unit of time, a month or
// weekday, a year, a Korean number with a unit of time) ranks ×
// UntimedShare. The gate is not touched (such a memory keeps its evidence;
// it only ranks lower), and when no kept memory names a time nothing
// changes: there is nothing to prefer.

// UntimedShare is the relevance share kept by a memory that names no time
// when the query asks when.
const UntimedShare = 0.6

// whenAuxiliaries follow an interrogative "when" ("when did", "when is");
// a "when" before a subject is a clause ("what do I eat when I'm sick").
var whenAuxiliaries = map[string]bool{
	"did": true, "do": true, "does": true, "was": true, "were": true, "is": true, "are": true,
	"will": true, "would": true, "has": true, "have": true, "had": true, "can": true, "could": true,
	"should": true, "am": true,
}

// whenPhrases ask about a time wherever they stand (whole words).
var whenPhrases = [...]string{
	"how long", "what year", "which year", "what month", "which month", "what date", "which date",
	"what day", "which day", "what time", "since when", "how many years", "how many months",
	"how many weeks", "how many days", "how many hours", "how often",
}

// whenPhrasesKO ask about a time in Korean (substrings: they carry
// particles and endings). "언제" is not "언제나" (always) or "언제든"
// (any time), which asksWhen tells apart.
var whenPhrasesKO = [...]string{
	"며칠", "몇 년", "몇년", "몇 월", "몇월", "몇 시", "몇시", "몇 달", "몇달", "몇 주", "몇주",
	"몇 개월", "몇개월", "얼마나 오래", "얼마 동안", "얼마동안", "얼마나 됐", "얼마나 되었", "무슨 요일", "얼마나 자주",
}

// asksWhen returns the words with which text asks when (or how often: a
// frequency is said in units of time, "three times a week"), or "".
func asksWhen(text string) string {
	t := intentText(text)
	words := strings.Fields(t)
	for i, w := range words {
		if w == "when" && (i == 0 || i+1 < len(words) && whenAuxiliaries[words[i+1]]) {
			if i+1 < len(words) && whenAuxiliaries[words[i+1]] {
				return "when " + words[i+1]
			}
			return "when"
		}
	}
	for _, p := range whenPhrases {
		if hasMarker(t, p) {
			return p
		}
	}
	for _, p := range whenPhrasesKO {
		if strings.Contains(t, p) {
			return p
		}
	}
	for rest := t; ; {
		i := strings.Index(rest, "언제")
		if i < 0 {
			break
		}
		rest = rest[i+len("언제"):]
		if !strings.HasPrefix(rest, "나") && !strings.HasPrefix(rest, "든") {
			return "언제"
		}
	}
	return ""
}

// timeWords are English words that name a time or a span of time (after
// lower-casing; plurals are looked up without their s). "may" and "march"
// are months only before or after a number (namesTime).
var timeWords = map[string]bool{
	"yesterday": true, "today": true, "tonight": true, "tomorrow": true, "ago": true,
	"recently": true, "lately": true, "earlier": true, "weekend": true, "morning": true,
	"afternoon": true, "evening": true, "overnight": true, "day": true, "week": true, "fortnight": true,
	"month": true, "year": true, "decade": true, "hour": true, "minute": true, "season": true,
	"spring": true, "summer": true, "autumn": true, "fall": true, "winter": true,
	"january": true, "february": true, "april": true, "june": true, "july": true, "august": true,
	"september": true, "october": true, "november": true, "december": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
	"saturday": true, "sunday": true, "christmas": true, "birthday": true, "anniversary": true,
	"annual": true, "weekly": true, "monthly": true, "yearly": true, "daily": true,
}

// timeWordsKO are Korean words that name a time, found at the start of a
// word (they carry particles: "어제는", "작년에").
var timeWordsKO = [...]string{
	"어제", "오늘", "내일", "모레", "그저께", "그제", "엊그제", "작년", "재작년", "지지난", "보름", "올해", "내년", "금년",
	"지난주", "이번주", "다음주", "저번주", "주말", "지난달", "이번달", "다음달", "저번달", "지난해",
	"아침", "저녁", "새벽", "점심", "오전", "오후", "최근", "요즘", "요새", "아까", "방금", "일주일",
	"하루", "이틀", "사흘", "한달", "매일", "매주", "매달", "매년", "봄", "여름", "가을", "겨울", "생일", "명절", "설날", "추석",
}

// timeUnitsKO follow a number or a native numeral to make a time ("3월",
// "2023년", "두 달", "5주", "3일 전").
var timeUnitsKO = [...]string{"년", "월", "일", "주", "시", "분", "달", "개월", "주일", "요일"}

// koNumerals are the native Korean numerals before a unit of time.
var koNumerals = map[string]bool{"한": true, "두": true, "세": true, "네": true, "다섯": true, "여섯": true, "몇": true}

// namesTime reports whether text names a time (see timeWords).
func namesTime(text string) bool {
	if s := speakerOf(text); s != "" {
		text = text[len(s)+1:]
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	prevNumber := false
	for i, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		number := unicode.IsDigit(r)
		switch {
		case isASCII(w):
			if timeWords[w] || strings.HasSuffix(w, "s") && timeWords[w[:len(w)-1]] {
				return true
			}
			if number && len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) && allDigits(w) {
				return true // a year
			}
			if (w == "may" || w == "march") && (prevNumber || i+1 < len(words) && startsWithDigit(words[i+1])) {
				return true
			}
		default:
			if koreanTime(w, prevNumber || (i > 0 && koNumerals[words[i-1]])) {
				return true
			}
		}
		prevNumber = number
	}
	return false
}

// koreanTime reports whether the Korean (or digit-led) word w names a
// time: a time word at its start, or a unit of time after digits in it or
// after a number word before it (afterNumber).
func koreanTime(w string, afterNumber bool) bool {
	for _, t := range timeWordsKO {
		if strings.HasPrefix(w, t) {
			return true
		}
	}
	rest := strings.TrimLeftFunc(w, unicode.IsDigit)
	if rest == w && !afterNumber {
		return false
	}
	for _, u := range timeUnitsKO {
		if strings.HasPrefix(rest, u) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

func startsWithDigit(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsDigit(r)
}

// whenRanks applies UntimedShare to the kept candidates when the query
// asks when and some of them name a time (the caller sorts them again),
// and says what it did, "" when nothing.
func (r *recallRun) whenRanks(kept []*candidate) string {
	marker := asksWhen(r.q.Text)
	if marker == "" || len(kept) == 0 {
		return ""
	}
	timed := make([]bool, len(kept))
	n := 0
	for i, c := range kept {
		if timed[i] = namesTime(c.m.Content); timed[i] {
			n++
		}
	}
	if n == 0 || n == len(kept) {
		return ""
	}
	for i, c := range kept {
		if timed[i] {
			continue
		}
		c.relevance *= UntimedShare
		c.set("names_no_time", 1)
		c.set("relevance_score", c.relevance)
	}
	return fmt.Sprintf("the query asks when (%q): %d memories that name no time rank × %s, %d name one",
		marker, len(kept)-n, f3(UntimedShare), n)
}
