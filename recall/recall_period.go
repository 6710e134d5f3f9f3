package recall

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"memtrace/engine/tuning"
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
const TimeCueBoost = tuning.TimeCueBoost

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
	// Two back ("the month before last", 지지난달, 재작년) before one back:
	// "지난달" is inside "지지난달", "작년" inside "재작년".
	{regexp.MustCompile(`\b(?:the )?year before last\b|(?:재작년|지지난 ?해)(?: ?(\d{1,2})월| ?(봄|여름|가을|겨울))?`), func(m []string, at time.Time) (period, bool) {
		switch {
		case m[1] != "":
			return monthPeriod(at.Year()-2, time.Month(atoi(m[1])))
		case m[2] != "":
			return seasonPeriod(at.Year()-2, seasons[m[2]]), true
		}
		return yearPeriod(at.Year() - 2), true
	}},
	{regexp.MustCompile(`\b(?:the )?month before last\b|지지난 ?달|지지저번 ?달`), func(_ []string, at time.Time) (period, bool) {
		first := time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -2, 0)
		return monthPeriod(first.Year(), first.Month())
	}},
	{regexp.MustCompile(`\b(?:the )?weekend before last\b|지지난 ?주 ?주말|지지난 ?주말`), func(_ []string, at time.Time) (period, bool) {
		sat := weekStart(at).AddDate(0, 0, -9)
		return period{from: sat.AddDate(0, 0, -1), to: sat.AddDate(0, 0, 3)}, true
	}},
	{regexp.MustCompile(`\b(?:the )?week before last\b|지지난 ?주|지지저번 ?주`), func(_ []string, at time.Time) (period, bool) {
		mon := weekStart(at).AddDate(0, 0, -14)
		return period{from: mon.AddDate(0, 0, -1), to: mon.AddDate(0, 0, 8)}, true
	}},
	{regexp.MustCompile(`(?:작년|지난해) ?(\d{1,2})월`), func(m []string, at time.Time) (period, bool) {
		return monthPeriod(at.Year()-1, time.Month(atoi(m[1])))
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
		return yearPeriod(atoi(m[1] + m[2])), true
	}}, // Relative periods, read from at (the query's time, or a memory's
	// creation when its own text is read, periodsOfMemory).
	{regexp.MustCompile(`\b(?:last|past) ` + seasonAlt + `\b|(?:작년|지난해) ?(봄|여름|가을|겨울)|(?:지난|저번) ?(봄|여름|가을|겨울)`), func(m []string, at time.Time) (period, bool) {
		if m[2] != "" {
			return seasonPeriod(at.Year()-1, seasons[m[2]]), true
		}
		return lastSeason(seasons[m[1]+m[3]], at), true // 지난 겨울: the latest winter over
	}},
	{regexp.MustCompile(`\bthis ` + seasonAlt + `\b|(?:올|올해 ?|이번 ?)(봄|여름|가을|겨울)`), func(m []string, at time.Time) (period, bool) {
		return seasonPeriod(at.Year(), seasons[m[1]+m[2]]), true
	}},
	{regexp.MustCompile(`\b(\d{1,2}|` + numberAlt + `|a couple of|a few) (day|week|fortnight|month|year)s? ago\b|(\d{1,2}|한|두|세|네|다섯|여섯|몇) ?(일|주일|주|달|개월|년) ?전|(보름) ?전`), func(m []string, at time.Time) (period, bool) {
		n, unit := numberOf(m[1]+m[3]), m[2]+m[4]
		if m[5] != "" { // 보름 전: half a month, a fortnight
			n, unit = 1, "fortnight"
		}
		if m[1] == "a few" || m[3] == "몇" { // a few days ago: 2–5 units back
			return fewAgoPeriod(unit, at)
		}
		return agoPeriod(n, unit, at)
	}},
	{regexp.MustCompile(`\b(?:the )?day before yesterday\b|그저께|그제`), func(_ []string, at time.Time) (period, bool) {
		return dayOf(at.AddDate(0, 0, -2)), true
	}},
	{regexp.MustCompile(`\byesterday\b|어제`), func(_ []string, at time.Time) (period, bool) {
		return dayOf(at.AddDate(0, 0, -1)), true
	}},
	{regexp.MustCompile(`\b(?:last|this past) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|(?:지난주|지난 주|저번주|저번 주|지난|저번) ?(월|화|수|목|금|토|일)요일`), func(m []string, at time.Time) (period, bool) {
		if m[2] != "" { // 지난주 토요일: that day of the previous week
			return dayOf(weekStart(at).AddDate(0, 0, -7+weekdayIndex[m[2]])), true
		}
		d := at.AddDate(0, 0, -1)
		for weekdayIndex[m[1]] != (int(d.Weekday())+6)%7 {
			d = d.AddDate(0, 0, -1)
		}
		return dayOf(d), true
	}},
	{regexp.MustCompile(`\blast weekend\b|(?:지난|저번) ?주말`), func(_ []string, at time.Time) (period, bool) {
		sat := weekStart(at).AddDate(0, 0, -2)
		return period{from: sat.AddDate(0, 0, -1), to: sat.AddDate(0, 0, 3)}, true
	}},
	{regexp.MustCompile(`\bthis weekend\b|이번 ?주말`), func(_ []string, at time.Time) (period, bool) {
		sat := weekStart(at).AddDate(0, 0, 5)
		return period{from: sat.AddDate(0, 0, -1), to: sat.AddDate(0, 0, 3)}, true
	}},
	{regexp.MustCompile(`\blast week\b|지난주|지난 주|저번주|저번 주`), func(_ []string, at time.Time) (period, bool) {
		mon := weekStart(at).AddDate(0, 0, -7)
		return period{from: mon.AddDate(0, 0, -1), to: mon.AddDate(0, 0, 8)}, true
	}},
	{regexp.MustCompile(`\bthis week\b|이번 ?주`), func(_ []string, at time.Time) (period, bool) {
		mon := weekStart(at)
		return period{from: mon.AddDate(0, 0, -1), to: mon.AddDate(0, 0, 8)}, true
	}},
	{regexp.MustCompile(`\blast month\b|지난 ?달|저번 ?달`), func(_ []string, at time.Time) (period, bool) {
		first := time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -1, 0)
		return monthPeriod(first.Year(), first.Month())
	}},
	{regexp.MustCompile(`\b(?:earlier )?this month\b|이번 ?달|이달`), func(_ []string, at time.Time) (period, bool) {
		return monthPeriod(at.Year(), at.Month())
	}},
	{regexp.MustCompile(`\blast year\b|작년|지난해`), func(_ []string, at time.Time) (period, bool) {
		return yearPeriod(at.Year() - 1), true
	}},
	{regexp.MustCompile(`\bthis year\b|올해|금년`), func(_ []string, at time.Time) (period, bool) {
		return yearPeriod(at.Year()), true
	}},
}

const seasonAlt = `(spring|summer|fall|autumn|winter)`

// seasons are the months a season starts in (winter: December, ending in
// the next year's February).
var seasons = map[string]time.Month{
	"spring": time.March, "summer": time.June, "fall": time.September, "autumn": time.September, "winter": time.December,
	"봄": time.March, "여름": time.June, "가을": time.September, "겨울": time.December,
}

func seasonPeriod(y int, start time.Month) period {
	from := time.Date(y, start, 1, 0, 0, 0, 0, time.UTC)
	return period{from: from, to: from.AddDate(0, 3, 0)}
}

// lastSeason is the latest season s that ended at or before at.
func lastSeason(start time.Month, at time.Time) period {
	p := seasonPeriod(at.Year(), start)
	for p.to.After(at) {
		p = seasonPeriod(p.from.Year()-1, start)
	}
	return p
}

const numberAlt = `a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve`

var numberWords = map[string]int{
	"a": 1, "an": 1, "a couple of": 2, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6,
}

func numberOf(s string) int {
	if n, ok := numberWords[s]; ok {
		return n
	}
	return atoi(s)
}

// agoPeriod is "N units ago": the span of one unit centred on that moment.
func agoPeriod(n int, unit string, at time.Time) (period, bool) {
	if n <= 0 {
		return period{}, false
	}
	day := 24 * time.Hour
	var span time.Duration
	var mid time.Time
	switch unit {
	case "day", "일":
		return dayOf(at.AddDate(0, 0, -n)), true
	case "week", "주", "주일":
		mid, span = at.AddDate(0, 0, -7*n), 7*day
	case "fortnight":
		mid, span = at.AddDate(0, 0, -14*n), 7*day
	case "month", "달", "개월":
		mid, span = at.AddDate(0, -n, 0), 30*day
	case "year", "년":
		mid, span = at.AddDate(-n, 0, 0), 365*day
	default:
		return period{}, false
	}
	return period{from: mid.Add(-span / 2), to: mid.Add(span / 2)}, true
}

// fewAgoPeriod is "a few units ago" ("a few days ago", "몇 주 전"): from
// five units back to two, the days widened as a named day is.
func fewAgoPeriod(unit string, at time.Time) (period, bool) {
	far, near := at, at
	switch unit {
	case "day", "일":
		far, near = at.AddDate(0, 0, -5), at.AddDate(0, 0, -2)
	case "week", "주", "주일":
		far, near = at.AddDate(0, 0, -35), at.AddDate(0, 0, -14)
	case "month", "달", "개월":
		far, near = at.AddDate(0, -5, 0), at.AddDate(0, -2, 0)
	default:
		return period{}, false
	}
	return period{from: dayOf(far).from, to: dayOf(near).to}, true
}

// dayOf is the calendar day of t, widened as dayPeriod widens.
func dayOf(t time.Time) period {
	p, _ := dayPeriod(t.Year(), t.Month(), t.Day())
	return p
}

// weekStart is midnight UTC of the Monday of t's week.
func weekStart(t time.Time) time.Time {
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}

// weekdayIndex numbers the days from Monday (0), in both languages.
var weekdayIndex = map[string]int{
	"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
	"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6,
}

func yearPeriod(y int) period {
	return period{from: time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), to: time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC)}
}

// namedPeriods are the periods text names, read relative to at (a month
// without a year is its latest occurrence at or before at).
func namedPeriods(text string, at time.Time) []period {
	ps, _ := readPeriods(text, at)
	return ps
}

// readPeriods is namedPeriods and the text with every period blanked out
// (lower-cased): what the query asks besides when.
func readPeriods(text string, at time.Time) ([]period, string) {
	t := strings.ToLower(text)
	var out []period
	for _, p := range spanPatterns { // before the single dates (recall_period_span.go)
		if p.need(t) {
			t = applyPeriodPattern(p.re, p.read, t, at, &out)
		}
	}
	for _, p := range periodPatterns {
		t = applyPeriodPattern(p.re, p.read, t, at, &out)
	}
	return out, t
}

// applyPeriodPattern appends the periods re finds in t to out and returns
// t with its matches blanked.
func applyPeriodPattern(re *regexp.Regexp, read func(m []string, at time.Time) (period, bool), t string, at time.Time, out *[]period) string {
	locs := re.FindAllStringSubmatchIndex(t, -1)
	if len(locs) == 0 {
		return t // most patterns match nothing: no copy of t to blank
	}
	for _, loc := range locs {
		m := make([]string, len(loc)/2)
		for i := range m {
			if loc[2*i] >= 0 {
				m[i] = t[loc[2*i]:loc[2*i+1]]
			}
		}
		if per, ok := read(m, at); ok {
			per.text = strings.TrimSpace(m[0])
			*out = append(*out, per)
		}
	}
	b := []byte(t) // blank the matches (the same leftmost matches ReplaceAll finds)
	for _, loc := range locs {
		for i := loc[0]; i < loc[1]; i++ {
			b[i] = ' '
		}
	}
	return string(b)
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
