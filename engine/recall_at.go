package engine

import (
	"strconv"
	"strings"
	"time"
)

// ParseAt reads a time override: an RFC 3339 time ("2026-06-01T09:00:00Z"),
// a date ("2026-06-01", midnight UTC), "now", or an offset from base with a
// sign and a unit — "+30d", "-2h", "+1w", "+90m", "+1d12h" (units: w, d, h,
// m, s). It is what `recall --at`, `golden` and `heartbeat --at` accept.
func ParseAt(s string, base time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "" || s == "now":
		return base.UTC(), nil
	case s[0] == '+' || s[0] == '-':
		d, err := parseOffset(s[1:])
		if err != nil {
			return time.Time{}, Errorf(EINVALID, "bad time offset %q: %s (try +30d, -2h or an RFC 3339 time)", s, err.Error())
		}
		if s[0] == '-' {
			d = -d
		}
		return base.Add(d).UTC(), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t.UTC(), nil
	}
	return time.Time{}, Errorf(EINVALID, "bad time %q: use an RFC 3339 time (2026-06-01T09:00:00Z), a date, now, or an offset such as +30d or -2h", s)
}

// parseOffset reads "30d", "1w2d", "2h30m" into a duration.
func parseOffset(s string) (time.Duration, error) {
	if s == "" {
		return 0, Errorf(EINVALID, "missing amount")
	}
	units := map[byte]time.Duration{
		'w': 7 * 24 * time.Hour, 'd': 24 * time.Hour, 'h': time.Hour, 'm': time.Minute, 's': time.Second,
	}
	var total time.Duration
	for s != "" {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		if i == 0 || i == len(s) {
			return 0, Errorf(EINVALID, "expected a number followed by one of w, d, h, m, s")
		}
		n, err := strconv.ParseFloat(s[:i], 64)
		if err != nil {
			return 0, Errorf(EINVALID, "bad number %q", s[:i])
		}
		unit, ok := units[s[i]]
		if !ok {
			return 0, Errorf(EINVALID, "unknown unit %q (use w, d, h, m or s)", s[i:i+1])
		}
		total += time.Duration(n * float64(unit))
		s = s[i+1:]
	}
	return total, nil
}
