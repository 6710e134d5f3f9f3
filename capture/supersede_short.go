package capture

import (
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
//     "월수금 수영"): the habit a later "그만뒀어" ends.

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
