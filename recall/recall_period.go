package recall

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Time as a cue: a query that names a period ("in May 2023", "on 13
// October 2023", "2026년 3월", "3월 7일에") cues the memories recorded in it —
// the moment of encoding is part of what a memory was encoded with, as its
// session neighbours are (recall_cue.go). The temporal stage multiplies the
// final score of a memory created inside a named period by
// (1 + TimeCueBoost); memories outside it are not penalised, since a
// query's date may be the event's and not the telling's. See DecayHelp.

// TimeCueBoost is the lift of a memory created in a period the query
// names: as much as the association boost of one committed recall of a
// neighbour (Config.AssocBoost's default), the other cue that is not a word.
const TimeCueBoost = 0.5

// period is a half-open span of time a query names, [from, to).
type period struct {
	from, to time.Time
	text     string // as written, for the trace
}

func (p period) contains(t time.Time) bool { return !t.Before(p.from) && t.Before(p.to) }

var monthNames = map[string]time.Month{
	"january": time.January, "february": time.February, "march": time.March, "april": time.April,
	"may": time.May, "june": time.June, "july": time.July, "august": time.August,
	"september": time.September, "october": time.October, "november": time.November, "december": time.December,
	"jan": time.January, "feb": time.February, "apr": time.April, "jun": time.June, "jul": time.July,
	"aug": time.August, "sep": time.September, "sept": time.September, "oct": time.October,
	"nov": time.November, "dec": time.December,
}

const monthAlt = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?`

// The period grammar, most specific first; each match is blanked before
// the next pattern runs, so "May 23, 2023" is one day, not also a month.
var periodPatterns = []struct {
	re   *regexp.Regexp
	read func(m []string, at time.Time) (period, bool)
}{
	{regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`), func(m []string, _ time.Time) (period, bool) {
		return dayPeriod(atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3]))
	}},
	{regexp.MustCompile(`\b` + monthAlt + ` (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b`), func(m []string, _ time.Time) (period, bool) {
		return dayPeriod(atoi(m[3]), monthNames[m[1]], atoi(m[2]))
	}},
	{regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?` + monthAlt + `,? (\d{4})\b`), func(m []string, _ time.Time) (period, bool) {
		return dayPeriod(atoi(m[3]), monthNames[m[2]], atoi(m[1]))
	}},
	{regexp.MustCompile(`(\d{4})년 ?(\d{1,2})월 ?(\d{1,2})일`), func(m []string, _ time.Time) (period, bool) {
		return dayPeriod(atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3]))
	}},
	{regexp.MustCompile(`\b` + monthAlt + `,? (?:of )?(\d{4})\b`), func(m []string, _ time.Time) (period, bool) {
		return monthPeriod(atoi(m[2]), monthNames[m[1]])
	}},
	{regexp.MustCompile(`(\d{4})년 ?(\d{1,2})월`), func(m []string, _ time.Time) (period, bool) {
		return monthPeriod(atoi(m[1]), time.Month(atoi(m[2])))
	}},
	{regexp.MustCompile(`(?:^|[^\d])(\d{1,2})월 ?(\d{1,2})일`), func(m []string, at time.Time) (period, bool) {
		return latestDay(time.Month(atoi(m[1])), atoi(m[2]), at)
	}},
	{regexp.MustCompile(`(?:^|[^\d])(\d{1,2})월`), func(m []string, at time.Time) (period, bool) {
		return latestMonth(time.Month(atoi(m[1])), at)
	}},
	{regexp.MustCompile(`\b(?:in|during|since|of) ` + monthAlt + `\b`), func(m []string, at time.Time) (period, bool) {
		return latestMonth(monthNames[m[1]], at)
	}},
	{regexp.MustCompile(`\b(?:in|during|of) ((?:19|20)\d{2})\b|((?:19|20)\d{2})년`), func(m []string, _ time.Time) (period, bool) {
		y := m[1] + m[2]
		return period{from: time.Date(atoi(y), 1, 1, 0, 0, 0, 0, time.UTC), to: time.Date(atoi(y)+1, 1, 1, 0, 0, 0, 0, time.UTC)}, true
	}},
}

// namedPeriods are the periods text names, read relative to at (a month
// without a year is its latest occurrence at or before at).
func namedPeriods(text string, at time.Time) []period {
	t := strings.ToLower(text)
	var out []period
	for _, p := range periodPatterns {
		for _, loc := range p.re.FindAllStringSubmatchIndex(t, -1) {
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = t[loc[2*i]:loc[2*i+1]]
				}
			}
			if per, ok := p.read(m, at); ok {
				per.text = strings.TrimSpace(m[0])
				out = append(out, per)
			}
		}
		t = p.re.ReplaceAllStringFunc(t, func(s string) string { return strings.Repeat(" ", len(s)) })
	}
	return out
}

// dayPeriod is the calendar day, widened by a day either side: the day a
// query names is in someone's time zone, the memory's time is UTC.
func dayPeriod(y int, m time.Month, d int) (period, bool) {
	if y < 1900 || m < 1 || m > 12 || d < 1 || d > 31 {
		return period{}, false
	}
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return period{from: day.AddDate(0, 0, -1), to: day.AddDate(0, 0, 2)}, true
}

func monthPeriod(y int, m time.Month) (period, bool) {
	if y < 1900 || m < 1 || m > 12 {
		return period{}, false
	}
	from := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	return period{from: from, to: from.AddDate(0, 1, 0)}, true
}

func latestMonth(m time.Month, at time.Time) (period, bool) {
	y := at.Year()
	if m > at.Month() {
		y--
	}
	return monthPeriod(y, m)
}

func latestDay(m time.Month, d int, at time.Time) (period, bool) {
	y := at.Year()
	if m > at.Month() || (m == at.Month() && d > at.Day()) {
		y--
	}
	return dayPeriod(y, m, d)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
