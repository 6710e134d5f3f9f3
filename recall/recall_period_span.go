package recall

import (
	"regexp"
	"strings"
	"time"
)

// Periods between and around dates, read before the single dates of
// periodPatterns (so a range is one period, not its second date alone):
//
//   - a range, "between August 11 and August 15 2023", "from 3 May to 9
//     May", "8월 11일부터 15일까지": the days from the first to the last,
//     widened a day either side as a named day is; a date without a year
//     takes the other's, or its latest occurrence at or before the query;
//   - a date with an offset, "two weeks before August 11, 2023", "3 days
//     after 1 May", "8월 11일 2주 전": the days from the date to the date the
//     offset moves it to (offsetPeriod);
//   - a season of a year, "summer 2021", "the winter of 2022", "2021년 여름";
//   - a month and day with or without a year, "on August 11", "December
//     1,2023" ("may" alone is a verb: "May 5" needs a year or "on").
//
// Bounded: a range longer than a year names no period.

// enDate is a written English date: month and day in either order, a year
// optional ("August 11", "11 August, 2023", "Dec 1,2023").
const enDate = `((?:` + monthAlt + ` \d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)? (?:of )?` + monthAlt + `)(?:,\s*|\s+)?(?:(?:19|20)\d{2})?)`

var (
	enDateMD = regexp.MustCompile(`^` + monthAlt + ` (\d{1,2})(?:st|nd|rd|th)?(?:(?:,\s*|\s+)((?:19|20)\d{2}))?\s*$`)
	enDateDM = regexp.MustCompile(`^(\d{1,2})(?:st|nd|rd|th)? (?:of )?` + monthAlt + `(?:(?:,\s*|\s+)((?:19|20)\d{2}))?\s*$`)
)

// writtenDate reads an enDate match: its month, day and year (0 when it
// names none).
func writtenDate(s string) (y int, m time.Month, d int, ok bool) {
	if g := enDateMD.FindStringSubmatch(s); g != nil {
		return atoi(g[3]), monthNames[g[1]], atoi(g[2]), true
	}
	if g := enDateDM.FindStringSubmatch(s); g != nil {
		return atoi(g[3]), monthNames[g[2]], atoi(g[1]), true
	}
	return 0, 0, 0, false
}

// spanDay is the midnight of a date, its year y, or when y is 0 the latest
// such day at or before at.
func spanDay(y int, m time.Month, d int, at time.Time) (time.Time, bool) {
	if m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	if y == 0 {
		y = at.Year()
		if m > at.Month() || (m == at.Month() && d > at.Day()) {
			y--
		}
	}
	if y < 1900 {
		return time.Time{}, false
	}
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), true
}

// rangePeriod is the days first..last, widened a day either side; a year
// missing from one date comes from the other (the first date a year
// earlier when its month is later: "December 28 to January 3, 2024").
func rangePeriod(y1 int, m1 time.Month, d1, y2 int, m2 time.Month, d2 int, at time.Time) (period, bool) {
	switch {
	case y1 == 0 && y2 != 0:
		y1 = y2
		if m1 > m2 {
			y1--
		}
	case y2 == 0 && y1 != 0:
		y2 = y1
		if m2 < m1 {
			y2++
		}
	}
	last, ok := spanDay(y2, m2, d2, at)
	if !ok {
		return period{}, false
	}
	if y1 == 0 {
		y1 = last.Year()
		if m1 > m2 || (m1 == m2 && d1 > d2) {
			y1--
		}
	}
	first, ok := spanDay(y1, m1, d1, at)
	if !ok || last.Before(first) || last.Sub(first) > 366*24*time.Hour {
		return period{}, false
	}
	return period{from: first.AddDate(0, 0, -1), to: last.AddDate(0, 0, 2)}, true
}

// offsetPeriod is "n units before/after day": the days between day and
// the date the offset moves it to, the far end widened by half a unit (two
// weeks is 10–17 days) and both by a day as a named day is. The span
// keeps the date itself: what happened two weeks before August 11 is
// often told on August 11.
func offsetPeriod(n int, unit string, after bool, day time.Time) (period, bool) {
	if n <= 0 || n > 12 {
		return period{}, false
	}
	sign := 1
	if !after {
		sign = -1
	}
	var far time.Time
	var half time.Duration
	switch unit {
	case "day", "일":
		far = day.AddDate(0, 0, sign*n)
	case "week", "주", "주일":
		far, half = day.AddDate(0, 0, sign*7*n), 84*time.Hour
	case "month", "달", "개월":
		far, half = day.AddDate(0, sign*n, 0), 15*24*time.Hour
	default:
		return period{}, false
	}
	if !after {
		return period{from: far.Add(-half).AddDate(0, 0, -1), to: day.AddDate(0, 0, 2)}, true
	}
	return period{from: day.AddDate(0, 0, -1), to: far.Add(half).AddDate(0, 0, 2)}, true
}

// koDate is a Korean date: an optional year, month and day ("2023년 8월
// 11일", "8월 11일").
const koDate = `(?:(\d{4})년 ?)?(\d{1,2})월 ?(\d{1,2})일`

// spanPatterns run only on a text that can hold one (need): the regular
// expressions cost tens of microseconds a text, and a recall reads the
// query and the text of every memory told soon after a named period.
var spanPatterns = []struct {
	re   *regexp.Regexp
	read func(m []string, at time.Time) (period, bool)
	need func(t string) bool
}{
	{regexp.MustCompile(`\b(?:between|from) ` + enDate + ` ?(?:and|to|until|till|through|-|–) ` + enDate + `\b`), func(m []string, at time.Time) (period, bool) {
		y1, m1, d1, ok1 := writtenDate(m[1])
		y2, m2, d2, ok2 := writtenDate(m[4])
		if !ok1 || !ok2 {
			return period{}, false
		}
		return rangePeriod(y1, m1, d1, y2, m2, d2, at)
	}, func(t string) bool { return hasDigit(t) && hasMonth(t) }},
	{regexp.MustCompile(koDate + `(?:부터|에서) ?(?:(\d{1,2})월 ?)?(\d{1,2})일(?:까지)?`), func(m []string, at time.Time) (period, bool) {
		m2 := atoi(m[2])
		if m[4] != "" {
			m2 = atoi(m[4])
		}
		return rangePeriod(atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3]), 0, time.Month(m2), atoi(m[5]), at)
	}, func(t string) bool { return hasDigit(t) && strings.Contains(t, "월") }},
	{regexp.MustCompile(`\b(\d{1,2}|` + numberAlt + `) (day|week|month)s? (before|after|prior to|earlier than|later than) ` + enDate + `\b`), func(m []string, at time.Time) (period, bool) {
		y, mo, d, ok := writtenDate(m[4])
		if !ok {
			return period{}, false
		}
		day, ok := spanDay(y, mo, d, at)
		if !ok {
			return period{}, false
		}
		return offsetPeriod(numberOf(m[1]), m[2], m[3] == "after" || m[3] == "later than", day)
	}, func(t string) bool { return hasDigit(t) && hasMonth(t) }},
	{regexp.MustCompile(koDate + `(?:보다|로부터|으로부터|에서|기준으로|기준)? ?(\d{1,2}|한|두|세|네|다섯|여섯) ?(일|주일|주|달|개월) ?(전|후|뒤)`), func(m []string, at time.Time) (period, bool) {
		day, ok := spanDay(atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3]), at)
		if !ok {
			return period{}, false
		}
		return offsetPeriod(numberOf(m[4]), m[5], m[6] != "전", day)
	}, func(t string) bool { return hasDigit(t) && strings.Contains(t, "월") }},
	{regexp.MustCompile(`\b` + seasonAlt + `,? (?:of )?((?:19|20)\d{2})\b|\b((?:19|20)\d{2}) ` + seasonAlt + `\b|((?:19|20)\d{2})년 ?(봄|여름|가을|겨울)`), func(m []string, _ time.Time) (period, bool) {
		switch {
		case m[1] != "":
			return seasonPeriod(atoi(m[2]), seasons[m[1]]), true
		case m[3] != "":
			return seasonPeriod(atoi(m[3]), seasons[m[4]]), true
		}
		return seasonPeriod(atoi(m[5]), seasons[m[6]]), true
	}, func(t string) bool { return hasDigit(t) && hasSeason(t) }},
	{regexp.MustCompile(`\b(on |by |since |until )?` + monthAlt + ` (\d{1,2})(?:st|nd|rd|th)?(?:(?:,\s*|\s+)((?:19|20)\d{2}))?\b`), func(m []string, at time.Time) (period, bool) {
		if m[2] == "may" && m[1] == "" && m[4] == "" {
			return period{}, false // "I may 2 …": a verb
		}
		day, ok := spanDay(atoi(m[4]), monthNames[m[2]], atoi(m[3]), at)
		if !ok {
			return period{}, false
		}
		return dayOf(day), true
	}, func(t string) bool { return hasDigit(t) && hasMonth(t) }},
}

// hasMonth: t holds the first three letters of a month's name (t is lower-case).
func hasMonth(t string) bool {
	for _, m := range [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.Contains(t, m) {
			return true
		}
	}
	return false
}

func hasSeason(t string) bool {
	for _, w := range [...]string{"spring", "summer", "fall", "autumn", "winter", "봄", "여름", "가을", "겨울"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}
