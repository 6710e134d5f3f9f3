package recall

import (
	"testing"
	"time"
)

func TestNamedPeriods(t *testing.T) {
	at := time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	for _, tt := range []struct {
		q        string
		from, to time.Time // the first period; zero: none
	}{
		{"What did Gina find on 1 February, 2023?", d(2023, 1, 31), d(2023, 2, 3)},
		{"the painting she showed on October 13, 2023", d(2023, 10, 12), d(2023, 10, 15)},
		{"what happened in May 2023", d(2023, 5, 1), d(2023, 6, 1)},
		{"in March", d(2026, 3, 1), d(2026, 4, 1)},
		{"in November", d(2025, 11, 1), d(2025, 12, 1)}, // the latest November at or before at
		{"2026-03-28 apples", d(2026, 3, 27), d(2026, 3, 30)},
		{"2026년 3월 28일에 뭐 했지?", d(2026, 3, 27), d(2026, 3, 30)},
		{"2026년 3월에 간 곳", d(2026, 3, 1), d(2026, 4, 1)},
		{"3월 7일에 충주", d(2026, 3, 6), d(2026, 3, 9)},
		{"작년 12월", d(2025, 12, 1), d(2026, 1, 1)},
		{"trips in 2023", d(2023, 1, 1), d(2024, 1, 1)},
		{"I may go", time.Time{}, time.Time{}}, // "may" alone is a verb
		{"what is my blood type", time.Time{}, time.Time{}},
	} {
		ps := namedPeriods(tt.q, at)
		switch {
		case tt.from.IsZero() && len(ps) > 0:
			t.Errorf("%q: periods %+v, want none", tt.q, ps)
		case tt.from.IsZero():
		case len(ps) == 0:
			t.Errorf("%q: no period, want [%v, %v)", tt.q, tt.from, tt.to)
		case !ps[0].from.Equal(tt.from) || !ps[0].to.Equal(tt.to):
			t.Errorf("%q: [%v, %v), want [%v, %v)", tt.q, ps[0].from, ps[0].to, tt.from, tt.to)
		}
	}
}

// Relative periods, English and Korean, read from the query's time.
func TestRelativePeriods(t *testing.T) {
	at := time.Date(2026, 10, 20, 9, 0, 0, 0, time.UTC) // a Tuesday
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	for _, tt := range []struct {
		q        string
		from, to time.Time
		n        int // periods named
	}{
		{"what did I quit last month?", d(2026, 9, 1), d(2026, 10, 1), 1},
		{"지난달에 뭐 끊었더라?", d(2026, 9, 1), d(2026, 10, 1), 1},
		{"what did I buy last week", d(2026, 10, 11), d(2026, 10, 20), 1},
		{"지난주에 산 거", d(2026, 10, 11), d(2026, 10, 20), 1},
		{"what did we do last weekend?", d(2026, 10, 16), d(2026, 10, 20), 1},
		{"지난 주말에 뭐 했지", d(2026, 10, 16), d(2026, 10, 20), 1},
		{"작년 가을", d(2025, 9, 1), d(2025, 12, 1), 1},
		{"last fall", d(2025, 9, 1), d(2025, 12, 1), 1},
		{"last summer", d(2026, 6, 1), d(2026, 9, 1), 1},
		{"작년 12월", d(2025, 12, 1), d(2026, 1, 1), 1},
		{"yesterday", d(2026, 10, 18), d(2026, 10, 21), 1},
		{"어제 먹은 거", d(2026, 10, 18), d(2026, 10, 21), 1},
		{"two weeks ago", d(2026, 10, 2).Add(21 * time.Hour), d(2026, 10, 9).Add(21 * time.Hour), 1},
		{"3주 전에", d(2026, 9, 25).Add(21 * time.Hour), d(2026, 10, 2).Add(21 * time.Hour), 1},
		{"last saturday", d(2026, 10, 16), d(2026, 10, 19), 1},
		{"지난주 토요일에 강릉", d(2026, 10, 16), d(2026, 10, 19), 1},
		{"this year", d(2026, 1, 1), d(2027, 1, 1), 1},
		// two back, read before one back ("지난달" is inside "지지난달")
		{"what did we do the weekend before last?", d(2026, 10, 9), d(2026, 10, 13), 1},
		{"지지난 주말에 뭐 했지", d(2026, 10, 9), d(2026, 10, 13), 1},
		{"the week before last", d(2026, 10, 4), d(2026, 10, 13), 1},
		{"지지난주에 산 거", d(2026, 10, 4), d(2026, 10, 13), 1},
		{"지지난달에 무슨 일", d(2026, 8, 1), d(2026, 9, 1), 1},
		{"the month before last", d(2026, 8, 1), d(2026, 9, 1), 1},
		{"재작년 여름", d(2024, 6, 1), d(2024, 9, 1), 1},
		{"재작년에 이사", d(2024, 1, 1), d(2025, 1, 1), 1},
		{"the year before last", d(2024, 1, 1), d(2025, 1, 1), 1},
		// a fortnight is two weeks; 보름 half a month
		{"a fortnight ago", d(2026, 10, 2).Add(21 * time.Hour), d(2026, 10, 9).Add(21 * time.Hour), 1},
		{"보름 전에", d(2026, 10, 2).Add(21 * time.Hour), d(2026, 10, 9).Add(21 * time.Hour), 1},
		{"a couple of weeks ago", d(2026, 10, 2).Add(21 * time.Hour), d(2026, 10, 9).Add(21 * time.Hour), 1},
		{"a few days ago", d(2026, 10, 14), d(2026, 10, 20), 1},
		{"지난 겨울", d(2025, 12, 1), d(2026, 3, 1), 1},
		{"earlier this month", d(2026, 10, 1), d(2026, 11, 1), 1},
		{"이달에 본 영화", d(2026, 10, 1), d(2026, 11, 1), 1},
	} {
		ps := namedPeriods(tt.q, at)
		switch {
		case len(ps) != tt.n:
			t.Errorf("%q: %d periods %+v, want %d", tt.q, len(ps), ps, tt.n)
		case !ps[0].from.Equal(tt.from) || !ps[0].to.Equal(tt.to):
			t.Errorf("%q: [%v, %v), want [%v, %v)", tt.q, ps[0].from, ps[0].to, tt.from, tt.to)
		}
	}
}

// Ranges, dates with an offset, seasons of a year and month-day dates
// without a year (recall_period_span.go), English and Korean.
func TestSpanPeriods(t *testing.T) {
	at := time.Date(2026, 10, 20, 9, 0, 0, 0, time.UTC)
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	for _, tt := range []struct {
		q        string
		from, to time.Time // zero: no period
		n        int
	}{
		{"Where was John between August 11 and August 15 2023?", d(2023, 8, 10), d(2023, 8, 17), 1},
		{"what did we do from 3 May to 9 May", d(2026, 5, 2), d(2026, 5, 11), 1},
		{"between December 28 and January 3, 2024", d(2023, 12, 27), d(2024, 1, 5), 1},
		{"8월 11일부터 15일까지 어디 있었지?", d(2026, 8, 10), d(2026, 8, 17), 1},
		{"2023년 8월 11일부터 9월 2일까지", d(2023, 8, 10), d(2023, 9, 4), 1},
		{"the puppy she got two weeks before August 11, 2023", d(2023, 7, 28).Add(-84*time.Hour).AddDate(0, 0, -1), d(2023, 8, 13), 1},
		{"what happened 3 days after 1 May 2025", d(2025, 4, 30), d(2025, 5, 6), 1},
		{"2023년 8월 11일 2주 전에 뭐 샀지", d(2023, 7, 28).Add(-84*time.Hour).AddDate(0, 0, -1), d(2023, 8, 13), 1},
		{"What state did Joanna visit in summer 2021?", d(2021, 6, 1), d(2021, 9, 1), 1},
		{"the winter of 2022", d(2022, 12, 1), d(2023, 3, 1), 1},
		{"2021년 여름에 간 곳", d(2021, 6, 1), d(2021, 9, 1), 1},
		{"the forest picture shared on December 1,2023", d(2023, 11, 30), d(2023, 12, 3), 1},
		{"what did I buy on August 11?", d(2026, 8, 10), d(2026, 8, 13), 1},
		{"I may 2 go", time.Time{}, time.Time{}, 0},           // "may" alone is a verb
		{"between May and June", time.Time{}, time.Time{}, 0}, // months without "in": no day range either
	} {
		ps := namedPeriods(tt.q, at)
		switch {
		case len(ps) != tt.n:
			t.Errorf("%q: %d periods %+v, want %d", tt.q, len(ps), ps, tt.n)
		case tt.n == 0:
		case !ps[0].from.Equal(tt.from) || !ps[0].to.Equal(tt.to):
			t.Errorf("%q: [%v, %v), want [%v, %v)", tt.q, ps[0].from, ps[0].to, tt.from, tt.to)
		}
	}
}

// asksOnlyWhen: a query whose words, its period blanked, are all generic or
// empty nouns asks only when; one with a content word does not.
func TestAsksOnlyWhen(t *testing.T) {
	at := time.Date(2026, 9, 28, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q    string
		only bool
	}{
		{"5월에 무슨 일 있었지?", true},
		{"what happened in March?", true},
		{"7월에 뭔 일 있었어?", true},
		{"5월에 산 책 뭐였지?", false},
		{"what did I buy in March?", false},
	} {
		ps, rest := readPeriods(tt.q, at)
		if len(ps) == 0 {
			t.Fatalf("%q: no period read", tt.q)
		}
		if got := asksOnlyWhen(rest); got != tt.only {
			t.Errorf("%q (rest %q): asksOnlyWhen = %v, want %v", tt.q, rest, got, tt.only)
		}
	}
}
