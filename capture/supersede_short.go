package capture

import (
	"regexp"
	"strings"

	"memtrace/engine"
)

// Short facts a later change replaces. L1's length floors drop a message
// of a few words; the supersession rule needs the older fact stored, so
// two kinds of short user statement pass them (capture_decide.go), as a
// change does:
//
//   - a statement of a slot the rule reads ("I live in Incheon", "Mom
//     lives in Gimcheon", "I drive a K5"): a subject of the lexicon or the
//     job frame, or the speaker's partner, and a content word beside it —
//     the fact a later "moved", "sold" or "헤어졌어" replaces;
//   - a routine on abbreviated weekdays ("볼링 동호회 화목 저녁에 나가요",
//     "월수금 수영"): the habit a later "그만뒀어" ends;
//   - a dated booking or plan ("다음 주 토요일 캠핑 예약했어"): the plan a
//     later "취소했어" retracts (statesPlan).

// statesSlot is the lexicon subject a short user message states, or "".
func (c *Capturer) statesSlot(m engine.Message) string {
	if c.rule == nil || m.Role != "user" {
		return ""
	}
	text := c.filter.StripMemoryTags(m.Text)
	norm := lexNorm(text)
	subjects := c.rule.subjectsOf(norm)
	if len(subjects) == 0 && matchAny(norm, partnerWords) != "" {
		subjects = []string{"relationship"}
	}
	if len(subjects) == 0 || len(topicTerms(text)) < 2 {
		return ""
	}
	for _, a := range readActs(text) {
		if a.act != actStatement {
			return ""
		}
	}
	return subjects[0]
}

// koWeekdays are the syllables of the Korean weekdays, Monday first.
const koWeekdays = "월화수목금토일"

// koDayRun is the word of text that lists abbreviated weekdays in order
// ("화목", "월수금", "화목에", "토일마다"), or "".
func koDayRun(text string) string {
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, ",.!?~")
		core := w
		for _, p := range []string{"요일마다", "요일에", "마다", "에는", "엔", "에"} {
			if t, ok := strings.CutSuffix(core, p); ok {
				core = t
				break
			}
		}
		rs := []rune(core)
		if len(rs) < 2 || len(rs) > 4 {
			continue
		}
		last, ok := -1, true
		for _, r := range rs {
			i := strings.IndexRune(koWeekdays, r)
			if i <= last {
				ok = false
				break
			}
			last = i
		}
		if ok {
			return w
		}
	}
	return ""
}

// planCue: a booking, a decided plan or a dated event ("booked",
// "예약했어", "가기로 했어", "… 회식 있어").
var planCue = lexicon{en: []string{"booked", "reserved", "signed up for", "registered for", "bought tickets", "got tickets", "i'm flying to", "we're flying to", "i'm going to", "we're going to"},
	ko: []string{"예약했", "예약 완료", "예매했", "예매 완료", "신청했", "등록했", "가기로 했", "하기로 했", "보기로 했", "가기로 함",
		" 잡혔", " 잡았"}} // a dated event: "목요일에 면접 잡혔어" (not " 있어": "… 아는 데 있어" asks)

// planWhen: the date of a plan ("next week", "on Saturday", "다음 주 토요일", "3일에").
var planWhen = regexp.MustCompile(`(?i)\b(?:next\s+(?:week|month|weekend|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|tomorrow|tonight|this\s+(?:weekend|saturday|sunday|friday)|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\s+\d{1,2})\b|다음\s*(?:주|달|달에|주말)|내일|모레|이번\s*(?:주|주말|달)|[월화수목금토일]요일|\d{1,2}\s*일에|\d{1,2}\s*월\s*\d{1,2}\s*일`)

// statesPlan is the plan cue of a short user message that states a
// dated booking or plan ("다음 주 토요일 캠핑 예약했어, 가평으로", "booked
// Jeju for next Friday"), or "": it is what a later "취소했어" or "the trip
// is off" retracts, so it passes L1's length floors as a routine does.
func statesPlan(m engine.Message) string {
	if m.Role != "user" || !planWhen.MatchString(m.Text) {
		return ""
	}
	cue := kwFind(lexNorm(m.Text), planCue)
	if cue == "" || len(topicTerms(m.Text)) < 2 {
		return ""
	}
	for _, a := range readActs(m.Text) {
		if a.act != actStatement {
			return ""
		}
	}
	return cue
}
