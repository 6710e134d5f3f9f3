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
